/**
 * What the signing flow needs from the service's relayers (apps/signer-surface/src/relaying): admit
 * a step under the key's budget, send the transaction that carries a user's signature (or the gas
 * a user's own transaction needs), and tell where a sent transaction stands. A port, so the signing
 * code does not depend on how relayer accounts, nonces and the ledger work.
 */
export interface GasSponsor {
  /**
   * Throws a 503 CodedError (SPONSORSHIP_BUDGET_EXHAUSTED, SPONSORSHIP_UNAVAILABLE) when the key's
   * daily budget on the chain cannot take `estimatedCostWei` more, or no relayer can pay.
   */
  admit(owner: string, chain: string, estimatedCostWei: bigint): Promise<void>;

  /**
   * Sends `call` from a relayer account and records it in the ledger. Throws a CodedError when the
   * chain refuses it (its gas estimate reverts: TX_REQUEST_INVALID with the reason) or no relayer
   * can pay (503).
   */
  send(call: SponsoredSend): Promise<SponsoredSent>;

  /** Where a sent transaction stands: every hash it went out under (fee bumps replace it). */
  status(id: string): Promise<SponsoredTransactionStatus>;

  /** The transaction already sent for a step and purpose (a submit retried after a crash), if any. */
  findSent(swapId: string, stepIndex: number, purpose: SponsoredPurpose): Promise<SponsoredSent | null>;
}

/** Why the relayer sends a transaction: a user's gas for their own transaction, or a signature to carry. */
export type SponsoredPurpose = 'gas-drop' | 'permit' | 'intent';

export interface SponsoredSend {
  chain: string;
  to: string;
  data: string;
  value: bigint;
  purpose: SponsoredPurpose;
  swapId: string;
  stepIndex: number;
  /** The API key the swap belongs to (ledger and budget). */
  owner: string;
}

export interface SponsoredSent {
  /** The ledger row. */
  id: string;
  txHash: string;
}

export interface SponsoredTransactionStatus {
  state: 'pending' | 'confirmed' | 'failed' | 'dropped';
  /** Every hash the transaction was sent under, the newest last. */
  hashes: string[];
  /** The mined one, once mined. */
  minedHash: string | null;
}
