import type { LedgerPurpose, SponsoredTransactionEntity } from '../sponsored-transaction.entity';

/**
 * One family's part of following the sponsorship ledger (registered by its family, SignerFamily's
 * `tracking`): the pending rows of its `purposes`, which the relayed-transaction tracker hands it,
 * and, on the tracker's own clocks, its sponsor accounts' balances and (EVM) their nonce ledgers.
 */
export interface SponsorTracking {
  /** The ledger purposes whose pending rows it follows; no two trackings share one. */
  readonly purposes: readonly LedgerPurpose[];
  /** One look at a pending row of one of its purposes: settle it, change it, or look again later. */
  check(row: SponsoredTransactionEntity): Promise<void>;
  /** Reads its accounts' balances (the balance gauge, and which accounts are used). */
  refreshBalances(): Promise<void>;
  /** On the reconcile clock: its accounts' own ledgers checked against their chains (EVM nonces). */
  reconcile?(): Promise<void>;
  /** The chains whose oldest-pending gauge reads 0 when none of their rows is pending. */
  gaugedChains?(): string[];
}

/** Every registered family's SponsorTracking (one implementation per family). */
export const SPONSOR_TRACKINGS = Symbol('SponsorTrackings');
