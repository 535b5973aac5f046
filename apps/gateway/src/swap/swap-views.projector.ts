import { Controller, Logger } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import { EntityManager } from 'typeorm';
import {
  MessageEnvelope,
  SwapCompletedEvent,
  SwapCreatedEvent,
  SwapEventType,
  SwapEventTypes,
  SwapExpiredEvent,
  SwapFailedEvent,
  SwapSigningPendingEvent,
  SwapSigningReadyEvent,
  SwapStepConfirmedEvent,
  SwapStepConfirmingEvent,
  SwapStepPacketEvent,
  SwapStepThorchainEvent,
  SwapStepSubmittedEvent,
  Topics,
} from '@swapgw/contracts';
import { IdempotentConsumer, PayloadClass, StreamHandler, TopicEvents } from '@swapgw/messaging';
import { Clock } from '@swapgw/runtime';
import { feesPaidBy } from '../integrator-fees/fees-paid';
import { integratorFeeMetrics } from '../integrator-fees/integrator-fee-metrics';
import { IntegratorFeesCollectedRepository } from '../integrator-fees/integrator-fees-collected.repository';
import { stepKindOf, SwapStepChange, SwapStepRecord, withStepChange, withStepCount } from './swap-steps';
import { SwapViewEntity } from './swap-view.entity';
import { SwapViewRepository, UpdateOptions } from './swap-view.repository';

/** Confirmation progress of the current step's transaction: only meaningful while `confirming`. */
const NO_CONFIRMATIONS = { confirmations: null, confirmationsRequired: null } as const;
/** Fields that describe a signable payload (and its transaction's progress): cleared whenever the current step has none. */
const NO_PAYLOAD = {
  payload: null,
  expiresAtMs: null,
  executionHints: null,
  clientHints: null,
  ...NO_CONFIRMATIONS,
} as const;

/**
 * Projects swap.events into gateway.swap_views. An idempotent consumer in group `gateway`: the
 * instances share the partitions, each event is applied once (processed_events), and since events
 * of one swap are keyed by swapId they arrive in the order the planner committed them. Every
 * instance reads the same table, so whichever projected an event, any instance answers the poll.
 */
@Controller()
export class SwapViewsProjector {
  private readonly logger = new Logger(SwapViewsProjector.name);

  constructor(
    private readonly consumer: IdempotentConsumer,
    private readonly views: SwapViewRepository,
    private readonly feesCollected: IntegratorFeesCollectedRepository,
    private readonly clock: Clock,
  ) {}

