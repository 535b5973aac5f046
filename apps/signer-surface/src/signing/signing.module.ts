import { DynamicModule, Module, type Type } from '@nestjs/common';
import { Topics } from '@swapgw/contracts';
import { ChainsModule } from '../chains/chains.module';
import { ConfirmationPolicy, ConfirmationTracker } from './confirmation-tracker';
import { SigningBackgroundTasks } from './signing-background-tasks';
import { SigningRequestsRepository } from './signing-requests.repository';
import { SIGNING_EVENTS_TOPIC, SigningEventsOutbox } from './signing-events.outbox';
import { PayloadIssuePolicy, SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningPreparationService, WaitingPolicy } from './signing-preparation.service';
import { SigningSubmissionService } from './signing-submission.service';
import {
  PAYLOAD_KIND_HANDLERS,
  PayloadKindRegistry,
  StepAcceptance,
  SubmissionPolicy,
  type PayloadKindHandlerType,
} from './payload-kinds';
import { WaitingPollPolicy, WaitingRequestPoller } from './waiting-request-poller';

/** What the composition root gives the signing flow: the families' payload kinds and sponsors. */
export interface SigningFamilies {
  /** Every payload kind's handler, each a provider of this module (PAYLOAD_KIND_HANDLERS). */
  readonly payloadKinds: readonly PayloadKindHandlerType[];
  /** The module exporting GAS_SPONSOR (the families' sponsors over the sponsorship ledger). */
  readonly sponsorship: Type<unknown> | DynamicModule;
}

/**
 * The signing flow: payloads issued from chain state (or waiting for a balance first), signed
 * transactions verified and broadcast, followed until confirmed, each step's events in the outbox.
 * Each payload kind's part is its handler (registered by its family); sponsored steps go through the
 * GasSponsor of `sponsorship`. Its policies come from the validated config.
 */
@Module({})
export class SigningModule {
  static register(families: SigningFamilies): DynamicModule {
    return {
      module: SigningModule,
      imports: [ChainsModule, families.sponsorship],
      providers: [
        { provide: SIGNING_EVENTS_TOPIC, useValue: Topics.signingEvents },
        PayloadIssuePolicy,
        WaitingPolicy,
        ConfirmationPolicy,
        WaitingPollPolicy,
        SigningEventsOutbox,
        SigningRequestsRepository,
        SigningPayloadIssuer,
        SigningPreparationService,
        SubmissionPolicy,
        StepAcceptance,
        ...families.payloadKinds,
        { provide: PAYLOAD_KIND_HANDLERS, useValue: families.payloadKinds },
        PayloadKindRegistry,
        SigningSubmissionService,
        ConfirmationTracker,
        WaitingRequestPoller,
        SigningBackgroundTasks,
      ],
      exports: [SigningPreparationService, SigningSubmissionService],
    };
  }
}
