import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from '@swapgw/chains/families';
import { createPrivateKey, KeyObject } from 'node:crypto';
import {
  KeyCheck,
  parseKeysByChain,
  readKeysVariable,
  RelayerKeysReading,
} from '../../sponsorship/relayer-keys';
import { SecretText } from '../../sponsorship/secret-text';

/**
 * Which networks a WIF's version byte is of: 0x80 mainnet; 0xef every test network (testnet and
 * regtest share it: the chain's `bitcoinNetwork` says which one a key's address is on).
 */
export type WifNetwork = 'mainnet' | 'test';

/** A decoded WIF of a compressed key: its 32-byte private key (the caller zeroes it) and network. */
export interface DecodedWif {
  network: WifNetwork;
  privateKey: Uint8Array;
}

/** The WIF of a compressed secp256k1 key, or null when it is not one (never says why: no key text). */
export function decodeBitcoinWif(wif: unknown): DecodedWif | null {
  if (typeof wif !== 'string') return null;
  for (const [network, params] of [
    ['mainnet', BITCOIN_NETWORKS.mainnet],
    ['test', BITCOIN_NETWORKS.regtest],
  ] as const) {
    let privateKey: Uint8Array;
    try {
      privateKey = btc.WIF(params).decode(wif);
    } catch {
      continue;
    }
    if (!secp256k1.utils.isValidSecretKey(privateKey)) return null;
    return { network, privateKey: Uint8Array.from(privateKey) };
  }
  return null;
}

/** The WIF network a chain's keys must be of. */
export function wifNetworkOf(bitcoinNetwork: BitcoinNetworkName): WifNetwork {
  return bitcoinNetwork === 'mainnet' ? 'mainnet' : 'test';
}

/**
 * A secp256k1 private key as a KeyObject, which prints nothing of the key however it is logged;
 * `privateKeyBytes` gives the 32 bytes back.
 */
export function secp256k1PrivateKey(privateKey: Uint8Array): KeyObject {
  const point = secp256k1.getPublicKey(privateKey, false);
  return createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      d: Buffer.from(privateKey).toString('base64url'),
      x: Buffer.from(point.subarray(1, 33)).toString('base64url'),
      y: Buffer.from(point.subarray(33)).toString('base64url'),
    },
    format: 'jwk',
  });
}

/** The 32 bytes of a secp256k1 KeyObject (the caller zeroes them once used). */
export function privateKeyBytes(key: KeyObject): Uint8Array {
  const { d } = key.export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(d as string, 'base64url'));
}

/**
 * One key of BITCOIN_FEE_WALLET_KEYS: the WIF of a compressed secp256k1 key (Bitcoin Core's
 * `dumpprivkey`, Electrum's export), mainnet (`K…`/`L…`) or test networks (`c…`). Whether its network
 * is its chain's is checked once the chain registry is known (BitcoinFeeWallets).
 */
export function checkBitcoinWif(key: unknown): KeyCheck {
  const decoded = decodeBitcoinWif(key);
  if (!decoded) return { problem: 'is not the WIF of a compressed secp256k1 private key' };
  const identity = Buffer.from(secp256k1.getPublicKey(decoded.privateKey, true)).toString('hex');
  decoded.privateKey.fill(0);
  return { identity };
}

/** Parses `{"<chain id>": ["<WIF>", ...]}`; problems name positions, never keys. */
export function parseBitcoinFeeWalletKeys(json: string, source: string): RelayerKeysReading {
  return parseKeysByChain(json, source, {
    shape: '{"<chain id>": ["<WIF private key>", ...]}',
    check: checkBitcoinWif,
  });
}

/**
 * The Bitcoin fee wallet keys from BITCOIN_FEE_WALLET_KEYS (inline JSON) or
 * BITCOIN_FEE_WALLET_KEYS_FILE. Neither: no fee wallet, so sponsored Bitcoin steps are unavailable.
 */
export function readBitcoinFeeWalletKeys(input: { json?: SecretText; file?: string }): RelayerKeysReading {
  return readKeysVariable(input, 'BITCOIN_FEE_WALLET_KEYS', parseBitcoinFeeWalletKeys);
}
