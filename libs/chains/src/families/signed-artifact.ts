import {
  type BitcoinPsbtSigningPayload,
  type CosmosSignDirectPayload,
  type EvmSigningPayload,
  type SigningPayload,
  type SolanaSigningPayload,
} from '@swapgw/contracts';
import { keccak256 } from 'ethers';
import type { ChainFamily } from '../chain-descriptor';
import { bitcoinArtifactTxid, looksLikeBitcoinArtifact } from './bitcoin/bitcoin-artifact';
import { verifySignedBitcoinStep } from './bitcoin/bitcoin-step-verification';
import { decodeCosmosTxRaw, looksLikeCosmosTxRaw, verifySignedCosmosTx } from './cosmos/cosmos-signed-tx';
import {
  assertNoMismatch,
  compareWithPayload,
  decodeSignedEvmTransaction,
  type DecodedEvmTransaction,
} from './evm/evm-signed-transaction';
import {
  decodeSignedSolanaTransaction,
  type DecodedSolanaTransaction,
  verifySignedSolanaTransaction,
  withFeePayerSignature,
} from './solana/solana-transaction';

/** A typed-data signature as `rawTx`: 0x + 65 bytes (r, s, v) or 64 bytes (EIP-2098). */
export const TYPED_DATA_SIGNATURE = /^0x([0-9a-fA-F]{130}|[0-9a-fA-F]{128})$/;

export const isTypedDataSignature = (rawTx: string): boolean => TYPED_DATA_SIGNATURE.test(rawTx.trim());

/**
 * A client's signed artifact, decoded by its form: a 0x 65- (or 64-) byte signature of typed data
 * (a sponsored step; `hash` is its keccak256, an id only), other 0x-hex is an EVM transaction, a
 * PSBT (base64 or hex) or hex without 0x is Bitcoin, base64 of a protobuf TxRaw (its first byte
 * field 1's tag, 0x0a, and body and auth info that decode) is Cosmos, anything else must be Solana
 * base64. `rawTx`
 * is what is recorded and sent as it is (Bitcoin: what the wallet returned, completed by the
 * service before it is recorded).
 */
export type SignedArtifact =
  SignedTransactionArtifact | { family: 'evm-signature'; hash: string; signature: string; rawTx: string };

/** A signed transaction (not a signature the service relays). */
export type SignedTransactionArtifact =
  | { family: 'evm'; hash: string; tx: DecodedEvmTransaction; rawTx: string }
  | SolanaArtifact
  | BitcoinArtifact
  | CosmosArtifact;

/**
 * A signed Cosmos transaction: the base64 TxRaw a wallet's signature completes. Its id (`hash`) is
 * the uppercase hex SHA-256 of the TxRaw's bytes, as CometBFT names it.
 */
export type CosmosArtifact = { family: 'cosmos'; hash: string; rawTx: string };

/**
 * What a Bitcoin wallet returned for a step: its signed PSBT (base64 or hex) or the finalized
 * transaction (hex). Its id (`hash`) is the transaction's txid, fixed before any signature (a
 * SegWit id does not cover witnesses), so a resubmission finds the same id.
 */
export type BitcoinArtifact = { family: 'bitcoin'; hash: string; rawTx: string };

/**
 * A Solana transaction as the client signed it (`tx`), and, when its fee payer is one of the
 * service's (a sponsored step), the same transaction with the fee payer's signature added
 * (`coSigned`). Its id (`hash`) is the first signature: the fee payer's, so on a sponsored step it
 * exists only once the service co-signs; Ed25519 signatures being deterministic, the same message
 * always gets the same one, which makes a resubmission find the same id.
 */
export type SolanaArtifact = {
  family: 'solana';
  hash: string;
  tx: DecodedSolanaTransaction;
  coSigned: DecodedSolanaTransaction | null;
  rawTx: string;
};

export type SignedArtifactForm = SignedArtifact['family'];

/** Signs a Solana message as `feePayer` when that is one of the service's fee payers; else null. */
export type FeePayerSigner = (feePayer: string, message: Uint8Array) => Uint8Array | null;

