import { Client, ClientConfig } from 'pg';
import { explainDatabaseConnectionError, pgConnectionConfig } from '@swapgw/runtime';

/**
 * node-postgres Client options for `url` (pgConnectionConfig: its TLS settings with libpq's
 * meanings), plus the caller's own (timeouts, application_name, keepAlive).
 */
export function pgClientConfig(
  url: string,
  extra: Omit<ClientConfig, 'connectionString' | 'ssl'> = {},
): ClientConfig {
  const { connectionString, ssl } = pgConnectionConfig(url);
  return { ...extra, connectionString, ssl };
}

/**
 * A connected Client on `url`. A failure caused by a setting (an untrusted certificate, TLS refused
 * or required, a wrong password) is thrown as a DatabaseConnectionSettingError naming the setting.
 */
export async function connectPgClient(
  url: string,
  extra: Omit<ClientConfig, 'connectionString' | 'ssl'> = {},
): Promise<Client> {
  const client = new Client(pgClientConfig(url, { connectionTimeoutMillis: 5000, ...extra }));
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw explainDatabaseConnectionError(error, url);
  }
  return client;
}
