import { Injectable } from '@nestjs/common';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';

/** How the relayed-transaction tracker paces and bounds its work, from the validated config. */
@Injectable()
export class RelayedTrackingPolicy {
  /** Interval of the loop, and of the checks of one pending transaction. */
  readonly pollMs: number;
  /** RELAYER_STUCK_AFTER_MS: not mined this long after its latest attempt → replaced. */
  readonly stuckAfterMs: number;
  /** RELAYER_FEE_BUMP_PERCENT. */
  readonly feeBumpPercent: number;
  readonly batchSize: number = 20;
  /** How long a claimed row is left to the instance that claimed it (a dead one's rows come back after it). */
  readonly leaseMs: number;
  /** How often relayer balances are read (the balance gauge, and which relayers senders skip). */
  readonly balanceRefreshMs: number;
  /** RELAYER_RECONCILE_MS: how often each relayer's nonce ledger is reconciled with its chain (and at start). */
  readonly reconcileMs: number;
  /** A transaction whose nonce another sender took is sent again at a fresh nonce at most this many times. */
  readonly maxReissues?: number;

  constructor(config: SignerSurfaceConfig) {
    this.pollMs = config.CONFIRMATION_POLL_MS;
    this.stuckAfterMs = config.RELAYER_STUCK_AFTER_MS;
    this.feeBumpPercent = config.RELAYER_FEE_BUMP_PERCENT;
    // Long enough for a batch of RPC round trips at RPC_TIMEOUT_MS each to finish first.
    this.leaseMs = Math.max(30_000, config.RPC_TIMEOUT_MS * 4);
    this.balanceRefreshMs = Math.max(10_000, config.CONFIRMATION_POLL_MS);
    this.reconcileMs = config.RELAYER_RECONCILE_MS;
  }
}
