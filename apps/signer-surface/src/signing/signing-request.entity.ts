import type {
  EvmExecutionHints,
  SigningClientHints,
  SigningPayload,
  SigningStep,
  SigningStepKind,
} from '@swapgw/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber, msColumn } from '@swapgw/persistence';

/**
 * Lifecycle of one issued signing request:
 *   waiting → ready (waitFor balance arrived) | failed (gave up waiting)
 *   ready → submitted (signed tx accepted and broadcast) | expired | superseded (refresh) | failed
 *   submitted → confirmed | failed (reverted on chain or rejected by the node)
 *   skipped: nothing to sign (allowance already enough); unavailable: no signing surface.
 * At most one row per (swap_id, step_id) is not `superseded`.
 */
export const SIGNING_REQUEST_STATUSES = [
  'waiting',
  'ready',
  'submitted',
  'confirmed',
  'failed',
  'expired',
  'superseded',
  'skipped',
  'unavailable',
] as const;
export type SigningRequestStatus = (typeof SIGNING_REQUEST_STATUSES)[number];

/** Statuses after which nothing more happens to the step. */
export const TERMINAL_SIGNING_STATUSES: readonly SigningRequestStatus[] = [
  'confirmed',
  'failed',
  'skipped',
  'unavailable',
];

@Entity({ name: 'signing_requests' })
export class SigningRequestEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'swap_id', type: 'text' })
  swapId!: string;

  @Column({ name: 'step_id', type: 'text' })
  stepId!: string;

  @Column({ name: 'step_index', type: 'int' })
  stepIndex!: number;

  @Column({ name: 'step_count', type: 'int' })
  stepCount!: number;

  @Column({ type: 'text' })
  chain!: string;

  @Column({ type: 'text' })
  kind!: SigningStepKind;

  @Column({ name: 'from', type: 'text' })
  from!: string;

  /**
   * The step as the planner asked for it, its variant of SigningStep (discriminated on `family`):
   * what is issued, and what a refresh rebuilds the payload from.
   */
  @Column({ type: 'jsonb' })
  spec!: SigningStep;

  /** The API key the swap belongs to: sponsored gas is accounted to it. */
  @Column({ type: 'text', nullable: true })
  owner!: string | null;

  /** covered-transaction: the ledger row of the gas sent to `from` before its own transaction. */
  @Column({ name: 'gas_drop_id', type: 'text', nullable: true })
  gasDropId!: string | null;

  /**
   * Typed-data steps: the ledger row of the relayer's transaction carrying the signature. Its hash
   * can change (a stuck transaction is replaced with a higher fee); `txHash` follows the mined one.
   */
  @Column({ name: 'sponsored_tx_id', type: 'text', nullable: true })
  sponsoredTxId!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  payload!: SigningPayload | null;

  @Column({ name: 'execution_hints', type: 'jsonb', nullable: true })
  executionHints!: EvmExecutionHints | Record<string, string> | null;

  @Column({ name: 'client_hints', type: 'jsonb', nullable: true })
  clientHints!: SigningClientHints | null;

  @Column({ name: 'issued_at', type: 'timestamptz', nullable: true })
  issuedAt!: Date | null;

  @Column(msColumn('expires_at_ms', true))
  expiresAtMs!: number | null;

  @Column(msColumn('ready_at_ms', true))
  readyAtMs!: number | null;

  /** Waiting rows: when the poller looks again; submitted rows: when the tracker looks again. */
  @Column(msColumn('next_check_at_ms', true))
  nextCheckAtMs!: number | null;

  /** Waiting rows give up after this. */
  @Column(msColumn('wait_deadline_ms', true))
  waitDeadlineMs!: number | null;

  @Column({ type: 'text' })
  status!: SigningRequestStatus;

  @Column({ name: 'raw_tx', type: 'text', nullable: true })
  rawTx!: string | null;

  @Column({ name: 'tx_hash', type: 'text', nullable: true, unique: true })
  txHash!: string | null;

  @Column({ type: 'int', default: 0 })
  confirmations!: number;

  @Column({ name: 'block_number', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  blockNumber!: number | null;

  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode!: string | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @Column({ name: 'broadcast_at', type: 'timestamptz', nullable: true })
  broadcastAt!: Date | null;

  @Column(msColumn('confirmed_at_ms', true))
  confirmedAtMs!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * Who the sponsorship ledger and the events charge a request to: its API key owner, or `unknown` for
 * requests issued before owners were recorded.
 */
export function sponsoredOwnerOf(request: Pick<SigningRequestEntity, 'owner'>): string {
  return request.owner ?? 'unknown';
}
