import * as btc from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDNodeWallet } from 'ethers';
import { BITCOIN_NETWORKS, bip84CoinType } from '@swapgw/chains/bitcoin-bridge';
import { DEVNET_MNEMONIC } from '../anvil';

/** The devnet's Bitcoin network: regtest, addresses `bcrt1…`. */
export const BITCOIN_DEVNET_NETWORK = BITCOIN_NETWORKS.regtest;

/**
 * Who a devnet Bitcoin key belongs to, as the BIP84 account of its path `m/84'/1'/<account>'/0/<index>`:
 * the test wallets (account 0, as any BIP84 wallet restoring the test mnemonic on regtest shows
 * them), the service's miner-fee wallets (account 1), the bridge vault (account 2) and the
 * devnet miner, paid the block subsidies (account 3).
 */
export const BITCOIN_DEVNET_ACCOUNTS = { wallet: 0, 'fee-wallet': 1, 'bridge-vault': 2, miner: 3 } as const;
export type BitcoinDevnetKeyKind = keyof typeof BITCOIN_DEVNET_ACCOUNTS;

export interface BitcoinDevnetKey {
  path: string;
  privateKey: Uint8Array;
  /** Compressed (33 bytes): what a P2WPKH witness carries. */
  publicKey: Uint8Array;
  /** P2WPKH address on regtest (`bcrt1q…`). */
  address: string;
  /** Its scriptPubKey, `OP_0 <hash160(publicKey)>`. */
  script: Uint8Array;
}

/** The key of `kind` number `index`, derived from the devnet mnemonic (or `mnemonic`). */
export function bitcoinDevnetKey(
  kind: BitcoinDevnetKeyKind,
  index: number,
  mnemonic: string = DEVNET_MNEMONIC,
): BitcoinDevnetKey {
  const path = `m/84'/${bip84CoinType('regtest')}'/${BITCOIN_DEVNET_ACCOUNTS[kind]}'/0/${index}`;
  const wallet = HDNodeWallet.fromPhrase(mnemonic, undefined, path);
  const privateKey = Uint8Array.from(Buffer.from(wallet.privateKey.slice(2), 'hex'));
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  const payment = btc.p2wpkh(publicKey, BITCOIN_DEVNET_NETWORK);
  return { path, privateKey, publicKey, address: payment.address, script: payment.script };
}
