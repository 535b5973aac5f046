import { SPONSORED_PURPOSES, type SponsoredPurpose } from '@swapgw/contracts';

/**
 * What the signing flow needs from gas sponsorship whatever the family: admit a step under the key's
 * budget, send the transaction that carries a user's signature (or the gas a user's own transaction
 * needs), tell where a transaction of the sponsorship ledger stands and find the one already sent
 * for a step. A port, so the signing code does not depend on how relayer accounts, nonces and the
 * ledger work. What only one family's sponsor does (a Solana fee payer co-signing, a Bitcoin fee
 * wallet's held input) is that family's own sponsor (families/<family>/), which only its payload
 * kinds inject.
 */
export const GAS_SPONSOR = Symbol('GasSponsor');

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

/**
 * Why the service pays: a user's gas for their own transaction, a signature to carry (EVM), or the
 * fee of a user's transaction one of its accounts pays (a Solana fee payer, a Bitcoin fee wallet's
 * input, a Cosmos fee granter): each family's `sponsoredPurposes` (FAMILY_SPONSORSHIP).
 */
export { SPONSORED_PURPOSES, type SponsoredPurpose };

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
  /**
   * pending (the relayers still follow it: resend, fee-bump, re-issue), confirmed, failed (mined,
   * reverted), or one of the ends where it will never carry the step: dropped (its nonce was taken
   * and it could not be sent again), cancelled (not mined under its fee ceiling: a zero-value
   * replacement took its nonce), lost (recorded as mined, then its receipt was gone: a reorg or a
   * chain reset). Those three come with `failure`.
   */
  state: 'pending' | 'confirmed' | 'failed' | 'dropped' | 'cancelled' | 'lost';
  /** Every hash the transaction was sent under, the newest last. */
  hashes: string[];
  /** The mined one, once mined. */
  minedHash: string | null;
  /** Why it will never carry the step (dropped, cancelled, lost); null otherwise. */
  failure: SponsoredFailure | null;
}

/**
 * A stable code (a `signing.step-failed` code, see StepFailureCodes) and a sentence for the step
 * that a sponsored transaction was meant to carry.
 */
export interface SponsoredFailure {
  code: 'RELAY_DROPPED' | 'RELAY_FEE_CEILING' | 'RELAY_LOST';
  reason: string;
}
