import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import {
  SigningEventTypes,
  SigningPayloadReadyEvent,
  SigningStepConfirmedEvent,
  SigningStepFailedEvent,
  SigningStepIncludedEvent,
  SigningStepSkippedEvent,
  SigningSubmittedEvent,
  SigningUnavailableEvent,
  SigningWaitingEvent,
  Topics,
} from '@swapgw/contracts';
import { IdempotentConsumer, TopicEvents } from '@swapgw/messaging';
import { SwapProgress } from './swap-progress.service';
import { TypeOrmSwapRepository } from './swap.repository';

/** signer-surface's events move swaps forward; each eventId is applied once (processed_events). */
@Controller()
export class SigningEventsConsumer {
  constructor(
    private readonly consumer: IdempotentConsumer,
    private readonly progress: SwapProgress,
    private readonly swaps: TypeOrmSwapRepository,
  ) {}

  @TopicEvents(Topics.signingEvents)
  async onSigningEvent(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    const p = this.progress;
    // Each handler joins the consumer's transaction, which holds the processed_events row; what
    // waits for its commit (RepricingSignal) runs once it committed.
    await this.swaps.withinConsumer((tx) =>
      this.consumer.consume(message, ctx, {
        [SigningEventTypes.payloadReady]: {
          payload: SigningPayloadReadyEvent,
          handle: (e: SigningPayloadReadyEvent, _, m) => p.payloadReady(e, tx(m)),
        },
        [SigningEventTypes.waiting]: {
          payload: SigningWaitingEvent,
          handle: (e: SigningWaitingEvent, _, m) => p.waiting(e, tx(m)),
        },
        [SigningEventTypes.stepSkipped]: {
          payload: SigningStepSkippedEvent,
          handle: (e: SigningStepSkippedEvent, _, m) => p.stepSkipped(e, tx(m)),
        },
        [SigningEventTypes.submitted]: {
          payload: SigningSubmittedEvent,
          handle: (e: SigningSubmittedEvent, _, m) => p.submitted(e, tx(m)),
        },
        [SigningEventTypes.stepIncluded]: {
          payload: SigningStepIncludedEvent,
          handle: (e: SigningStepIncludedEvent, _, m) => p.stepIncluded(e, tx(m)),
        },
        [SigningEventTypes.stepConfirmed]: {
          payload: SigningStepConfirmedEvent,
          handle: (e: SigningStepConfirmedEvent, _, m) => p.stepConfirmed(e, tx(m)),
        },
        [SigningEventTypes.stepFailed]: {
          payload: SigningStepFailedEvent,
          handle: (e: SigningStepFailedEvent, _, m) => p.stepFailed(e, tx(m)),
        },
        [SigningEventTypes.unavailable]: {
          payload: SigningUnavailableEvent,
          handle: (e: SigningUnavailableEvent, _, m) => p.unavailable(e, tx(m)),
        },
      }),
    );
  }
}
