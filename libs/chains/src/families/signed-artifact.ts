import { CHAIN_FAMILIES, type SigningPayload } from '@swapgw/contracts';
import type { ChainFamily } from '../chain-descriptor';
import type {
  FeePayerSigner,
  SignedArtifact,
  SignedArtifactCodec,
  SignedArtifactForm,
  SignedTransactionArtifact,
} from './signed-artifact-codec';
import { SIGNED_ARTIFACT_CODECS } from './step-spec-families';

/**
 * What a wallet hands back for a step, decoded and checked by its family: each family's forms,
 * decoding and verification are its own (`families/<family>/<family>-artifact.ts`, a
 * SignedArtifactCodec), registered with its step builder in the family-modules table (read here as
 * SIGNED_ARTIFACT_CODECS, step-spec-families.ts); here what is common to all of them.
 */
export { isTypedDataSignature, TYPED_DATA_SIGNATURE } from './evm/evm-artifact';
export type { EvmSignatureArtifact, EvmTransactionArtifact } from './evm/evm-artifact';
export type { SolanaArtifact } from './solana/solana-artifact';
export type { BitcoinArtifact } from './bitcoin/bitcoin-artifact-codec';
export type { CosmosArtifact } from './cosmos/cosmos-artifact';
export type { FeePayerSigner, SignedArtifact, SignedArtifactForm, SignedTransactionArtifact };

/** A family's codec, typed for what the shared code does with any of them. */
function codecOf(family: ChainFamily): SignedArtifactCodec<SignedArtifact> {
  return SIGNED_ARTIFACT_CODECS[family] as SignedArtifactCodec<SignedArtifact>;
}

/** The families in the order their forms are tried: the one that takes the rest last. */
const DECODE_ORDER: readonly ChainFamily[] = [
  ...CHAIN_FAMILIES.filter((family) => !codecOf(family).takesTheRest),
  ...CHAIN_FAMILIES.filter((family) => codecOf(family).takesTheRest),
];

/** Decodes `rawTx` by its form; INVALID_SIGNED_TX when it is none of them. */
export function decodeSignedArtifact(rawTx: string, signAsFeePayer?: FeePayerSigner): SignedArtifact {
  const family =
    DECODE_ORDER.find((candidate) => codecOf(candidate).claims(rawTx)) ??
    DECODE_ORDER[DECODE_ORDER.length - 1];
  return codecOf(family).decode(rawTx, signAsFeePayer);
}

/** A signed transaction to record and broadcast, as opposed to a signature a relayer carries. */
export function isSignedTransaction(artifact: SignedArtifact): artifact is SignedTransactionArtifact {
  return artifact.family !== 'evm-signature';
}

/** A transaction whose fee payer is one of the service's, which added its signature (a sponsored Solana step). */
export function isCoSigned(artifact: SignedArtifact): artifact is Extract<
  SignedArtifact,
  { family: 'solana' }
> & {
  coSigned: NonNullable<Extract<SignedArtifact, { family: 'solana' }>['coSigned']>;
} {
  return artifact.family === 'solana' && artifact.coSigned !== null;
}

/** Who pays a Solana or EVM transaction's fees: its Solana fee payer, an EVM transaction's sender. */
export function feePayerOf(
  artifact: Extract<SignedTransactionArtifact, { family: 'evm' | 'solana' }>,
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

/**
 * The form a step's signed artifact must have: its chain's family's, given the payload issued (on
 * EVM the payload's type); a chain of no known family is held to the EVM forms.
 */
export function artifactFormFor(
  family: ChainFamily | undefined,
  payload: SigningPayload | null,
): SignedArtifactForm {
  const known = family !== undefined && Object.hasOwn(SIGNED_ARTIFACT_CODECS, family);
  return codecOf(known ? family : 'evm').formOf(payload);
}

/** How an error message names each form. */
export const ARTIFACT_NEEDED = Object.assign(
  {},
  ...CHAIN_FAMILIES.map((family) => codecOf(family).needed),
) as Record<SignedArtifactForm, string>;

/**
 * Throws TX_REQUEST_MISMATCH (with `mismatches`) when the signed transaction is not the payload
 * issued, as its family checks it (on EVM its fields, on Solana its message and signatures).
 * `feePayerSignsLater`: a Solana fee payer that is the service's, which signs after this check
 * (sponsored steps).
 */
export function verifySignedArtifact(
  artifact: SignedTransactionArtifact,
  payload: SigningPayload | null,
  options: { feePayerSignsLater?: boolean } = {},
): void {
  codecOf(artifact.family).verify(artifact, payload, options);
}
