import { Client } from 'pg';
import { prepareDatabase, ServiceDataSourceOptions, withDatabase } from '@swapgw/persistence';

/** Arbitrary but fixed: "gateway migrations" for pg_advisory_lock. */
const GATEWAY_MIGRATION_LOCK = 0x67776d67;

/**
 * prepareDatabase under a PostgreSQL advisory lock, so that several gateway instances (or a keys
 * CLI) starting at once run the migrations one after the other instead of racing on the same
 * CREATE TABLE. The lock lives in the server's maintenance database, which exists before ours does.
 */
export async function prepareDatabaseExclusively(options: ServiceDataSourceOptions): Promise<void> {
  const lockClient = new Client({
    connectionString: withDatabase(options.url),
    connectionTimeoutMillis: 5000,
  });
  await lockClient.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [GATEWAY_MIGRATION_LOCK]);
    await prepareDatabase(options);
  } finally {
    // Closing the session releases the lock too; unlock explicitly to free it at once.
    await lockClient.query('SELECT pg_advisory_unlock($1)', [GATEWAY_MIGRATION_LOCK]).catch(() => undefined);
    await lockClient.end();
  }
}
