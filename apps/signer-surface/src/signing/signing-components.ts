import { Provider } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { Outbox } from '@swapgw/messaging';
import { DataSource } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { TransactionStatusService } from '../status/transaction-status.service';
import { ConfirmationTracker } from './confirmation-tracker';
import { SigningBackgroundTasks } from './signing-background-tasks';
import { SigningEventsOutbox } from './signing-events.outbox';
import { SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningPreparationService } from './signing-preparation.service';
import { SigningSubmissionService } from './signing-submission.service';
import { WaitingRequestPoller } from './waiting-request-poller';

export interface SigningComponentsOptions {
  config: SignerSurfaceConfig;
  registry: ChainRegistry;
  /** Topic the signing events go to (tests use their own). */
  eventsTopic?: string;
}

/**
 * Nest providers of signer-surface's signing and status services, built from the validated
 * config. Needs a TypeORM DataSource and MessagingModule's Outbox in the app.
 */
export function signingProviders(options: SigningComponentsOptions): Provider[] {
  const { config } = options;
  return [
    { provide: SignerChains, useFactory: () => new SignerChains(options.registry, config.RPC_TIMEOUT_MS) },
    { provide: SigningEventsOutbox, inject: [Outbox], useFactory: (outbox: Outbox) => new SigningEventsOutbox(outbox, options.eventsTopic) },
    {
      provide: SigningPayloadIssuer,
      inject: [SignerChains, SigningEventsOutbox],
      useFactory: (chains: SignerChains, events: SigningEventsOutbox) =>
        new SigningPayloadIssuer(chains, events, {
          ttlMs: config.SIGNING_REQUEST_TTL_MS,
          gasLimitPercent: config.GAS_LIMIT_PERCENT,
          feeSafetyPercent: config.FEE_SAFETY_PERCENT,
        }),
    },
    {
      provide: SigningPreparationService,
      inject: [SignerChains, SigningPayloadIssuer, SigningEventsOutbox],
      useFactory: (chains: SignerChains, issuer: SigningPayloadIssuer, events: SigningEventsOutbox) =>
        new SigningPreparationService(chains, issuer, events, {
          pollMs: config.WAITING_POLL_MS,
          readyEstimateMs: config.WAITING_READY_ESTIMATE_MS,
          timeoutMs: config.WAITING_TIMEOUT_MS,
        }),
    },
    {
      provide: SigningSubmissionService,
      inject: [DataSource, SignerChains, SigningEventsOutbox, SigningPayloadIssuer],
      useFactory: (dataSource: DataSource, chains: SignerChains, events: SigningEventsOutbox, issuer: SigningPayloadIssuer) =>
        new SigningSubmissionService(dataSource, chains, events, config.CONFIRMATION_POLL_MS, issuer),
    },
    {
      provide: ConfirmationTracker,
      inject: [DataSource, SignerChains, SigningEventsOutbox],
      useFactory: (dataSource: DataSource, chains: SignerChains, events: SigningEventsOutbox) =>
        new ConfirmationTracker(dataSource, chains, events, {
          pollMs: config.CONFIRMATION_POLL_MS,
          confirmationsRequired: config.CONFIRMATIONS_REQUIRED,
          rebroadcastAfterMs: Math.max(config.CONFIRMATION_POLL_MS * 5, 5_000),
          batchSize: 20,
        }),
    },
    {
      provide: WaitingRequestPoller,
      inject: [DataSource, SignerChains, SigningPayloadIssuer, SigningEventsOutbox],
      useFactory: (dataSource: DataSource, chains: SignerChains, issuer: SigningPayloadIssuer, events: SigningEventsOutbox) =>
        new WaitingRequestPoller(dataSource, chains, issuer, events, config.WAITING_POLL_MS),
    },
    {
      provide: TransactionStatusService,
      inject: [SignerChains],
      useFactory: (chains: SignerChains) => new TransactionStatusService(chains, config.RPC_TIMEOUT_MS),
    },
    {
      provide: SigningBackgroundTasks,
      inject: [ConfirmationTracker, WaitingRequestPoller, SignerChains],
      useFactory: (tracker: ConfirmationTracker, poller: WaitingRequestPoller, chains: SignerChains) =>
        new SigningBackgroundTasks(tracker, poller, chains),
    },
  ];
}
