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
import { RelayerGasSponsor, relayingProviders } from '../relaying';

export interface SigningComponentsOptions {
  config: SignerSurfaceConfig;
  registry: ChainRegistry;
  /** Topic the signing events go to (tests use their own). */
  eventsTopic?: string;
}

/**
 * Nest providers of signer-surface's signing and status services (and the relayers they use), built from the validated
 * config. Needs a TypeORM DataSource and MessagingModule's Outbox in the app.
 */
export function signingProviders(options: SigningComponentsOptions): Provider[] {
  const { config } = options;
  return [
    // The relayers that pay sponsored gas: the issuer, the submission and the tracker use them.
    ...relayingProviders(config),
    { provide: SignerChains, useFactory: () => new SignerChains(options.registry, config.RPC_TIMEOUT_MS) },
    { provide: SigningEventsOutbox, inject: [Outbox], useFactory: (outbox: Outbox) => new SigningEventsOutbox(outbox, options.eventsTopic) },
    {
      provide: SigningPayloadIssuer,
      inject: [SignerChains, SigningEventsOutbox, RelayerGasSponsor],
      useFactory: (chains: SignerChains, events: SigningEventsOutbox, sponsor: RelayerGasSponsor) =>
        new SigningPayloadIssuer(
          chains,
          events,
          {
            ttlMs: config.SIGNING_REQUEST_TTL_MS,
            gasLimitPercent: config.GAS_LIMIT_PERCENT,
            feeSafetyPercent: config.FEE_SAFETY_PERCENT,
          },
          sponsor,
        ),
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
      inject: [DataSource, SignerChains, SigningEventsOutbox, SigningPayloadIssuer, RelayerGasSponsor],
      useFactory: (dataSource: DataSource, chains: SignerChains, events: SigningEventsOutbox, issuer: SigningPayloadIssuer, sponsor: RelayerGasSponsor) =>
        new SigningSubmissionService(dataSource, chains, events, config.CONFIRMATION_POLL_MS, issuer, sponsor),
    },
    {
      provide: ConfirmationTracker,
      inject: [DataSource, SignerChains, SigningEventsOutbox, RelayerGasSponsor],
      useFactory: (dataSource: DataSource, chains: SignerChains, events: SigningEventsOutbox, sponsor: RelayerGasSponsor) =>
        new ConfirmationTracker(
          dataSource,
          chains,
          events,
          {
            pollMs: config.CONFIRMATION_POLL_MS,
            confirmationsRequired: config.CONFIRMATIONS_REQUIRED,
            rebroadcastAfterMs: Math.max(config.CONFIRMATION_POLL_MS * 5, 5_000),
            batchSize: 20,
          },
          sponsor,
        ),
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
