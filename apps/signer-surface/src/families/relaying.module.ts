import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainsModule } from '../chains/chains.module';
import type { SignerFamily } from '../signing/signer-family';
import { STEP_PREREQUISITES, type StepPrerequisite } from '../signing/step-prerequisites';
import { GAS_SPONSOR } from '../sponsorship/gas-sponsor';
import {
  RelayedTrackingPolicy,
  RelayedTransactionTracker,
} from '../sponsorship/tracking/relayed-transaction-tracker';
import { SPONSOR_TRACKINGS, type SponsorTracking } from '../sponsorship/tracking/sponsor-tracking';
import { TrackedRows } from '../sponsorship/tracking/tracked-rows';
import { RelayerGasSponsor } from './relayer-gas-sponsor';
import { RelayingBackgroundTasks } from './relaying-background-tasks';
import { RELAYING_DATA_SOURCE, RELAYING_POOL_SIZE, RelayingDatabase } from '../sponsorship/relaying-database';
import { SponsoredTransactions } from '../sponsorship/sponsored-transactions';
import { SponsoredTransactionsRepository } from '../sponsorship/sponsored-transactions.repository';
import { RelayerAccountsRepository } from '../sponsorship/relayer-accounts.repository';
import { FeeAccountLedger } from '../sponsorship/fee-account-ledger';

/**
 * Gas sponsorship: the families' sponsors (relayers on EVM, fee payers on Solana, fee wallets on
 * Bitcoin, each registered by its family with its settings, keys and budget) over the shared ledger
 * and its tracker, on their own database pool (RelayingDatabase). Needs the app's TypeORM
 * DataSource, whose options that pool copies. Building RelayerPool, SolanaFeePayers and
 * BitcoinFeeWallets checks the keys' chains against the registry: a key for an unknown chain, of the
 * wrong family or (Bitcoin) of another network stops the boot. Exports GAS_SPONSOR, the signing
 * flow's port (RelayerGasSponsor), the families' STEP_PREREQUISITES, and each family's own sponsors its payload kinds inject (kindSponsors).
 */
@Module({})
export class RelayingModule {
  static register(families: readonly SignerFamily[]): DynamicModule {
    return {
      module: RelayingModule,
      imports: [ChainsModule],
      providers: [
        RelayedTrackingPolicy,
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
        ...families.flatMap((family) => family.sponsorship),
        SponsoredTransactionsRepository,
        RelayerAccountsRepository,
        FeeAccountLedger,
        SponsoredTransactions,
        TrackedRows,
        {
          provide: SPONSOR_TRACKINGS,
          inject: families.map((family) => family.tracking),
          useFactory: (...trackings: SponsorTracking[]) => trackings,
        },
        {
          provide: STEP_PREREQUISITES,
          inject: families.flatMap((family) => family.stepPrerequisites ?? []),
          useFactory: (...prerequisites: StepPrerequisite[]) => prerequisites,
        },
        RelayedTransactionTracker,
        RelayerGasSponsor,
        { provide: GAS_SPONSOR, useExisting: RelayerGasSponsor },
        RelayingBackgroundTasks,
      ],
      exports: [
        RelayerGasSponsor,
        GAS_SPONSOR,
        STEP_PREREQUISITES,
        ...families.flatMap((family) => family.kindSponsors),
      ],
    };
  }
}
