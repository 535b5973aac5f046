import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import type { RepriceRouteLegRequest, SigningStepKind } from '@swapgw/contracts';
import type { PlannedStep } from '../planning/step-plan';
import { msColumn } from '@swapgw/persistence';
import type { SwapEntity } from './swap.entity';

/**
 * building → ready → submitted → confirmed | failed | expired | skipped; `pending` before its turn;
 * `repricing` before `building` for a step with a price check, until quote-service answers.
 */
export const SWAP_STEP_STATUSES = [
  'pending',
  'repricing',
  'building',
  'ready',
  'submitted',
  'confirmed',
  'failed',
  'expired',
  'skipped',
] as const;
export type SwapStepStatus = (typeof SWAP_STEP_STATUSES)[number];

/** One signing step of a swap: the exact call the user's transaction makes. */
@Entity({ name: 'swap_steps' })
@Unique('swap_steps_swap_index_key', ['swapId', 'stepIndex'])
export class SwapStepEntity {
  /** `<swapId>:<stepIndex>`, the stepId signer-surface echoes in its events. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'swap_id', type: 'uuid' })
  swapId!: string;

  @ManyToOne('SwapEntity', (swap: SwapEntity) => swap.steps, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'swap_id' })
  swap?: SwapEntity;

  @Column({ name: 'step_index', type: 'int' })
  stepIndex!: number;

  @Column({ name: 'leg_index', type: 'int' })
  legIndex!: number;

  @Column({ type: 'text' })
  kind!: SigningStepKind;

  @Column({ type: 'text' })
  chain!: string;

  /** The wallet that signs the step; null on rows written before steps named it (= swap.userAddress). */
  @Column({ type: 'text', nullable: true })
  signer!: string | null;

  /** EVM steps: the call; null on Solana and Bitcoin steps. */
  @Column({ type: 'jsonb', nullable: true })
  call!: PlannedStep['call'];

  /** Solana steps: the bridge deposit to build or the prebuilt transaction. */
  @Column({ type: 'jsonb', nullable: true })
  solana!: PlannedStep['solana'] | null;

  /** Bitcoin steps: the bridge deposit signer-surface builds as a PSBT. */
  @Column({ type: 'jsonb', nullable: true })
  bitcoin!: PlannedStep['bitcoin'] | null;

  @Column({ type: 'jsonb', nullable: true })
  approve!: PlannedStep['approve'] | null;

  @Column({ name: 'wait_for', type: 'jsonb', nullable: true })
  waitFor!: PlannedStep['waitFor'] | null;

  /** How the service pays the step's gas; null on user-paid swaps and Solana steps. */
  @Column({ type: 'jsonb', nullable: true })
  sponsored!: PlannedStep['sponsored'] | null;

  /**
   * The `quote.reprice` request asked before the step is prepared: the first spending step of a
   * swap leg after the first leg (see priceCheckOf); null on every other step.
   */
  @Column({ name: 'price_check', type: 'jsonb', nullable: true })
  priceCheck!: RepriceRouteLegRequest | null;

  @Column({ type: 'text' })
  status!: SwapStepStatus;

  /** signer-surface's id of the newest payload issued for this step. */
  @Column({ name: 'signing_request_id', type: 'text', nullable: true })
  signingRequestId!: string | null;

  @Column(msColumn('payload_expires_at_ms', true))
  payloadExpiresAtMs!: number | null;

  @Column({ name: 'tx_hash', type: 'text', nullable: true })
  txHash!: string | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @Column(msColumn('updated_at_ms'))
  updatedAtMs!: number;
}
