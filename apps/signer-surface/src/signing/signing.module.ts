import { Module } from '@nestjs/common';
import { Topics } from '@swapgw/contracts';
import { ChainsModule } from '../chains/chains.module';
import { RelayerGasSponsor, RelayingModule } from '../sponsorship';
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
} from './payload-kinds';
import { GAS_SPONSOR } from '../sponsorship/gas-sponsor';
import { WaitingPollPolicy, WaitingRequestPoller } from './waiting-request-poller';

/**
 * The signing flow: payloads issued from chain state (or waiting for a balance first), signed
 * transactions verified and broadcast, followed until confirmed, each step's events in the outbox.
 * Sponsored steps go through the relayers (RelayingModule). Its policies come from the validated config.
 */
@Module({
  imports: [ChainsModule, RelayingModule],
  providers: [
    { provide: SIGNING_EVENTS_TOPIC, useValue: Topics.signingEvents },
    { provide: GAS_SPONSOR, useExisting: RelayerGasSponsor },
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
    ...PAYLOAD_KIND_HANDLERS,
    PayloadKindRegistry,
    SigningSubmissionService,
    ConfirmationTracker,
    WaitingRequestPoller,
    SigningBackgroundTasks,
  ],
  exports: [SigningPreparationService, SigningSubmissionService],
})
export class SigningModule {}
