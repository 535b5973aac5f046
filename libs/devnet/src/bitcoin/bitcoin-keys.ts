import * as btc from '@scure/btc-signer';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { HDNodeWallet } from 'ethers';
import { BITCOIN_NETWORKS, bip84CoinType, type BitcoinNetworkName } from '@swapgw/chains/bitcoin-bridge';
import { DEVNET_MNEMONIC } from '../anvil';

/** The devnet's Bitcoin network: regtest, addresses `bcrt1…`. */
export const BITCOIN_DEVNET_NETWORK = BITCOIN_NETWORKS.regtest;

/**
 * Who a local Bitcoin key belongs to, as the BIP84 account of its path
 * `m/84'/<coin>'/<account>'/0/<index>` (coin 1 on regtest, 0 on the mainnet replica): the test
 * wallets (account 0, as any BIP84 wallet restoring the test mnemonic shows them), the service's
 * miner-fee wallets (account 1), the bridge vault (THORChain's Bitcoin vault; account 2) and the
 * miner, paid the block subsidies (account 3).
 */
export const BITCOIN_DEVNET_ACCOUNTS = { wallet: 0, 'fee-wallet': 1, 'bridge-vault': 2, miner: 3 } as const;
export type BitcoinDevnetKeyKind = keyof typeof BITCOIN_DEVNET_ACCOUNTS;

export interface BitcoinDevnetKey {
  path: string;
  /** The network its addresses are of (regtest on the devnet, mainnet on the replica). */
  network: BitcoinNetworkName;
  privateKey: Uint8Array;
  /** Compressed (33 bytes): what a P2WPKH witness carries. */
  publicKey: Uint8Array;
  /** P2WPKH address on its network (`bcrt1q…`, `bc1q…`). */
  address: string;
  /** Its scriptPubKey, `OP_0 <hash160(publicKey)>`. */
  script: Uint8Array;
}

/** The key of `kind` number `index`, derived from the devnet mnemonic (or `mnemonic`), on `network`. */
export function bitcoinDevnetKey(
  kind: BitcoinDevnetKeyKind,
  index: number,
  mnemonic: string = DEVNET_MNEMONIC,
  network: BitcoinNetworkName = 'regtest',
): BitcoinDevnetKey {
  return keyAt(
    `m/84'/${bip84CoinType(network)}'/${BITCOIN_DEVNET_ACCOUNTS[kind]}'/0/${index}`,
    mnemonic,
    network,
  );
}

/**
 * The address standards a wallet restoring the test mnemonic derives, each from its own BIP path
 * `m/<purpose>'/<coin>'/0'/0/<index>`: BIP84 native SegWit (`bc1q…`), BIP86 Taproot (`bc1p…`, key
 * path only), BIP49 P2WPKH nested in P2SH (`3…` on mainnet, `2…` on regtest).
 */
export const BITCOIN_WALLET_PURPOSES = { p2wpkh: 84, p2tr: 86, 'p2sh-p2wpkh': 49 } as const;
export type BitcoinWalletPurpose = keyof typeof BITCOIN_WALLET_PURPOSES;

export interface BitcoinTestWallet {
  kind: BitcoinWalletPurpose;
  key: BitcoinDevnetKey;
  /** The address of its kind (the key's P2WPKH one for `p2wpkh`). */
  address: string;
  script: Uint8Array;
}

/** Test wallet `index` of `kind` at `m/<purpose>'/<coin>'/0'/0/<index>` of `mnemonic` on `network`. */
export function bitcoinTestWallet(
  kind: BitcoinWalletPurpose,
  index: number,
  network: BitcoinNetworkName,
  mnemonic: string = DEVNET_MNEMONIC,
): BitcoinTestWallet {
  const purpose = BITCOIN_WALLET_PURPOSES[kind];
  const key = keyAt(`m/${purpose}'/${bip84CoinType(network)}'/0'/0/${index}`, mnemonic, network);
  const payment =
    kind === 'p2wpkh'
      ? { address: key.address, script: key.script }
      : kind === 'p2tr'
        ? p2trOf(key)
        : p2shP2wpkhOf(key);
  return { kind, key, address: payment.address, script: payment.script };
}

/** The key's BIP86 P2TR output (key path only): address and script on its network. */
export function p2trOf(key: BitcoinDevnetKey): { address: string; script: Uint8Array } {
  const payment = btc.p2tr(schnorr.getPublicKey(key.privateKey), undefined, BITCOIN_NETWORKS[key.network]);
  return { address: payment.address, script: payment.script };
}

/**
 * The key's P2WPKH nested in P2SH (BIP49, BIP141): the address on its network (`2…` on regtest,
 * `3…` on mainnet), its script `OP_HASH160 <hash160(redeemScript)> OP_EQUAL`, and the redeem script
 * `OP_0 <hash160(publicKey)>` (the key's P2WPKH script) that a spend's scriptSig pushes.
 */
export function p2shP2wpkhOf(key: BitcoinDevnetKey): {
  address: string;
  script: Uint8Array;
  redeemScript: Uint8Array;
} {
  const network = BITCOIN_NETWORKS[key.network];
  const payment = btc.p2sh(btc.p2wpkh(key.publicKey, network), network);
  return { address: payment.address, script: payment.script, redeemScript: payment.redeemScript };
}

function keyAt(path: string, mnemonic: string, network: BitcoinNetworkName): BitcoinDevnetKey {
  const wallet = HDNodeWallet.fromPhrase(mnemonic, undefined, path);
  const privateKey = Uint8Array.from(Buffer.from(wallet.privateKey.slice(2), 'hex'));
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  const payment = btc.p2wpkh(publicKey, BITCOIN_NETWORKS[network]);
  return { path, network, privateKey, publicKey, address: payment.address, script: payment.script };
}
