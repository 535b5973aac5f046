import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { testEnv } from '@swapgw/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { signerDatabaseOptions } from '../src/database/signer-database';

/** A fresh `signer` schema of the test database, migrated, and how to drop it after the spec. */
export interface SignerTestSchema {
  dataSource: DataSource;
  drop(): Promise<void>;
}

/** Opens a migrated signer schema named `<prefix>_<random>` (parallel runs never share one). */
export async function openSignerTestSchema(prefix: string): Promise<SignerTestSchema> {
  const databaseUrl = testEnv().databaseUrl;
  const schema = `${prefix}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  await prepareDatabase(signerDatabaseOptions(databaseUrl, 1, schema));
  const dataSource = new DataSource(serviceDataSourceOptions(signerDatabaseOptions(databaseUrl, 5, schema)));
  await dataSource.initialize();
  return {
    dataSource,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
