import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainsModule } from '../chains/chains.module';
import { SignerChains } from '../chains/signer-chains';
import { BitcoinFeeBumpPolicy, BitcoinFeeBumps } from './bitcoin/bitcoin-fee-bump';
import { BitcoinFeeInputsRepository } from './bitcoin/bitcoin-fee-inputs.repository';
import { BitcoinFeeWallets } from './bitcoin/bitcoin-fee-wallets';
import { RelayedTrackingPolicy, RelayedTransactionTracker } from './relayed-transaction-tracker';
import { RelayerGasSponsor } from './relayer-gas-sponsor';
import { RelayerPool } from './evm/relayer-pool';
import { Relayers, RelayersPolicy } from './evm/relayers';
import { RelayingBackgroundTasks } from './relaying-background-tasks';
import { RELAYING_DATA_SOURCE, RELAYING_POOL_SIZE, RelayingDatabase } from '../sponsorship/relaying-database';
import { RelayingSettings } from '../sponsorship/relaying-settings';
import { SolanaFeePayers } from './solana/solana-fee-payers';
import { SponsoredTransactions } from '../sponsorship/sponsored-transactions';
import {
  BitcoinSponsorshipBudget,
  EvmSponsorshipBudget,
  SolanaSponsorshipBudget,
} from '../sponsorship/sponsorship-budgets';

/**
 * Gas sponsorship: the relayers (EVM), fee payers (Solana) and fee wallets (Bitcoin) that pay for
 * users' transactions, their budgets, ledger and tracker, on their own database pool
 * (RelayingDatabase). Needs the app's TypeORM DataSource, whose options that pool copies. Its
 * settings and policies are classes reading the validated SignerSurfaceConfig. Building
 * RelayerPool, SolanaFeePayers and BitcoinFeeWallets checks the keys' chains against the registry: a
 * key for an unknown chain, of the wrong family or (Bitcoin) of another network stops the boot.
 */
@Module({
  imports: [ChainsModule],
  providers: [
    RelayingSettings,
    RelayersPolicy,
    RelayedTrackingPolicy,
    BitcoinFeeBumpPolicy,
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
    // The key sets' accounts, each checked against the chain registry (their constructors, shared
    // with the specs, take the parsed keys rather than the settings).
    {
      provide: RelayerPool,
      inject: [RelayingSettings, SignerChains],
      useFactory: (settings: RelayingSettings, chains: SignerChains) =>
        new RelayerPool(settings.keys, chains, settings.minBalance),
    },
    {
      provide: SolanaFeePayers,
      inject: [RelayingSettings, SignerChains],
      useFactory: (settings: RelayingSettings, chains: SignerChains) =>
        new SolanaFeePayers(settings.solana.keys, chains, settings.solana.minBalanceLamports),
    },
    {
      provide: BitcoinFeeWallets,
      inject: [RelayingSettings, SignerChains, BitcoinFeeInputsRepository],
      useFactory: (settings: RelayingSettings, chains: SignerChains, holds: BitcoinFeeInputsRepository) =>
        new BitcoinFeeWallets(settings.bitcoin.keys, chains, settings.bitcoin.minBalanceSats, holds),
    },
    BitcoinFeeInputsRepository,
    BitcoinFeeBumps,
    EvmSponsorshipBudget,
    SolanaSponsorshipBudget,
    BitcoinSponsorshipBudget,
    SponsoredTransactions,
    Relayers,
    RelayedTransactionTracker,
    RelayerGasSponsor,
    RelayingBackgroundTasks,
  ],
  exports: [RelayerGasSponsor],
})
export class RelayingModule {}
