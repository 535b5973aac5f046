import { OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';

/**
 * The relayers' own small PostgreSQL pool. A relayer send commits its nonce and ledger row on its
 * own, while the signing flow that asked for it still holds its transaction: on one shared pool,
 * enough concurrent steps would each hold a connection and wait for a second one that never frees
 * (a burst of sponsored builds did exactly that). Separate pools cannot wait on each other.
 */
export class RelayingDatabase implements OnApplicationShutdown {
  private constructor(readonly dataSource: DataSource) {}

  static async open(main: DataSource, poolSize: number): Promise<RelayingDatabase> {
    const options = main.options as PostgresDataSourceOptions;
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
export const RELAYING_POOL_SIZE = 5;

/** The DataSource of RelayingDatabase: what the relayers, the ledger and the budgets read and write with. */
export const RELAYING_DATA_SOURCE = Symbol('RelayingDataSource');
