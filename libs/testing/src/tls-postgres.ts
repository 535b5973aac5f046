import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
import { makeTestCertificates, TestCertificates } from './test-certificates';

/** Where Debian's PostgreSQL 15 server binaries are (POSTGRES_BIN_DIR overrides). */
const DEFAULT_POSTGRES_BIN_DIR = '/usr/lib/postgresql/15/bin';

/** A PostgreSQL cluster of its own that takes TLS connections only (pg_hba: hostssl, hostnossl reject). */
export interface TlsPostgres {
  port: number;
  certificates: TestCertificates;
  /**
   * A second address the server listens on that its certificate does not name (the certificate
   * names 127.0.0.1 and localhost): what verify-full must refuse and verify-ca accept.
   */
  unnamedHost: string;
  /** `postgres://postgres@<host>:<port>/<database>` with these libpq query parameters (sslmode, ...). */
  url(params?: Record<string, string>, options?: { host?: string; database?: string; user?: string }): string;
  /** Stops the server and deletes its data directory and certificates. */
  stop(): Promise<void>;
}

/**
 * Starts a PostgreSQL cluster for one test file with `initdb` and `pg_ctl` on a free port, with
 * `ssl=on` and a server certificate from makeTestCertificates, trust authentication over TLS only,
 * plain TCP refused. As root (initdb refuses root) the server runs as the `postgres` user.
 */
export async function startTlsPostgres(): Promise<TlsPostgres> {
  const bin = process.env.POSTGRES_BIN_DIR || DEFAULT_POSTGRES_BIN_DIR;
  if (!fs.existsSync(path.join(bin, 'initdb')))
    throw new Error(`no initdb in ${bin}: install PostgreSQL 15's server or set POSTGRES_BIN_DIR`);
  const certificates = makeTestCertificates();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : undefined;
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, {
      stdio: 'pipe',
    });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-tls-postgres-'));
  const data = path.join(dir, 'data');
  const unnamedHost = '127.0.0.2';
  const port = await freePort();
  try {
    // The server reads its key and certificates from its own copies, which must be its own (0600).
    for (const [from, to] of [
      [certificates.serverCertFile, 'server.crt'],
      [certificates.serverKeyFile, 'server.key'],
      [certificates.caFile, 'ca.crt'],
    ]) {
      fs.copyFileSync(from, path.join(dir, to));
      fs.chmodSync(path.join(dir, to), 0o600);
    }
    if (owner)
      for (const name of fs.readdirSync(dir)) fs.chownSync(path.join(dir, name), owner.uid, owner.gid);
    if (owner) fs.chownSync(dir, owner.uid, owner.gid);
    run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    fs.writeFileSync(
      path.join(data, 'pg_hba.conf'),
      [
        'local all all trust',
        'hostnossl all all 0.0.0.0/0 reject',
        'hostssl all all 127.0.0.0/8 trust',
        '',
      ].join('\n'),
    );
    fs.appendFileSync(
      path.join(data, 'postgresql.conf'),
      [
        '',
        `port = ${port}`,
        `listen_addresses = '127.0.0.1,${unnamedHost}'`,
        `unix_socket_directories = '${dir}'`,
        'ssl = on',
        `ssl_cert_file = '${path.join(dir, 'server.crt')}'`,
        `ssl_key_file = '${path.join(dir, 'server.key')}'`,
        `ssl_ca_file = '${path.join(dir, 'ca.crt')}'`,
        'max_connections = 20',
        'shared_buffers = 16MB',
        'fsync = off',
        '',
      ].join('\n'),
    );
    run(path.join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  } catch (error) {
    const log = fs.existsSync(path.join(dir, 'server.log'))
      ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8')
      : '';
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(certificates.dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`PostgreSQL with TLS did not start: ${(error as Error).message}\n${stderr}\n${log}`, {
      cause: error,
    });
  }
  return {
    port,
    certificates,
    unnamedHost,
    url(params = {}, options = {}) {
      const url = new URL(
        `postgres://${options.user ?? 'postgres'}@${options.host ?? '127.0.0.1'}:${port}/${options.database ?? 'postgres'}`,
      );
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
      return url.toString();
    },
    async stop() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.rmSync(certificates.dir, { recursive: true, force: true });
      }
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  if (!Number.isInteger(uid)) throw new Error('running as root needs a `postgres` user to run PostgreSQL as');
  return { uid, gid };
}