/** Decodes `rawTx` by its form; INVALID_SIGNED_TX when it is none of them. */
export function decodeSignedArtifact(rawTx: string, signAsFeePayer?: FeePayerSigner): SignedArtifact {
  if (isTypedDataSignature(rawTx)) {
    const signature = rawTx.trim().toLowerCase();
    return { family: 'evm-signature', hash: keccak256(signature), signature, rawTx: signature };
  }
  if (/^0x/i.test(rawTx.trim())) {
    const tx = decodeSignedEvmTransaction(rawTx);
    return { family: 'evm', hash: tx.hash, tx, rawTx: tx.serialized };
  }
  if (looksLikeBitcoinArtifact(rawTx)) {
    const text = rawTx.trim();
    return { family: 'bitcoin', hash: bitcoinArtifactTxid(text), rawTx: text };
  }
  if (looksLikeCosmosTxRaw(rawTx)) {
    const tx = decodeCosmosTxRaw(rawTx);
    return { family: 'cosmos', hash: tx.hash, rawTx: Buffer.from(tx.raw).toString('base64') };
  }
  const tx = decodeSignedSolanaTransaction(rawTx);
  // Co-signed here only to know the id; nothing signed leaves unless the message is the issued one.
  const feePayerSignature = signAsFeePayer?.(tx.feePayer, tx.messageBytes);
  const coSigned = feePayerSignature ? withFeePayerSignature(tx, feePayerSignature) : null;
  return {
    family: 'solana',
    hash: coSigned?.signature ?? tx.signature,
    tx,
    coSigned,
    rawTx: tx.serialized.toString('base64'),
  };
}

/** A signed transaction to record and broadcast, as opposed to a signature a relayer carries. */
export function isSignedTransaction(artifact: SignedArtifact): artifact is SignedTransactionArtifact {
  return artifact.family !== 'evm-signature';
}

/** A transaction whose fee payer is one of the service's, which added its signature (a sponsored Solana step). */
export function isCoSigned(
  artifact: SignedArtifact,
): artifact is SolanaArtifact & { coSigned: DecodedSolanaTransaction } {
  return artifact.family === 'solana' && artifact.coSigned !== null;
}

/** Who pays a Solana or EVM transaction's fees: its Solana fee payer, an EVM transaction's sender. */
export function feePayerOf(
  artifact: Exclude<SignedTransactionArtifact, BitcoinArtifact | CosmosArtifact>,
): string {
  return artifact.family === 'solana' ? artifact.tx.feePayer : artifact.tx.from;
}

/**
 * How an earlier submission of this artifact is found: a transaction by its id; a relayed signature
 * by itself within its swap (the row's hash is then the relayer's transaction, not the signature's).
 */
export function recordedSubmissionOf(
  artifact: SignedArtifact,
  swapId: string,
): { txHash: string } | { swapId: string; rawTx: string } {
  return isSignedTransaction(artifact) ? { txHash: artifact.hash } : { swapId, rawTx: artifact.signature };
}

/** The form a step's signed artifact must have: its chain's family, and on EVM the payload's type. */
export function artifactFormFor(
  family: ChainFamily | undefined,
  payload: SigningPayload | null,
): SignedArtifactForm {
  if (family === 'solana') return 'solana';
  if (family === 'bitcoin') return 'bitcoin';
  if (family === 'cosmos') return 'cosmos';
  return payload?.type === 'evm-typed-data' ? 'evm-signature' : 'evm';
}

/** How an error message names each form. */
export const ARTIFACT_NEEDED: Record<SignedArtifactForm, string> = {
  evm: 'a signed EVM transaction (0x-hex)',
  'evm-signature': 'the 0x signature (65 bytes) of the issued typed data',
  solana: 'a signed Solana transaction (base64)',
  bitcoin: 'the signed PSBT (base64 or hex) or the signed transaction (hex)',
  cosmos: 'the signed Cosmos transaction (base64 TxRaw)',
};

/**
 * Throws TX_REQUEST_MISMATCH (with `mismatches`) when the signed transaction is not the payload
 * issued: on EVM its fields, on Solana its message and signatures. `feePayerSignsLater`: a Solana
 * fee payer that is the service's, which signs after this check (sponsored steps).
 */
export function verifySignedArtifact(
  artifact: SignedTransactionArtifact,
  payload: SigningPayload | null,
  options: { feePayerSignsLater?: boolean } = {},
): void {
  if (artifact.family === 'solana') {
    verifySignedSolanaTransaction(artifact.tx, payload as SolanaSigningPayload, options);
    return;
  }
  if (artifact.family === 'cosmos') {
    verifySignedCosmosTx(payload as CosmosSignDirectPayload, artifact.rawTx);
    return;
  }
  if (artifact.family === 'bitcoin') {
    verifySignedBitcoinStep((payload as BitcoinPsbtSigningPayload).psbt, artifact.rawTx);
    return;
  }
  assertNoMismatch(compareWithPayload(artifact.tx, (payload as EvmSigningPayload).transaction));
}