  @TopicEvents(Topics.swapEvents)
  async onSwapEvent(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    // Each applied event is also appended to the swap's event log (event streams), in the statement
    // that writes the view.
    await this.consumer.consume(message, ctx, {
      [SwapEventTypes.created]: {
        payload: SwapCreatedEvent,
        // Usually the build wrote the row first, with the same facts: the step count is the planner's news.
        applyAtOnce: (e: SwapCreatedEvent, env, claim) =>
          this.views.updateAtOnce(e.swapId, ...this.createdChange(e, env.type), claim),
        handle: (e: SwapCreatedEvent, env, m) => this.created(e, env.type, m),
      },
      [SwapEventTypes.signingReady]: this.projecting(SwapSigningReadyEvent, (e) => ({
        view: {
          ...atStep(e),
          payload: e.payload as unknown as Record<string, unknown>,
          expiresAtMs: e.expiresAtMs,
          readyAtMs: e.readyAtMs,
          executionHints: e.executionHints,
          clientHints: { ...e.clientHints },
          pendingReason: null,
          ...NO_CONFIRMATIONS,
        },
        step: {
          step: e.step,
          change: { status: 'awaiting_signature', kind: stepKindOf(e.clientHints?.action) },
        },
      })),
      [SwapEventTypes.signingPending]: this.projecting(SwapSigningPendingEvent, (e) => ({
        view: {
          ...NO_PAYLOAD,
          ...atStep(e),
          readyAtMs: e.readyAtMs ?? null,
          pendingReason: e.reason,
        },
        step: { step: e.step, change: { status: 'pending' } },
      })),
      [SwapEventTypes.stepSubmitted]: this.projecting(SwapStepSubmittedEvent, (e, env) => ({
        view: {
          ...NO_PAYLOAD,
          ...atStep(e),
          lastTxHash: e.txHash,
        },
        step: {
          step: e.step,
          change: {
            status: 'submitted',
            chain: e.chain,
            txHash: e.txHash,
            submittedAtMs: env.occurredAtMs,
          },
        },
      })),
      [SwapEventTypes.stepConfirming]: this.projecting(SwapStepConfirmingEvent, (e) => ({
        view: {
          ...NO_PAYLOAD,
          ...atStep(e),
          lastTxHash: e.txHash,
          confirmations: e.confirmations,
          confirmationsRequired: e.confirmationsRequired,
        },
        step: { step: e.step, change: { status: 'confirming', chain: e.chain, txHash: e.txHash } },
      })),
      // A Cosmos transfer's packet moved: the step (still current) records it; the swap stays confirming.
      [SwapEventTypes.stepPacket]: this.projecting(SwapStepPacketEvent, (e) => ({
        view: { ...NO_PAYLOAD, ...atStep(e), lastTxHash: e.txHash },
        step: { step: e.step, change: { chain: e.chain, txHash: e.txHash, packet: e.packet } },
      })),
      // THORChain's phase of a deposit's swap changed: the step (still current) records it; the swap stays confirming.
      [SwapEventTypes.stepThorchain]: this.projecting(SwapStepThorchainEvent, (e) => ({
        view: { ...NO_PAYLOAD, ...atStep(e), lastTxHash: e.txHash },
        step: { step: e.step, change: { chain: e.chain, txHash: e.txHash, thorchain: e.thorchain } },
      })),
      // The confirmed step is behind us: the current step is the next one (or the swap is done).
      // The step that paid the plan's integrator fees records them, in the same transaction.
      [SwapEventTypes.stepConfirmed]: this.projecting(
        SwapStepConfirmedEvent,
        (e, env) => ({
          view: {
            ...NO_PAYLOAD,
            status: e.status,
            stepCurrent: Math.min(e.step.current + 1, e.step.total),
            stepTotal: e.step.total,
            readyAtMs: null,
            ...(e.txHash ? { lastTxHash: e.txHash } : {}),
          },
          step: {
            step: e.step,
            // Only approvals are skipped (the allowance was already there).
            change: e.skipped
              ? { status: 'skipped', kind: 'approve', chain: e.chain, confirmedAtMs: env.occurredAtMs }
              : {
                  status: 'confirmed',
                  chain: e.chain,
                  txHash: e.txHash,
                  confirmedAtMs: env.occurredAtMs,
                },
          },
        }),
        (e, view, manager) => this.recordFeesPaid(e, view, manager),
      ),
      [SwapEventTypes.completed]: this.projecting(SwapCompletedEvent, (e) => ({
        view: {
          ...NO_PAYLOAD,
          status: e.status,
          readyAtMs: null,
          pendingReason: null,
        },
      })),
      [SwapEventTypes.failed]: this.projecting(SwapFailedEvent, (e) => ({
        view: {
          ...NO_PAYLOAD,
          status: e.status,
          failureReason: e.reason,
          failureDetails: e.details,
          readyAtMs: null,
        },
        step: failedStepOf(e),
      })),
      [SwapEventTypes.expired]: this.projecting(SwapExpiredEvent, (e) => ({
        view: {
          ...NO_PAYLOAD,
          status: e.status,
          failureReason: e.reason,
          readyAtMs: null,
        },
      })),
    });
  }

  private async created(event: SwapCreatedEvent, type: string, manager: EntityManager): Promise<void> {
    const [change, options] = this.createdChange(event, type);
    if (await this.views.update(manager, event.swapId, change, options)) return;
    await this.views.ensureCreated(
      event.swapId,
      event.owner,
      event.status,
      event.stepCount,
      event.createdAtMs,
      manager,
    );
    await this.views.update(manager, event.swapId, change, options);
  }

