import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import {
  ReplyEnvelope,
  SigningCommandTypes,
  SigningPrepareCommand,
  SigningRefreshCommand,
  SigningRequestTypes,
  SigningSubmitRequest,
  Topics,
  TransactionStatusRequest,
  upcastSigningPrepare,
} from '@swapgw/contracts';
import { IdempotentConsumer, RequestResponder, TopicEvents } from '@swapgw/messaging';
import { TransactionStatusService } from '../status/transaction-status.service';
import { SigningPreparationService } from './signing-preparation.service';
import { SigningSubmissionService } from './signing-submission.service';

/**
 * Kafka entry points: signing.commands from the planner (each eventId applied once, in the same
 * transaction as its outbox events; a version-1 signing.prepare, its step flat on the command, is
 * upcast to version 2 first) and signing.requests from the gateway (request-reply).
 */
@Controller()
export class SigningController {
  constructor(
    private readonly consumer: IdempotentConsumer,
    private readonly responder: RequestResponder,
    private readonly preparation: SigningPreparationService,
    private readonly submission: SigningSubmissionService,
    private readonly transactionStatus: TransactionStatusService,
  ) {}

  @TopicEvents(Topics.signingCommands)
  async onSigningCommand(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    await this.consumer.consume(upcastSigningPrepare(message), ctx, {
      [SigningCommandTypes.prepare]: {
        payload: SigningPrepareCommand,
        // The step's live request, read with the claim: one round trip fewer per step.
        readFirst: (command: SigningPrepareCommand, dataSource) =>
          this.preparation.liveRequestRead(command, dataSource),
        handle: (command: SigningPrepareCommand, _envelope, manager, live) =>
          this.preparation.prepare(
            command,
            manager,
            live ? ((live[0] as { status: string }) ?? null) : undefined,
          ),
      },
      [SigningCommandTypes.refresh]: {
        payload: SigningRefreshCommand,
        handle: (command: SigningRefreshCommand, _envelope, manager) =>
          this.preparation.refresh(command, manager),
      },
    });
  }

  @MessagePattern(Topics.signingRequests)
  onSigningRequest(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<ReplyEnvelope<unknown>> {
    return this.responder.respond(message, ctx, {
      [SigningRequestTypes.submit]: {
        payload: SigningSubmitRequest,
        handle: (request: SigningSubmitRequest) => this.submission.submit(request),
      },
      [SigningRequestTypes.transactionStatus]: {
        payload: TransactionStatusRequest,
        handle: (request: TransactionStatusRequest) => this.transactionStatus.status(request),
      },
    });
  }
}
