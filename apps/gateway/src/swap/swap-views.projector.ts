import { Controller, Logger } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
import { EntityManager } from 'typeorm';
import {
  SwapCompletedEvent,
  SwapCreatedEvent,
  SwapEventTypes,
  SwapExpiredEvent,
  SwapFailedEvent,
  SwapSigningPendingEvent,
  SwapSigningReadyEvent,
  SwapStepConfirmedEvent,
  SwapStepConfirmingEvent,
  SwapStepSubmittedEvent,
  Topics,
} from '@swapgw/contracts';
import { IdempotentConsumer } from '@swapgw/messaging';
import { SwapViewEntity } from './swap-view.entity';
import { SwapViewStore } from './swap-view.store';

/** Confirmation progress of the current step's transaction: only meaningful while `confirming`. */
const NO_CONFIRMATIONS = { confirmations: null, confirmationsRequired: null } as const;
/** Fields that describe a signable payload (and its transaction's progress): cleared whenever the current step has none. */
const NO_PAYLOAD = { payload: null, expiresAtMs: null, executionHints: null, clientHints: null, ...NO_CONFIRMATIONS } as const;

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
    private readonly views: SwapViewStore,
  ) {}

  @EventPattern(Topics.swapEvents)
  async onSwapEvent(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    await this.consumer.consume(message, ctx, {
      [SwapEventTypes.created]: { payload: SwapCreatedEvent, handle: (e: SwapCreatedEvent, _, m) => this.created(e, m) },
      [SwapEventTypes.signingReady]: {
        payload: SwapSigningReadyEvent,
        handle: (e: SwapSigningReadyEvent, _, m) =>
          this.apply(m, e.swapId, {
            status: e.status,
            stepCurrent: e.step.current,
            stepTotal: e.step.total,
            payload: e.payload as unknown as Record<string, unknown>,
            expiresAtMs: e.expiresAtMs,
            readyAtMs: e.readyAtMs,
            executionHints: e.executionHints,
            clientHints: { ...e.clientHints },
            pendingReason: null,
            ...NO_CONFIRMATIONS,
          }),
      },
      [SwapEventTypes.signingPending]: {
        payload: SwapSigningPendingEvent,
        handle: (e: SwapSigningPendingEvent, _, m) =>
          this.apply(m, e.swapId, { ...NO_PAYLOAD, status: e.status, stepCurrent: e.step.current, stepTotal: e.step.total, readyAtMs: e.readyAtMs ?? null, pendingReason: e.reason }),
      },
      [SwapEventTypes.stepSubmitted]: {
        payload: SwapStepSubmittedEvent,
        handle: (e: SwapStepSubmittedEvent, _, m) =>
          this.apply(m, e.swapId, { ...NO_PAYLOAD, status: e.status, stepCurrent: e.step.current, stepTotal: e.step.total, lastTxHash: e.txHash }),
      },
      [SwapEventTypes.stepConfirming]: {
        payload: SwapStepConfirmingEvent,
        handle: (e: SwapStepConfirmingEvent, _, m) =>
          this.apply(m, e.swapId, {
            ...NO_PAYLOAD,
            status: e.status,
            stepCurrent: e.step.current,
            stepTotal: e.step.total,
            lastTxHash: e.txHash,
            confirmations: e.confirmations,
            confirmationsRequired: e.confirmationsRequired,
          }),
      },
      [SwapEventTypes.stepConfirmed]: {
        payload: SwapStepConfirmedEvent,
        // The confirmed step is behind us: the current step is the next one (or the swap is done).
        handle: (e: SwapStepConfirmedEvent, _, m) =>
          this.apply(m, e.swapId, {
            ...NO_PAYLOAD,
            status: e.status,
            stepCurrent: Math.min(e.step.current + 1, e.step.total),
            stepTotal: e.step.total,
            readyAtMs: null,
            ...(e.txHash ? { lastTxHash: e.txHash } : {}),
          }),
      },
      [SwapEventTypes.completed]: {
        payload: SwapCompletedEvent,
        handle: (e: SwapCompletedEvent, _, m) => this.apply(m, e.swapId, { ...NO_PAYLOAD, status: e.status, readyAtMs: null, pendingReason: null }),
      },
      [SwapEventTypes.failed]: {
        payload: SwapFailedEvent,
        handle: (e: SwapFailedEvent, _, m) =>
          this.apply(m, e.swapId, { ...NO_PAYLOAD, status: e.status, failureReason: e.reason, failureDetails: e.details, readyAtMs: null }),
      },
      [SwapEventTypes.expired]: {
        payload: SwapExpiredEvent,
        handle: (e: SwapExpiredEvent, _, m) => this.apply(m, e.swapId, { ...NO_PAYLOAD, status: e.status, failureReason: e.reason, readyAtMs: null }),
      },
    });
  }

  private async created(event: SwapCreatedEvent, manager: EntityManager): Promise<void> {
    await this.views.ensureCreated(event.swapId, event.owner, event.status, event.stepCount, event.createdAtMs, manager);
    // The build may have written the row first (with the same facts); the step count is the planner's.
    await this.views.update(manager, event.swapId, { stepTotal: event.stepCount, updatedAtMs: Date.now() });
  }

  private async apply(manager: EntityManager, swapId: string, change: Partial<SwapViewEntity>): Promise<void> {
    const applied = await this.views.update(manager, swapId, { ...change, updatedAtMs: Date.now() });
    if (!applied) this.logger.warn({ msg: 'swap event for a swap without a view row (its creation predates this consumer group)', swapId });
  }
}