  private createdChange(event: SwapCreatedEvent, type: string): [Partial<SwapViewEntity>, UpdateOptions] {
    return [
      { stepTotal: event.stepCount, updatedAtMs: this.clock.nowMs() },
      {
        stepsAfter: (steps: SwapStepRecord[]) => withStepCount(steps, event.stepCount),
        loggedAs: type as SwapEventType,
      },
    ];
  }

  /** Records the integrator fees the confirmed step paid; counts those not recorded before. */
  private async recordFeesPaid(
    event: SwapStepConfirmedEvent,
    view: SwapViewEntity,
    manager: EntityManager,
  ): Promise<void> {
    const paid = feesPaidBy(view, event);
    if (paid.length === 0) return;
    // Counted once the rows are written: only a failed commit (the event is then retried) could count twice.
    for (const fee of await this.feesCollected.record(manager, paid)) integratorFeeMetrics.recorded(fee);
  }

  /**
   * The handler of an event whose effect is `project`'s view change and step news, and `also`'s
   * writes from the view as it then reads (in the same transaction: no fast path then).
   */
  private projecting<E extends { swapId: string }>(
    payload: PayloadClass<E>,
    project: (event: E, envelope: MessageEnvelope<E>) => Projection,
    also?: (event: E, view: SwapViewEntity, manager: EntityManager) => Promise<void>,
  ): StreamHandler<E> {
    return {
      payload,
      applyAtOnce: also
        ? undefined
        : (event, envelope, claim) =>
            this.views.updateAtOnce(
              event.swapId,
              ...updateOf(envelope.type, project(event, envelope), this.clock.nowMs()),
              claim,
            ),
      handle: async (event, envelope, manager) => {
        const applied = await this.views.update(
          manager,
          event.swapId,
          ...updateOf(envelope.type, project(event, envelope), this.clock.nowMs()),
        );
        if (applied && also) await also(event, applied, manager);
        if (!applied)
          this.logger.warn({
            msg: 'swap event for a swap without a view row (its creation predates this consumer group)',
            swapId: event.swapId,
          });
      },
    };
  }
}

/**
 * The view change, and the event's news about one step (steps) when it has some, and the event
 * logged for event streams.
 */
function updateOf(
  type: string,
  { view, step }: Projection,
  nowMs: number,
): [Partial<SwapViewEntity>, UpdateOptions] {
  return [
    { ...view, updatedAtMs: nowMs },
    {
      stepsAfter: step
        ? (steps) => withStepChange(steps, step.step.current, step.step.total, step.change)
        : undefined,
      // The envelope's type: the key of the handler that was chosen, one of SwapEventTypes.
      loggedAs: type as SwapEventType,
    },
  ];
}

/** The swap's status and current step, as an event about that step reports them. */
function atStep(event: {
  status: string;
  step: { current: number; total: number };
}): Partial<SwapViewEntity> {
  return { status: event.status, stepCurrent: event.step.current, stepTotal: event.step.total };
}

/** What an event tells about one step of the swap (gateway.swap_views.steps). */
interface StepEvent {
  step: { current: number; total: number };
  change: SwapStepChange;
}

/** What an event changes: the view's columns, and one step when it tells about one. */
interface Projection {
  view: Partial<SwapViewEntity>;
  step?: StepEvent;
}

/** A failure of a step names it in its details ({ step, chain, kind, txHash? }); a refused build does not. */
function failedStepOf(event: SwapFailedEvent): StepEvent | undefined {
  const { step, chain, kind, txHash } = event.details as {
    step?: { current?: unknown; total?: unknown };
    chain?: unknown;
    kind?: unknown;
    txHash?: unknown;
  };
  if (!step || typeof step.current !== 'number' || typeof step.total !== 'number') return undefined;
  const change: SwapStepChange = { status: 'failed', kind: stepKindOf(kind) };
  if (typeof chain === 'string') change.chain = chain;
  if (typeof txHash === 'string') change.txHash = txHash;
  return { step: { current: step.current, total: step.total }, change };
}
