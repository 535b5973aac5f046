import { OnApplicationBootstrap, OnApplicationShutdown, Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
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

/**
 * The relayers' own small PostgreSQL pool. A relayer send commits its nonce and ledger row on its
 * own, while the signing flow that asked for it still holds its transaction: on one shared pool,
 * enough concurrent steps would each hold a connection and wait for a second one that never frees
 * (a burst of sponsored builds did exactly that). Separate pools cannot wait on each other.
 */
export class RelayingDatabase implements OnApplicationShutdown {
  private constructor(readonly dataSource: DataSource) {}

  static async open(main: DataSource, poolSize: number): Promise<RelayingDatabase> {
    const options = main.options as PostgresConnectionOptions;
    const dataSource = new DataSource({
      ...options,
      applicationName: `${options.applicationName ?? 'signer-surface'}-relaying`,
      extra: { ...options.extra, max: poolSize },
    });
    return new RelayingDatabase(await dataSource.initialize());
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Connections of the relayers' pool: one per relayer send in flight, plus the tracker's pass. */
const RELAYING_POOL_SIZE = 5;
const RELAYING_DATA_SOURCE = Symbol('RELAYING_DATA_SOURCE');

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
 * Nest providers of gas sponsorship, from the validated config. Needs a TypeORM DataSource (whose
 * options the relayers' own pool copies, RelayingDatabase) and
 * SignerChains (signingProviders) in the module. RelayerPool's and SolanaFeePayers' construction
 * check the keys' chains against the registry: a key for an unknown chain, or of the wrong family,
 * stops the boot.
 */
export function relayingProviders(config: SignerSurfaceConfig): Provider[] {
  const settings = relayingSettingsOf(config);
  return [
    {
      provide: RelayingDatabase,
      inject: [DataSource],
      useFactory: (main: DataSource) => RelayingDatabase.open(main, RELAYING_POOL_SIZE),
    },
    {
      provide: RELAYING_DATA_SOURCE,
      inject: [RelayingDatabase],
      useFactory: (database: RelayingDatabase) => database.dataSource,
    },
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
      inject: [RELAYING_DATA_SOURCE],
      useFactory: (dataSource: DataSource) => new SponsorshipBudget(dataSource, settings.solana.budget),
    },
    {
      provide: SponsorshipBudget,
      inject: [RELAYING_DATA_SOURCE],
      useFactory: (dataSource: DataSource) => new SponsorshipBudget(dataSource, settings.budget),
    },
    {
      provide: SponsoredTransactions,
      inject: [RELAYING_DATA_SOURCE],
      useFactory: (dataSource: DataSource) => new SponsoredTransactions(dataSource),
    },
    {
      provide: Relayers,
      inject: [RELAYING_DATA_SOURCE, SignerChains, RelayerPool],
      useFactory: (dataSource: DataSource, chains: SignerChains, pool: RelayerPool) =>
        new Relayers(dataSource, chains, pool, settings.relayers),
    },
    {
      provide: RelayedTransactionTracker,
      inject: [RELAYING_DATA_SOURCE, SignerChains, RelayerPool, SolanaFeePayers],
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
