import { Column, Entity, OneToMany, PrimaryColumn } from 'typeorm';
import type { SwapStatus } from '@swapgw/contracts';
import { SwapStepEntity } from './swap-step.entity';
import { msColumn } from '@swapgw/persistence';

/**
 * One swap: the user's execution of a quoted route, signed step by step. `currentStep` points at
 * the step whose payload is being built, awaits a signature or confirms; the swap row is the lock
 * that serialises every change of the swap (SELECT ... FOR UPDATE).
 */
@Entity({ name: 'swaps' })
export class SwapEntity {
  /** Chosen by the gateway (UUID v5 of owner + Idempotency-Key). */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  owner!: string;

  @Column({ name: 'quote_id', type: 'text' })
  quoteId!: string;

  @Column({ name: 'route_id', type: 'text' })
  routeId!: string;

  @Column({ name: 'user_address', type: 'text' })
  userAddress!: string;

  @Column({ type: 'text', nullable: true })
  recipient!: string | null;

  @Column({ name: 'from_chain', type: 'text' })
  fromChain!: string;

  @Column({ name: 'to_chain', type: 'text' })
  toChain!: string;

  @Column({ type: 'text' })
  status!: SwapStatus;

  /** 1-based index of the active step. */
  @Column({ name: 'current_step', type: 'int' })
  currentStep!: number;

  @Column({ name: 'step_count', type: 'int' })
  stepCount!: number;

  /** The build request that created the swap, to tell a retry from a different request. */
  @Column({ name: 'request_fingerprint', type: 'text' })
  requestFingerprint!: string;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @Column({ name: 'failure_details', type: 'jsonb', nullable: true })
  failureDetails!: Record<string, unknown> | null;

  @Column(msColumn('created_at_ms'))
  createdAtMs!: number;

  @Column(msColumn('updated_at_ms'))
  updatedAtMs!: number;

  /** The swap calls' on-chain deadline: a step that fails after it makes the swap `expired`. */
  @Column(msColumn('expires_at_ms'))
  expiresAtMs!: number;

  @OneToMany(() => SwapStepEntity, (step) => step.swap)
  steps?: SwapStepEntity[];
}
