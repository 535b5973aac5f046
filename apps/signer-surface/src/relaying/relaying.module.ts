import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@swapgw/runtime';
import { ChainsModule } from '../chains/chains.module';
import { BitcoinFeeBumps } from './bitcoin-fee-bump';
import { BitcoinFeeInputsRepository } from './bitcoin-fee-inputs.repository';
import { BitcoinFeeWallets } from './bitcoin-fee-wallets';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { RELAYED_TRACKING_POLICY, RelayedTransactionTracker } from './relayed-transaction-tracker';
import { RelayerGasSponsor } from './relayer-gas-sponsor';
import { RelayerPool } from './relayer-pool';
import { RELAYERS_POLICY, Relayers } from './relayers';
import { RelayingBackgroundTasks } from './relaying-background-tasks';
import { RELAYING_DATA_SOURCE, RELAYING_POOL_SIZE, RelayingDatabase } from './relaying-database';
import { RELAYING_SETTINGS, RelayingSettings, relayingSettingsOf } from './relaying-settings';
import { SolanaFeePayers } from './solana-fee-payers';
import { SponsoredTransactions } from './sponsored-transactions';
import {
  BITCOIN_SPONSORSHIP_BUDGET,
  SOLANA_SPONSORSHIP_BUDGET,
  SponsorshipBudget,
} from './sponsorship-budget';

/**
 * Gas sponsorship: the relayers (EVM), fee payers (Solana) and fee wallets (Bitcoin) that pay for
 * users' transactions, their budgets, ledger and tracker, on their own database pool
 * (RelayingDatabase). Needs the app's TypeORM DataSource, whose options that pool copies. Building
 * RelayerPool, SolanaFeePayers and BitcoinFeeWallets checks the keys' chains against the registry: a
 * key for an unknown chain, of the wrong family or (Bitcoin) of another network stops the boot.
 */
@Module({
  imports: [ChainsModule],
  providers: [
    { provide: RELAYING_SETTINGS, inject: [SignerSurfaceConfig], useFactory: relayingSettingsOf },
    {
      provide: RELAYERS_POLICY,
      inject: [RELAYING_SETTINGS],
      useFactory: (settings: RelayingSettings) => settings.relayers,
    },
    {
      provide: RELAYED_TRACKING_POLICY,
      inject: [RELAYING_SETTINGS],
      useFactory: (settings: RelayingSettings) => settings.tracking,
    },
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
      inject: [RELAYING_SETTINGS, SignerChains],
      useFactory: (settings: RelayingSettings, chains: SignerChains) =>
        new RelayerPool(settings.keys, chains, settings.minBalance),
    },
    {
      provide: SolanaFeePayers,
      inject: [RELAYING_SETTINGS, SignerChains],
      useFactory: (settings: RelayingSettings, chains: SignerChains) =>
        new SolanaFeePayers(settings.solana.keys, chains, settings.solana.minBalanceLamports),
    },
    {
      provide: BitcoinFeeWallets,
      inject: [RELAYING_SETTINGS, SignerChains, RELAYING_DATA_SOURCE],
      useFactory: (settings: RelayingSettings, chains: SignerChains, dataSource: DataSource) =>
        new BitcoinFeeWallets(
          settings.bitcoin.keys,
          chains,
          settings.bitcoin.minBalanceSats,
          new BitcoinFeeInputsRepository(dataSource),
        ),
    },
    {
      provide: BitcoinFeeBumps,
      inject: [RELAYING_DATA_SOURCE, BitcoinFeeWallets, RELAYING_SETTINGS, Clock],
      useFactory: (
        dataSource: DataSource,
        feeWallets: BitcoinFeeWallets,
        settings: RelayingSettings,
        clock: Clock,
      ) => new BitcoinFeeBumps(dataSource, feeWallets, settings.bitcoin.feeBump, clock),
    },
    {
      provide: SponsorshipBudget,
      inject: [RELAYING_DATA_SOURCE, RELAYING_SETTINGS],
      useFactory: (dataSource: DataSource, settings: RelayingSettings) =>
        new SponsorshipBudget(dataSource, settings.budget),
    },
    {
      provide: SOLANA_SPONSORSHIP_BUDGET,
      inject: [RELAYING_DATA_SOURCE, RELAYING_SETTINGS],
      useFactory: (dataSource: DataSource, settings: RelayingSettings) =>
        new SponsorshipBudget(dataSource, settings.solana.budget),
    },
    {
      provide: BITCOIN_SPONSORSHIP_BUDGET,
      inject: [RELAYING_DATA_SOURCE, RELAYING_SETTINGS],
      useFactory: (dataSource: DataSource, settings: RelayingSettings) =>
        new SponsorshipBudget(dataSource, settings.bitcoin.budget),
    },
    SponsoredTransactions,
    Relayers,
    RelayedTransactionTracker,
    RelayerGasSponsor,
    RelayingBackgroundTasks,
  ],
  exports: [RelayerGasSponsor],
})
export class RelayingModule {}
