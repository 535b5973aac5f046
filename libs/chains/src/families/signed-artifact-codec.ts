import type { SigningPayload } from '@swapgw/contracts';

/**
 * How a family reads what a wallet hands back for one of its steps: the interface each family
 * implements in its own folder (`evm/evm-artifact.ts`, `solana/`, `bitcoin/`, `cosmos/`), mapped to
 * it by the table of signed-artifact.ts. A leaf: it imports no family.
 */
export interface SignedArtifactCodec<Artifact extends { family: string; hash: string; rawTx: string }> {
  /**
   * Whether `rawTx` has one of the family's forms. The families are tried in the table's order;
   * the one marked `takesTheRest` (Solana's base64) is tried last and takes whatever is left.
   */
  claims(rawTx: string): boolean;
  readonly takesTheRest?: true;
  /** `rawTx` decoded; INVALID_SIGNED_TX when it is not what its form says. */
  decode(rawTx: string, signAsFeePayer?: FeePayerSigner): Artifact;
  /** The form a step's artifact must have on the family's chains, given the payload issued. */
  formOf(payload: SigningPayload | null): Artifact['family'];
  /** How an error message names each of its forms. */
  readonly needed: Record<Artifact['family'], string>;
  /**
   * Throws TX_REQUEST_MISMATCH (with `mismatches`) when a signed transaction of the family is not
   * the payload issued. `feePayerSignsLater`: a fee payer of the service's signs after this check.
   */
  verify(artifact: Artifact, payload: SigningPayload | null, options: { feePayerSignsLater?: boolean }): void;
}

/** Signs a Solana message as `feePayer` when that is one of the service's fee payers; else null. */
export type FeePayerSigner = (feePayer: string, message: Uint8Array) => Uint8Array | null;
