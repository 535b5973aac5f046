import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { base64, hex } from '@scure/base';
import { BITCOIN_TX_OPTIONS, equalBytes } from './bitcoin-step-psbt';
import type { VerifiedBitcoinStep } from './bitcoin-step-verification';

/** A step's transaction as it is broadcast. */
export interface CompletedBitcoinStep {
  rawTxHex: string;
  txid: string;
  vsize: number;
  /** Satoshis: every input's value − every output's, all of it from the fee input. */
  fee: bigint;
}

/**
 * The service's part of a verified step: signs the fee input (P2WPKH, SIGHASH_ALL) with the fee
 * wallet's key, finalizes every input and extracts the transaction. Throws (a service error, not
 * the user's) when the key does not own the fee input.
 */
export function completeSponsoredBitcoinStep(
  verified: VerifiedBitcoinStep,
  feeWalletPrivateKey: Uint8Array,
): CompletedBitcoinStep {
  const tx = btc.Transaction.fromPSBT(base64.decode(verified.psbt), BITCOIN_TX_OPTIONS);
  const feeInput = tx.getInput(verified.feeInputIndex);
  const feeWalletScript = btc.p2wpkh(secp256k1.getPublicKey(feeWalletPrivateKey, true)).script;
  if (!feeInput.witnessUtxo || !equalBytes(feeInput.witnessUtxo.script, feeWalletScript))
    throw new Error(`the fee wallet's key does not own the fee input ${verified.feeInputIndex}`);
  tx.signIdx(feeWalletPrivateKey, verified.feeInputIndex, [btc.SigHash.ALL]);
  tx.finalize();
  if (tx.id !== verified.txid) throw new Error(`the completed transaction is ${tx.id}, not ${verified.txid}`);
  return { rawTxHex: hex.encode(tx.extract()), txid: tx.id, vsize: tx.vsize, fee: tx.fee };
}

/** The outpoint of a verified step's fee input: the UTXO of the service's fee wallet it spends. */
export function bitcoinFeeInputOf(verified: VerifiedBitcoinStep): { txid: string; vout: number } {
  const tx = btc.Transaction.fromPSBT(base64.decode(verified.psbt), BITCOIN_TX_OPTIONS);
  const input = tx.getInput(verified.feeInputIndex);
  if (!input.txid || input.index === undefined) throw new Error('the fee input has no outpoint');
  return { txid: hex.encode(input.txid), vout: input.index };
}
