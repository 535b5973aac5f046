import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
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
import { IdempotentConsumer } from '@swapgw/messaging';
import { SwapProgress } from './swap-progress.service';

/** signer-surface's events move swaps forward; each eventId is applied once (processed_events). */
@Controller()
export class SigningEventsConsumer {
  constructor(
    private readonly consumer: IdempotentConsumer,
    private readonly progress: SwapProgress,
  ) {}

  @EventPattern(Topics.signingEvents)
  async onSigningEvent(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    const p = this.progress;
    await this.consumer.consume(message, ctx, {
      [SigningEventTypes.payloadReady]: { payload: SigningPayloadReadyEvent, handle: (e: SigningPayloadReadyEvent, _, m) => p.payloadReady(e, m) },
      [SigningEventTypes.waiting]: { payload: SigningWaitingEvent, handle: (e: SigningWaitingEvent, _, m) => p.waiting(e, m) },
      [SigningEventTypes.stepSkipped]: { payload: SigningStepSkippedEvent, handle: (e: SigningStepSkippedEvent, _, m) => p.stepSkipped(e, m) },
      [SigningEventTypes.submitted]: { payload: SigningSubmittedEvent, handle: (e: SigningSubmittedEvent, _, m) => p.submitted(e, m) },
      [SigningEventTypes.stepIncluded]: { payload: SigningStepIncludedEvent, handle: (e: SigningStepIncludedEvent, _, m) => p.stepIncluded(e, m) },
      [SigningEventTypes.stepConfirmed]: { payload: SigningStepConfirmedEvent, handle: (e: SigningStepConfirmedEvent, _, m) => p.stepConfirmed(e, m) },
      [SigningEventTypes.stepFailed]: { payload: SigningStepFailedEvent, handle: (e: SigningStepFailedEvent, _, m) => p.stepFailed(e, m) },
      [SigningEventTypes.unavailable]: { payload: SigningUnavailableEvent, handle: (e: SigningUnavailableEvent, _, m) => p.unavailable(e, m) },
    });
  }
}
