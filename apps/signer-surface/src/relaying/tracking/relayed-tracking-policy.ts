export interface RelayedTrackingPolicy {
  /** Interval of the loop, and of the checks of one pending transaction. */
  pollMs: number;
  /** RELAYER_STUCK_AFTER_MS: not mined this long after its latest attempt → replaced. */
  stuckAfterMs: number;
  /** RELAYER_FEE_BUMP_PERCENT. */
  feeBumpPercent: number;
  batchSize: number;
  /** How long a claimed row is left to the instance that claimed it (a dead one's rows come back after it). */
  leaseMs: number;
  /** How often relayer balances are read (the balance gauge, and which relayers senders skip). */
  balanceRefreshMs: number;
  /** RELAYER_RECONCILE_MS: how often each relayer's nonce ledger is reconciled with its chain (and at start). */
  reconcileMs: number;
  /** A transaction whose nonce another sender took is sent again at a fresh nonce at most this many times. */
  maxReissues?: number;
}
