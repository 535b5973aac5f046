import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import { DataSource } from 'typeorm';
import { RELAYING_DATA_SOURCE } from './relaying-database';
import { RelayingSettings } from './relaying-settings';
import { SponsorshipBudget } from './sponsorship-budget';

/** The daily sponsorship budget of EVM chains (wei): what the relayers may spend per key. */
@Injectable()
export class EvmSponsorshipBudget extends SponsorshipBudget {
  constructor(
    @Inject(RELAYING_DATA_SOURCE) dataSource: DataSource,
    settings: RelayingSettings,
    clock: Clock,
  ) {
    super(dataSource, settings.budget, clock);
  }
}

/** The daily sponsorship budget of Solana chains (lamports): what the fee payers may pay per key. */
@Injectable()
export class SolanaSponsorshipBudget extends SponsorshipBudget {
  constructor(
    @Inject(RELAYING_DATA_SOURCE) dataSource: DataSource,
    settings: RelayingSettings,
    clock: Clock,
  ) {
    super(dataSource, settings.solana.budget, clock);
  }
}

/** The daily sponsorship budget of Bitcoin chains (sats): what the fee wallets may pay per key. */
@Injectable()
export class BitcoinSponsorshipBudget extends SponsorshipBudget {
  constructor(
    @Inject(RELAYING_DATA_SOURCE) dataSource: DataSource,
    settings: RelayingSettings,
    clock: Clock,
  ) {
    super(dataSource, settings.bitcoin.budget, clock);
  }
}
