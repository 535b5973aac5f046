import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import type {
  RepriceRouteLegRequest,
  SigningStep,
  SigningStepKind,
  SwapStepPacket,
  SwapStepThorchain,
} from '@swapgw/contracts';
import { msColumn } from '@swapgw/persistence';
import type { SwapEntity } from './swap.entity';

/**
 * building → ready → submitted → confirmed | failed | expired | skipped; `pending` before its turn;
 * `repricing` before `building` for a step with a price check, until quote-service answers;
 * `settling` between submitted and confirmed (or failed) for a deposit a protocol settles
 * (`settlement`), until the protocol's status says its outbound went out (or was refunded).
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
  'settling',
] as const;
/**
 * Who settles a step's deposit once it confirms: THORChain (its tx/status), for a `thorchain` leg;
 * IBC (its packet's acknowledgement or timeout, read from the chains' events) for a Cosmos `ibc` leg;
 * CCTP (the burn's mint on the destination, read there) for a devnet-bridge burn on Noble towards
 * Solana; the route after it (Noble's forwarding account, IBC, the swap on arrival, IBC home) for a
 * bridge deposit paying a Noble forwarding account (`nobleForwarding` on its spec).
 */
export type StepSettlement = 'thorchain' | 'ibc' | 'cctp' | 'forwarding';

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

  /**
   * What the step asks the wallet to sign, as its variant of SigningStep (discriminated on
   * `family`): the `signing.prepare` command carries it as it is.
   */
  @Column({ type: 'jsonb' })
  spec!: SigningStep;

  /**
   * The `quote.reprice` request asked before the step is prepared: the first spending step of a
   * swap leg after the first leg (see priceCheckOf); null on every other step.
   */
  @Column({ name: 'price_check', type: 'jsonb', nullable: true })
  priceCheck!: RepriceRouteLegRequest | null;

  @Column({ type: 'text' })
  status!: SwapStepStatus;

  /** The protocol whose status ends the step (`settling` once confirmed); null: its confirmation does. */
  @Column({ type: 'text', nullable: true })
  settlement!: StepSettlement | null;

  /** An `ibc` step's packet as last told (swap.step-packet); null before it was read, and on other steps. */
  @Column({ name: 'packet', type: 'jsonb', nullable: true })
  packet!: SwapStepPacket | null;

  /**
   * A `thorchain` step's swap as THORChain last told it (swap.step-thorchain: its tx/status phase);
   * null before THORNode was read, and on other steps.
   */
  @Column({ name: 'thorchain', type: 'jsonb', nullable: true })
  thorchain!: SwapStepThorchain | null;

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
