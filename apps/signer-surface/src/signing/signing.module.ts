import { Module } from '@nestjs/common';
import { Topics } from '@swapgw/contracts';
import { ChainsModule } from '../chains/chains.module';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { RelayerGasSponsor, RelayingModule } from '../relaying';
import { CONFIRMATION_POLICY, ConfirmationPolicy, ConfirmationTracker } from './confirmation-tracker';
import { SigningBackgroundTasks } from './signing-background-tasks';
import { SIGNING_EVENTS_TOPIC, SigningEventsOutbox } from './signing-events.outbox';
import { PayloadPolicy } from '@swapgw/chains/families';
import { PAYLOAD_ISSUE_POLICY, SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningPreparationService, WAITING_POLICY, WaitingPolicy } from './signing-preparation.service';
import { SigningSubmissionService } from './signing-submission.service';
import {
  PAYLOAD_KIND_HANDLERS,
  PayloadKindRegistry,
  StepAcceptance,
  SubmissionPolicy,
} from './payload-kinds';
import { GAS_SPONSOR } from './sponsored/gas-sponsor';
import { WAITING_POLL_POLICY, WaitingPollPolicy, WaitingRequestPoller } from './waiting-request-poller';

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
    {
      provide: PAYLOAD_ISSUE_POLICY,
      inject: [SignerSurfaceConfig],
      useFactory: (config: SignerSurfaceConfig): PayloadPolicy => ({
        ttlMs: config.SIGNING_REQUEST_TTL_MS,
        gasLimitPercent: config.GAS_LIMIT_PERCENT,
        feeSafetyPercent: config.FEE_SAFETY_PERCENT,
      }),
    },
    {
      provide: WAITING_POLICY,
      inject: [SignerSurfaceConfig],
      useFactory: (config: SignerSurfaceConfig): WaitingPolicy => ({
        pollMs: config.WAITING_POLL_MS,
        readyEstimateMs: config.WAITING_READY_ESTIMATE_MS,
        timeoutMs: config.WAITING_TIMEOUT_MS,
      }),
    },
    {
      provide: CONFIRMATION_POLICY,
      inject: [SignerSurfaceConfig],
      useFactory: (config: SignerSurfaceConfig): ConfirmationPolicy => ({
        pollMs: config.CONFIRMATION_POLL_MS,
        confirmationsRequired: config.CONFIRMATIONS_REQUIRED,
        rebroadcastAfterMs: Math.max(config.CONFIRMATION_POLL_MS * 5, 5_000),
        batchSize: 20,
      }),
    },
    {
      provide: WAITING_POLL_POLICY,
      inject: [SignerSurfaceConfig],
      useFactory: (config: SignerSurfaceConfig): WaitingPollPolicy => ({
        pollMs: config.WAITING_POLL_MS,
        batchSize: 20,
      }),
    },
    SigningEventsOutbox,
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
