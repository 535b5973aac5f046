import { DatabaseConnectionSettingError, DatabaseEnvironment, loadConfig } from '@swapgw/runtime';
import { startTlsPostgres, TlsPostgres } from '@swapgw/testing';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { PgChannelListener } from './pg-channel-listener';
import { connectPgClient } from './pg-connection';
import {
  prepareOrCheckDatabase,
  serviceDataSourceOptions,
  ServiceDataSourceOptions,
} from './service-data-source';

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE "tls_app"."notes" (id serial PRIMARY KEY, body text NOT NULL)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE "tls_app"."notes"');
  }
}

/** What an app does with its config: DATABASE_URL and the DATABASE_SSL_* variables, through DatabaseEnvironment. */
function appDatabase(env: Record<string, string>): ServiceDataSourceOptions {
  const config = loadConfig(DatabaseEnvironment, env);
  return {
    url: config.databaseUrl,
    schema: 'tls_app',
    entities: [],
    migrations: [CreateNotes1700000000000],
    poolSize: 2,
    applicationName: 'tls-app',
  };
}

describe('PostgreSQL over TLS (a cluster of its own that refuses plain TCP)', () => {
  let server: TlsPostgres;

  beforeAll(async () => {
    server = await startTlsPostgres();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('verify-full with the right CA: the app creates its database, migrates, reads and writes, and LISTENs, all encrypted', async () => {
    const options = appDatabase({
      DATABASE_URL: server.url({}, { database: 'tls_app_db' }),
      DATABASE_SSL_MODE: 'verify-full',
      DATABASE_SSL_CA_FILE: server.certificates.caFile,
    });
    await prepareOrCheckDatabase(options, true);
    const dataSource = await new DataSource(serviceDataSourceOptions(options)).initialize();
    const notified: string[] = [];
    const listener = new PgChannelListener(dataSource, 'tls_notes', {
      purpose: 'notes-listen',
      onNotification: (payload) => notified.push(payload),
    });
    try {
      await listener.start();
      expect(listener.isListening()).toBe(true);
      await dataSource.query(`INSERT INTO "tls_app"."notes" (body) VALUES ('over tls')`);
      await dataSource.query(`SELECT pg_notify('tls_notes', 'written')`);
      const rows = (await dataSource.query(
        `SELECT n.body, s.ssl FROM "tls_app"."notes" n, pg_stat_ssl s WHERE s.pid = pg_backend_pid()`,
      )) as { body: string; ssl: boolean }[];
      expect(rows).toEqual([{ body: 'over tls', ssl: true }]);
      const deadline = Date.now() + 5000;
      while (notified.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(notified).toEqual(['written']);
      // Every session of the cluster but this check's own is encrypted (the pool's and the listener's).
      const client = await connectPgClient(options.url);
      try {
        const { rows: sessions } = await client.query(
          `SELECT a.application_name, s.ssl FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid)
            WHERE a.datname = 'tls_app_db' ORDER BY 1`,
        );
        expect(sessions.map((s: { application_name: string }) => s.application_name)).toEqual(
          expect.arrayContaining(['tls-app', 'tls-app-notes-listen']),
        );
        expect(sessions.every((s: { ssl: boolean }) => s.ssl)).toBe(true);
      } finally {
        await client.end();
      }
    } finally {
      await listener.stop();
      await dataSource.destroy();
    }
    // Started again: nothing left to migrate, and the check of MIGRATE_ON_START=false passes over TLS too.
    await expect(prepareOrCheckDatabase(options, false)).resolves.toBeUndefined();
  });

  it('sslmode=verify-full in DATABASE_URL alone is honoured the same way', async () => {
    const options = appDatabase({
      DATABASE_URL: server.url(
        { sslmode: 'verify-full', sslrootcert: server.certificates.caFile },
        { database: 'tls_app_db' },
      ),
    });
    await expect(prepareOrCheckDatabase(options, false)).resolves.toBeUndefined();
  });

  it('a server certificate the CA file does not trust stops the start, naming DATABASE_SSL_CA_FILE', async () => {
    const options = appDatabase({
      DATABASE_URL: server.url({}, { database: 'tls_app_db' }),
      DATABASE_SSL_MODE: 'verify-full',
      DATABASE_SSL_CA_FILE: server.certificates.otherCaFile,
    });
    const start = prepareOrCheckDatabase(options, true);
    await expect(start).rejects.toBeInstanceOf(DatabaseConnectionSettingError);
    await expect(start).rejects.toThrow(/not trusted.*DATABASE_SSL_CA_FILE=.*other-ca\.crt/);
  });

  it('sslmode=disable is refused by a server that takes TLS only, naming DATABASE_SSL_MODE', async () => {
    const options = appDatabase({
      DATABASE_URL: server.url({}, { database: 'tls_app_db' }),
      DATABASE_SSL_MODE: 'disable',
    });
    await expect(prepareOrCheckDatabase(options, true)).rejects.toThrow(
      /refuses unencrypted connections.*no encryption.*DATABASE_SSL_MODE/,
    );
  });

  it('verify-full refuses a host name the certificate does not hold; verify-ca accepts it (chain checked, name not)', async () => {
    const env = {
      DATABASE_URL: server.url({}, { host: server.unnamedHost, database: 'tls_app_db' }),
      DATABASE_SSL_CA_FILE: server.certificates.caFile,
    };
    await expect(
      prepareOrCheckDatabase(appDatabase({ ...env, DATABASE_SSL_MODE: 'verify-full' }), false),
    ).rejects.toThrow(
      new RegExp(`does not name the host "${server.unnamedHost.replace(/\./g, '\\.')}".*DATABASE_SSL_MODE`),
    );
    await expect(
      prepareOrCheckDatabase(appDatabase({ ...env, DATABASE_SSL_MODE: 'verify-ca' }), false),
    ).resolves.toBeUndefined();
    // verify-ca still checks the chain: an untrusted CA is refused on that host too.
    await expect(
      prepareOrCheckDatabase(
        appDatabase({
          ...env,
          DATABASE_SSL_MODE: 'verify-ca',
          DATABASE_SSL_CA_FILE: server.certificates.otherCaFile,
        }),
        false,
      ),
    ).rejects.toThrow(/DATABASE_SSL_CA_FILE/);
  });

  it('require encrypts without checking the certificate (no CA given)', async () => {
    const client = await connectPgClient(
      appDatabase({ DATABASE_URL: server.url({}, { database: 'tls_app_db' }), DATABASE_SSL_MODE: 'require' })
        .url,
    );
    try {
      const { rows } = await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      expect(rows).toEqual([{ ssl: true }]);
    } finally {
      await client.end();
    }
  });

  it('a client certificate is presented when DATABASE_SSL_CERT_FILE and DATABASE_SSL_KEY_FILE are set', async () => {
    const client = await connectPgClient(
      appDatabase({
        DATABASE_URL: server.url({}, { database: 'tls_app_db' }),
        DATABASE_SSL_MODE: 'verify-full',
        DATABASE_SSL_CA_FILE: server.certificates.caFile,
        DATABASE_SSL_CERT_FILE: server.certificates.clientCertFile,
        DATABASE_SSL_KEY_FILE: server.certificates.clientKeyFile,
      }).url,
    );
    try {
      const { rows } = await client.query('SELECT client_dn FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      expect(rows).toEqual([{ client_dn: '/CN=swapgw-test-client' }]);
    } finally {
      await client.end();
    }
  });
});
