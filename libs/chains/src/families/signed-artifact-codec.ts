import type { SigningPayload } from '@swapgw/contracts';

/**
 * How a family reads what a wallet hands back for one of its steps: the interface each family
 * implements in its own folder (`evm/evm-artifact.ts`, `solana/`, `bitcoin/`, `cosmos/`), mapped to
 * it by the family-modules table (its `artifacts`). A leaf: it imports no family.
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

/**
 * Each family's codec by the family's name, declared by the family beside its codec (module
 * augmentation: `declare module '../signed-artifact-codec' { interface SignedArtifactCodecs {
 * <family>: typeof <its codec> } }`), so that the artifact types below are the union of the
 * families' without importing the family-modules table, which loads the clients that take these
 * types. The table holds the codecs themselves; step-spec-families.ts checks that both name the
 * same families.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type -- each family's augmentation fills it
export interface SignedArtifactCodecs {}

/**
 * A client's signed artifact, decoded by its form: a 0x 65- (or 64-) byte signature of typed data
 * (a sponsored step; `hash` is its keccak256, an id only), other 0x-hex is an EVM transaction, a
 * PSBT (base64 or hex) or hex without 0x is Bitcoin, base64 of a protobuf TxRaw is Cosmos, anything
 * else must be Solana base64. `rawTx` is what is recorded and sent as it is (Bitcoin: what the
 * wallet returned, completed by the service before it is recorded).
 */
export type SignedArtifact = {
  [F in keyof SignedArtifactCodecs]: SignedArtifactCodecs[F] extends SignedArtifactCodec<infer A> ? A : never;
}[keyof SignedArtifactCodecs];

/** A signed transaction (not a signature the service relays). */
export type SignedTransactionArtifact = Exclude<SignedArtifact, { family: 'evm-signature' }>;

export type SignedArtifactForm = SignedArtifact['family'];
