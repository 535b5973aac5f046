import { OnApplicationBootstrap, OnApplicationShutdown, Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { RelayedTransactionTracker } from './relayed-transaction-tracker';
import { RelayerGasSponsor } from './relayer-gas-sponsor';
import { RelayerPool } from './relayer-pool';
import { Relayers } from './relayers';
import { relayingSettingsOf } from './relaying-settings';
import { SponsoredTransactions } from './sponsored-transactions';
import { SponsorshipBudget } from './sponsorship-budget';

/** Runs the relayed-transaction tracker while the app runs. */
export class RelayingBackgroundTasks implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(private readonly tracker: RelayedTransactionTracker) {}

  onApplicationBootstrap(): void {
    this.tracker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tracker.stop();
  }
}

/**
 * Nest providers of gas sponsorship, from the validated config. Needs a TypeORM DataSource and
 * SignerChains (signingProviders) in the module. RelayerPool's construction checks the keys'
 * chains against the registry: a key for an unknown or non-EVM chain stops the boot.
 */
export function relayingProviders(config: SignerSurfaceConfig): Provider[] {
  const settings = relayingSettingsOf(config);
  return [
    {
      provide: RelayerPool,
      inject: [SignerChains],
      useFactory: (chains: SignerChains) => new RelayerPool(settings.keys, chains, settings.minBalance),
    },
    {
      provide: SponsorshipBudget,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new SponsorshipBudget(dataSource, settings.budget),
    },
    {
      provide: SponsoredTransactions,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new SponsoredTransactions(dataSource),
    },
    {
      provide: Relayers,
      inject: [DataSource, SignerChains, RelayerPool],
      useFactory: (dataSource: DataSource, chains: SignerChains, pool: RelayerPool) =>
        new Relayers(dataSource, chains, pool, settings.relayers),
    },
    {
      provide: RelayedTransactionTracker,
      inject: [DataSource, SignerChains, RelayerPool],
      useFactory: (dataSource: DataSource, chains: SignerChains, pool: RelayerPool) =>
        new RelayedTransactionTracker(dataSource, chains, pool, settings.tracking),
    },
    {
      provide: RelayerGasSponsor,
      inject: [Relayers, SponsorshipBudget, SponsoredTransactions],
      useFactory: (relayers: Relayers, budget: SponsorshipBudget, ledger: SponsoredTransactions) =>
        new RelayerGasSponsor(relayers, budget, ledger),
    },
    {
      provide: RelayingBackgroundTasks,
      inject: [RelayedTransactionTracker],
      useFactory: (tracker: RelayedTransactionTracker) => new RelayingBackgroundTasks(tracker),
    },
  ];
}
