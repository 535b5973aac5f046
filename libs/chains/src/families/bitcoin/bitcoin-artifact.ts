import * as btc from '@scure/btc-signer';
import { base64, hex } from '@scure/base';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { BITCOIN_TX_OPTIONS, equalBytes } from './bitcoin-step-psbt';

/** "psbt" 0xff: the first bytes of every PSBT (BIP174). */
const PSBT_MAGIC = hex.decode('70736274ff');
/** The same five bytes as base64 begins them. */
const PSBT_BASE64_PREFIX = 'cHNidP8';
const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** What a Bitcoin wallet returned, decoded: its PSBT, or its finalized transaction. */
export interface DecodedBitcoinArtifact {
  tx: btc.Transaction;
  isPsbt: boolean;
}

/**
 * Whether `rawTx` has a Bitcoin artifact's form: a PSBT in base64 (Unisat, Xverse) or hex
 * (Leather), or a transaction in hex without 0x (0x-hex is EVM's; Solana's base64 is never
 * all hex digits in practice).
 */
export function looksLikeBitcoinArtifact(rawTx: string): boolean {
  const text = rawTx.trim();
  return text.startsWith(PSBT_BASE64_PREFIX) || (HEX.test(text) && text.length % 2 === 0);
}

/**
 * Decodes a wallet's signed PSBT (base64 or hex) or finalized transaction (hex). INVALID_SIGNED_TX
 * when it is none of these or does not decode.
 */
export function decodeBitcoinArtifact(artifact: string): DecodedBitcoinArtifact {
  const raw = typeof artifact === 'string' ? artifact.trim() : '';
  let bytes: Uint8Array;
  if (HEX.test(raw) && raw.length % 2 === 0) bytes = hex.decode(raw.toLowerCase());
  else if (BASE64.test(raw) && raw.length % 4 === 0) bytes = base64.decode(raw);
  else
    throw new CodedError(
      ErrorCodes.INVALID_SIGNED_TX,
      'rawTx must be the signed PSBT (base64 or hex) or the signed transaction (hex)',
    );
  const isPsbt = equalBytes(bytes.subarray(0, PSBT_MAGIC.length), PSBT_MAGIC);
  try {
    return {
      tx: isPsbt
        ? btc.Transaction.fromPSBT(bytes, BITCOIN_TX_OPTIONS)
        : btc.Transaction.fromRaw(bytes, BITCOIN_TX_OPTIONS),
      isPsbt,
    };
  } catch (error) {
    throw new CodedError(
      ErrorCodes.INVALID_SIGNED_TX,
      `rawTx is not a decodable Bitcoin ${isPsbt ? 'PSBT' : 'transaction'}`,
      { reason: (error as Error).message },
    );
  }
}

/** The txid of what a wallet returned: fixed before signatures, a SegWit id covering no witness. */
export function bitcoinArtifactTxid(rawTx: string): string {
  return decodeBitcoinArtifact(rawTx).tx.id;
}
