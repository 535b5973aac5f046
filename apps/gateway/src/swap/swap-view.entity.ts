import { Column, Entity, PrimaryColumn } from 'typeorm';
import { msColumn } from '@swapgw/persistence';
import type { QuotedSwap } from './swap-resource';
import type { SwapStepRecord } from './swap-steps';

/** The gateway's read model of one swap (table gateway.swap_views), written by SwapViewsProjector. */
@Entity({ name: 'swap_views' })
export class SwapViewEntity {
  @PrimaryColumn({ name: 'swap_id', type: 'uuid' })
  swapId!: string;

  @Column({ type: 'varchar', length: 200 })
  owner!: string;

  /** The planner's swap status (planning, awaiting_signature, submitted, confirming, completed, failed, expired). */
  @Column({ type: 'varchar', length: 32 })
  status!: string;

  @Column({ name: 'step_current', type: 'integer', nullable: true })
  stepCurrent!: number | null;

  @Column({ name: 'step_total', type: 'integer', nullable: true })
  stepTotal!: number | null;

  /** The signable payload of the current step; null while none is ready. */
  @Column({ type: 'jsonb', nullable: true })
  payload!: Record<string, unknown> | null;

  @Column(msColumn('expires_at_ms', true))
  expiresAtMs!: number | null;

  @Column(msColumn('ready_at_ms', true))
  readyAtMs!: number | null;

  @Column({ name: 'execution_hints', type: 'jsonb', nullable: true })
  executionHints!: Record<string, unknown> | null;

  @Column({ name: 'client_hints', type: 'jsonb', nullable: true })
  clientHints!: Record<string, unknown> | null;

  @Column({ name: 'pending_reason', type: 'text', nullable: true })
  pendingReason!: string | null;

  @Column({ name: 'last_tx_hash', type: 'varchar', length: 100, nullable: true })
  lastTxHash!: string | null;

  /** Confirmations of `lastTxHash` while the swap is `confirming`; null otherwise. */
  @Column({ type: 'integer', nullable: true })
  confirmations!: number | null;

  @Column({ name: 'confirmations_required', type: 'integer', nullable: true })
  confirmationsRequired!: number | null;

  @Column({ name: 'failure_reason', type: 'varchar', length: 100, nullable: true })
  failureReason!: string | null;

  @Column({ name: 'failure_details', type: 'jsonb', nullable: true })
  failureDetails!: Record<string, unknown> | null;

  /** Every step of the swap (index, chain, kind, status, transaction, times), from swap.events. */
  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  steps!: SwapStepRecord[];

  /** What the quote promised for the route built (amounts in base units); null for swaps built before it was recorded. */
  @Column({ type: 'jsonb', nullable: true })
  quoted!: QuotedSwap | null;

  @Column(msColumn('created_at_ms'))
  createdAtMs!: number;

  @Column(msColumn('updated_at_ms'))
  updatedAtMs!: number;
}
