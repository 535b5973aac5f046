import { OnApplicationBootstrap, OnApplicationShutdown, Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { RelayedTransactionTracker } from './relayed-transaction-tracker';
import { RelayerGasSponsor } from './relayer-gas-sponsor';
import { RelayerPool } from './relayer-pool';
import { Relayers } from './relayers';
import { relayingSettingsOf } from './relaying-settings';
import { SolanaFeePayers } from './solana-fee-payers';
import { SponsoredTransactions } from './sponsored-transactions';
import { SponsorshipBudget } from './sponsorship-budget';

/** The daily sponsorship budget of Solana chains (lamports), beside the EVM one (wei). */
export const SOLANA_SPONSORSHIP_BUDGET = Symbol('SOLANA_SPONSORSHIP_BUDGET');

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
 * SignerChains (signingProviders) in the module. RelayerPool's and SolanaFeePayers' construction
 * check the keys' chains against the registry: a key for an unknown chain, or of the wrong family,
 * stops the boot.
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
      provide: SolanaFeePayers,
      inject: [SignerChains],
      useFactory: (chains: SignerChains) =>
        new SolanaFeePayers(settings.solana.keys, chains, settings.solana.minBalanceLamports),
    },
    {
      provide: SOLANA_SPONSORSHIP_BUDGET,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new SponsorshipBudget(dataSource, settings.solana.budget),
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
      inject: [DataSource, SignerChains, RelayerPool, SolanaFeePayers],
      useFactory: (
        dataSource: DataSource,
        chains: SignerChains,
        pool: RelayerPool,
        feePayers: SolanaFeePayers,
      ) => new RelayedTransactionTracker(dataSource, chains, pool, settings.tracking, Date.now, feePayers),
    },
    {
      provide: RelayerGasSponsor,
      inject: [
        Relayers,
        SponsorshipBudget,
        SponsoredTransactions,
        SolanaFeePayers,
        SOLANA_SPONSORSHIP_BUDGET,
      ],
      useFactory: (
        relayers: Relayers,
        budget: SponsorshipBudget,
        ledger: SponsoredTransactions,
        feePayers: SolanaFeePayers,
        solanaBudget: SponsorshipBudget,
      ) => new RelayerGasSponsor(relayers, budget, ledger, feePayers, solanaBudget),
    },
    {
      provide: RelayingBackgroundTasks,
      inject: [RelayedTransactionTracker],
      useFactory: (tracker: RelayedTransactionTracker) => new RelayingBackgroundTasks(tracker),
    },
  ];
}
