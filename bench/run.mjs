#!/usr/bin/env node
// `npm run bench`: measures the gateway on this machine against baselines measured in the same run.
//   1. build when the sources are newer than dist/ (tools/build), then compile bench/src into dist/bench
//   2. its own infrastructure through tools/stack and tools/kafka (the code `npm start` and `npm test`
//      use): a fresh Kafka broker on free ports, a fresh database swapgw_bench_<random> (dropped at
//      the end) on the PostgreSQL server npm start would use (with none, an embedded one of the
//      bench's own, data in its run dir), the devnet on free ports, the Kafka topics, the API keys
//      (made with the keys CLI as soon as the database exists, while the broker and the devnet
//      start), the five apps
//   3. the scenarios (dist/bench/src/bench-main.js), which write bench/results/<timestamp>.json and
//      .md and print the markdown summary; with soak-cold first, they start together with the
//      gateway, whose first ok health sends the cold burst
//   4. everything it started is stopped, on success, failure and Ctrl-C
// Flags (defaults keep a run under ~5 minutes on a small machine; raise them to scale up):
//   --scenarios gateway-overhead,kafka-request-reply,quote-latency,sync-build-latency,soak,soak-scaled,health-flood
//                                            (soak-cold: not in the default; only as the first one)
//   --connections 10 --duration 5            autocannon, per target (gateway and bare Fastify)
//   --rr-requests 200 --rr-concurrency 8     Kafka request-reply, per series
//   --samples 20 --build-wait-ms 15000       quote and sync build latency
//   --soak-swaps 20 --soak-concurrency 20 --soak-poll-ms 0 (= each 202's pollAfterMs) --soak-poll-wait-ms 20000 --soak-ready-timeout-ms 120000
//   --soak-gas-payment sponsored|user
//   --soak-integrators 20 (API keys the soak's swaps are spread over)
//   --soak-pairs mix|single (the soaks' swaps round-robin over several pairs, or BENCH_QUOTE's only)
//   --probe-interval-ms 250 --probe-after-s 10   the prober during the soak and after it
//   --health-flood-connections 20 --health-flood-rounds 2   health-flood: callers of GET /health, baseline/flood pairs
//   --log-level warn (apps' LOG_LEVEL)   --skip-build   --keep-logs   --echo (app logs to the console)
//   --cpu-prof DIR (each app, and the scenarios' load client, writes a V8 CPU profile into DIR when it stops)
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { startKafka } from '../tools/kafka/kafka.mjs';
import {
  APPS,
  appEntry,
  appEnv,
  sponsorKeysEnv,
  sponsorKeysOf,
  bootstrap,
  dropDatabase,
  ensureDatabase,
  ensureKafkaTopics,
  fail,
  freePortRun,
  healthUrlOf,
  httpOk,
  ManagedProcess,
  pollUntil,
  providePostgres,
  repoRoot,
  say,
  startAppProcess,
  startDevnet,
} from '../tools/stack/lib.mjs';
import { useProjectNode } from '../tools/stack/node-runtime.mjs';

await useProjectNode();

/** The default run, in this order. */
const SCENARIOS = [
  'gateway-overhead',
  'kafka-request-reply',
  'quote-latency',
  'sync-build-latency',
  'soak',
  'soak-scaled',
  'health-flood',
];
/** Only as a run's first scenario: its burst goes to a gateway that has just started. */
const COLD_SCENARIO = 'soak-cold';
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const positive = (name, fallback) => {
  const value = Number(option(name, fallback));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};

const nonNegative = (name, fallback) => {
  const value = Number(option(name, fallback));
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0`);
  return value;
};

const scenarios = option('scenarios', SCENARIOS.join(',')).split(',');
for (const s of scenarios)
  if (!SCENARIOS.includes(s) && s !== COLD_SCENARIO)
    throw new Error(`unknown scenario ${s} (known: ${[COLD_SCENARIO, ...SCENARIOS].join(', ')})`);
if (scenarios.indexOf(COLD_SCENARIO) > 0)
  throw new Error(`${COLD_SCENARIO} runs on a stack that has just started: give it first in --scenarios`);
/** The cold soak's burst is sent at the gateway's first ok health: the scenarios start with the gateway. */
const coldStart = scenarios[0] === COLD_SCENARIO;
const soakSwaps = positive('soak-swaps', 20);
const settings = {
  scenarios,
  connections: positive('connections', 10),
  durationSeconds: positive('duration', 5),
  rrRequests: positive('rr-requests', 200),
  rrConcurrency: positive('rr-concurrency', 8),
  latencySamples: positive('samples', 20),
  buildWaitMs: positive('build-wait-ms', 15_000),
  soakSwaps,
  soakConcurrency: positive('soak-concurrency', soakSwaps),
  // Not measured: a warm stack whichever scenario ran before (default: a tenth of the burst, at least 20).
  soakWarmupSwaps: nonNegative('soak-warmup', Math.max(20, Math.ceil(soakSwaps / 10))),
  // 0: wait what each 202 says (pollAfterMs), as a client following the contract does.
  soakPollMs: nonNegative('soak-poll-ms', 0),
  // > 0: each signing poll waits up to this long for the payload (waitForTxRequestMs), as the SDK's
  // runSwap polls; 0: the plain poll every client can send (use it against a commit before 2026-12-03).
  soakPollWaitMs: nonNegative('soak-poll-wait-ms', 20_000),
  soakReadyTimeoutMs: positive('soak-ready-timeout-ms', 120_000),
  soakIntegrators: positive('soak-integrators', 20),
  // mix: the soaks' swaps round-robin over several pairs (same-chain, cross-chain, to Solana), as
  // clients send them; single: the one pair of every other scenario (BENCH_QUOTE).
  soakPairs: option('soak-pairs', 'mix'),
  // Who pays the soak swaps' gas: sponsored (the product's default) or user (the wallet's own transactions).
  soakGasPayment: option('soak-gas-payment', 'sponsored'),
  probeIntervalMs: positive('probe-interval-ms', 250),
  probeAfterSeconds: positive('probe-after-s', 10),
  // health-flood: the soak's burst (--soak-swaps, --soak-concurrency) without and with this many
  // callers of GET /api/v1/health back to back, alternating for this many rounds.
  healthFloodConnections: positive('health-flood-connections', 20),
  healthFloodRounds: positive('health-flood-rounds', 2),
  logLevel: option('log-level', 'warn'),
};
if (!['sponsored', 'user'].includes(settings.soakGasPayment))
  throw new Error('--soak-gas-payment is sponsored or user');
if (!['mix', 'single'].includes(settings.soakPairs)) throw new Error('--soak-pairs is mix or single');
const echo = flag('echo');
const keepLogs = flag('keep-logs');
// Every app and the load client write a V8 CPU profile there when they stop (open in Chrome DevTools or speedscope).
const cpuProfileDir = option('cpu-prof', undefined);
// Extra Node/V8 flags for every app (space-separated), to measure a runtime setting against the default.
const appNodeArgs = option('app-node-args', '').split(' ').filter(Boolean);
const nodeArgs = [
  ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : []),
  ...appNodeArgs,
];

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-bench-'));
const logDir = path.join(runDir, 'logs');
const started = [];
/** What the CPU figures of the soak add up: { name, pid, outsideServices? } per process started here. */
const measuredProcesses = [];
let stopping = false;

async function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const item of started.reverse()) {
    try {
      await item.stop();
    } catch (error) {
      fail('bench', `stopping ${item.name}: ${error.message}`);
    }
  }
}
const onSignal = (signal) => {
  fail('bench', `${signal}: stopping what the bench started`);
  void stopAll().then(() => process.exit(130));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('exit', () => {
  for (const item of started) item.killNow?.();
});

/** Newest modification time of the TypeScript sources under `dirs` (tests excluded). */
function newestSource(dirs) {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec|d)\.ts$/.test(entry.name)) {
        newest = Math.max(newest, fs.statSync(full).mtimeMs);
      }
    }
  };
  for (const d of dirs) if (fs.existsSync(path.join(repoRoot, d))) walk(path.join(repoRoot, d));
  return newest;
}

function buildIsStale() {
  const entries = APPS.map((app) => path.join(repoRoot, 'dist', 'apps', app, 'src', 'main.js'));
  if (entries.some((e) => !fs.existsSync(e))) return true;
  const oldestBuild = Math.min(...entries.map((e) => fs.statSync(e).mtimeMs));
  return newestSource(['apps', 'libs', 'tools']) > oldestBuild;
}

/** bench/src → dist/bench/src with the repo's swc options (path aliases become relative requires). */
function compileBench() {
  const require = createRequire(import.meta.url);
  const { swcOptions } = require('../tools/build/swc-config.js');
  const options = swcOptions();
  options.exclude = ['\\.spec\\.ts$', '\\.d\\.ts$'];
  const configFile = path.join(repoRoot, '.cache', 'swcrc.bench.json');
  fs.mkdirSync(path.dirname(configFile), { recursive: true });
  fs.writeFileSync(configFile, JSON.stringify(options, null, 2));
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(repoRoot, 'node_modules', '.bin', 'swc'),
      ['bench/src', '-d', 'dist', '--config-file', configFile, '--only', '**/*.ts', '--quiet'],
      { cwd: repoRoot, stdio: 'inherit' },
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`swc bench/src exited ${code}`)),
    );
  });
}

async function createKey(env, owner = 'bench') {
  const cli = path.join(repoRoot, 'dist', 'apps', 'gateway', 'src', 'cli', 'keys.js');
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'create', '--owner', owner], {
    cwd: repoRoot,
    env,
    timeout: 60_000,
  });
  const key = stdout.trim().split('\n').pop()?.trim();
  if (!key) throw new Error('the keys CLI printed no key');
  return key;
}

/**
 * The bench's own key and, for the soaks, one per integrator, made with the keys CLI (which brings
 * the gateway's schema up to date itself: no app needs to run yet). A few at a time: each CLI run is
 * a Node process with a database connection.
 */
async function createKeys(env) {
  const owners = [
    'bench',
    ...(scenarios.some((s) => s.startsWith('soak'))
      ? Array.from(
          { length: settings.soakIntegrators },
          (_, i) => `bench-integrator-${String(i + 1).padStart(2, '0')}`,
        )
      : []),
  ];
  // The first alone: it migrates the gateway's schema, which the others would wait for anyway.
  const keys = [await createKey(env, owners[0])];
  let next = 1;
  const worker = async () => {
    while (next < owners.length) {
      const i = next++;
      keys[i] = await createKey(env, owners[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, owners.length - 1) }, worker));
  return { apiKey: keys[0], integratorKeys: keys.slice(1) };
}

async function startInfrastructure() {
  const kafkaPromise = (async () => {
    const port = await freePortRun(28092, 2);
    const kafka = await startKafka({ port, dataDir: path.join(runDir, 'kafka'), useEnv: false, heapMb: 512 });
    started.push({ name: 'kafka', stop: kafka.stop });
    if (kafka.pid) measuredProcesses.push({ name: 'kafka broker', pid: kafka.pid });
    await ensureKafkaTopics(kafka.brokers);
    say('kafka', `fresh broker at ${kafka.brokers}, topics created`);
    return kafka.brokers;
  })();
  const databasePromise = (async () => {
    // As npm start finds it (tools/stack/lib.mjs providePostgres), an embedded server with its data in the run dir.
    const postgres = await providePostgres({
      dataDir: path.join(runDir, 'postgres'),
      logFile: path.join(logDir, 'postgres.log'),
      port: 35432,
    });
    if (postgres.embedded) started.push({ name: 'postgres', stop: postgres.stop, killNow: postgres.stopNow });
    const url = new URL(postgres.url);
    url.pathname = `/swapgw_bench_${crypto.randomBytes(4).toString('hex')}`;
    await ensureDatabase(url.toString());
    started.push({ name: 'database', stop: () => dropDatabase(url.toString()) });
    say('postgres', `fresh database ${url.pathname.slice(1)}`);
    return url.toString();
  })();
  // The keys while the broker and the devnet start: none of them waits on an app then.
  const keysPromise = databasePromise.then(async (url) => {
    const keys = await createKeys({ ...process.env, DATABASE_URL: url });
    say('keys', `${1 + keys.integratorKeys.length} API keys made`);
    return keys;
  });
  const devnetPromise = (async () => {
    const manifest = path.join(runDir, 'devnet', 'manifest.json');
    const portA = await freePortRun(28545, 2);
    const devnet = await startDevnet({
      manifest,
      portA,
      portB: portA + 1,
      logFile: path.join(logDir, 'devnet.log'),
      echo,
    });
    if (!devnet) throw new Error('the devnet is not built (dist/libs/devnet)');
    started.push({ name: 'devnet', stop: () => devnet.stop(), killNow: () => devnet.killNow() });
    // The chains stand in for the RPC providers of production: measured, kept out of the service total.
    measuredProcesses.push({ name: 'devnet (anvil)', pid: devnet.pid, outsideServices: true });
    say('devnet', `chains on ports ${portA}, ${portA + 1}`);
    return manifest;
  })();
  const settled = await Promise.allSettled([kafkaPromise, databasePromise, devnetPromise, keysPromise]);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const [brokers, databaseUrl, manifest, keys] = settled.map((r) => r.value);
  return { infra: { KAFKA_BROKERS: brokers, DATABASE_URL: databaseUrl, DEVNET_MANIFEST: manifest }, keys };
}

async function startApps(infra) {
  const base = {
    ...process.env,
    ...infra,
    LOG_LEVEL: settings.logLevel,
    INSTANCE_ID_PREFIX: `bench-${crypto.randomBytes(3).toString('hex')}`,
    // The overhead scenario sends thousands of requests per second with one key: measure the
    // limiter's bookkeeping, not its 429s.
    RATE_LIMIT_REQUESTS: '1000000000',
  };
  const services = APPS.filter((a) => a !== 'gateway');
  const healthBase = await freePortRun(28101, services.length);
  // Sponsored gas, as `npm start` runs it: every family's sponsor keys of the devnet.
  const sponsorKeys = sponsorKeysEnv(sponsorKeysOf(infra.DEVNET_MANIFEST));
  // Also in `base`, which the scenarios' process gets: the scaled soak's extra signer-surface
  // (libs/testing startApp) inherits it. appEnv keeps the keys from every other app.
  for (const [variable, keys] of Object.entries(sponsorKeys)) base[variable] ??= keys;
  const results = await Promise.allSettled(
    services.map((app, i) =>
      startAppProcess(app, appEnv(app, base, { healthPort: healthBase + i, sponsorKeys }), {
        logFile: path.join(logDir, `${app}.log`),
        echo,
        nodeArgs,
      }),
    ),
  );
  for (const [i, r] of results.entries()) {
    if (r.status === 'fulfilled') {
      const proc = r.value;
      started.push({ name: services[i], stop: () => proc.stop(), killNow: () => proc.killNow() });
      measuredProcesses.push({ name: services[i], pid: proc.pid });
    }
  }
  // Every app's Prometheus metrics: the Kafka services serve GET /metrics on their HEALTH_PORT (the
  // health server of libs/messaging), the gateways on a METRICS_PORT of their own (below).
  const metricsTargets = services.map((app, i) => ({
    app,
    url: `http://127.0.0.1:${healthBase + i}/metrics`,
  }));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  // The gateway as configured (catalog answers cached for CATALOG_CACHE_TTL_MS) and, for
  // gateway-overhead only, a second one with the catalog cache off, so GET /chains is measured with
  // and without the request-reply behind it. Not started for other scenarios: it is no part of the
  // stack (it joins the gateway's consumer groups and polls like one: CPU in every figure).
  const gateways = [
    { name: 'gateway', env: {} },
    ...(scenarios.includes('gateway-overhead')
      ? [
          {
            name: 'gateway-uncached',
            env: { CATALOG_CACHE_TTL_MS: '0', INSTANCE_ID: `${base.INSTANCE_ID_PREFIX}-uncached` },
          },
        ]
      : []),
  ];
  // A cold start (soak-cold first): the uncached gateway (if any) first, then the measured one is
  // only spawned; the scenarios start with it and send the cold burst at its first ok health.
  let coldGateway;
  for (const g of coldStart ? [...gateways.slice(1), gateways[0]] : gateways) {
    // Each gateway's ports are found free right before it starts (the gateway before it is bound by
    // then): a port found long before, while other apps start, may be taken by another run meanwhile.
    // Its GET /metrics is on a port of its own (METRICS_PORT), apart from the API.
    g.port = await freePortRun(28300);
    g.metricsPort = await freePortRun(28400);
    metricsTargets.push({ app: g.name, url: `http://127.0.0.1:${g.metricsPort}/metrics` });
    const env = {
      ...appEnv('gateway', base, { gatewayPort: g.port }),
      METRICS_PORT: String(g.metricsPort),
      ...g.env,
    };
    const logFile = path.join(logDir, `${g.name}.log`);
    if (coldStart && g === gateways[0]) {
      coldGateway = spawnGateway(g.name, env, logFile);
      continue;
    }
    const proc = await startAppProcess('gateway', env, { logFile, echo, nodeArgs });
    started.push({ name: g.name, stop: () => proc.stop(), killNow: () => proc.killNow() });
    measuredProcesses.push({ name: g.name, pid: proc.pid });
  }
  say(
    'apps',
    coldGateway
      ? 'four services ready; the gateway starting (soak-cold sends at its first ok health)'
      : `five apps ready${gateways.length > 1 ? ' (and a second gateway with the catalog cache off)' : ''}`,
  );
  const urlOf = (port) => `http://127.0.0.1:${port}/api/v1`;
  return {
    base,
    gatewayUrl: urlOf(gateways[0].port),
    gatewayMetricsUrl: `http://127.0.0.1:${gateways[0].metricsPort}/metrics`,
    uncachedGatewayUrl: gateways[1] ? urlOf(gateways[1].port) : undefined,
    metricsTargets,
    coldGateway,
  };
}

/**
 * The gateway of a cold start, spawned as startAppProcess does but without waiting: `ready` settles
 * when its health answers 200 (or rejects with its log tail), while the scenarios already poll it.
 */
function spawnGateway(name, env, logFile) {
  const proc = new ManagedProcess(
    name,
    process.execPath,
    ['--enable-source-maps', ...nodeArgs, appEntry('gateway')],
    {
      env,
      logFile,
      echo,
    },
  );
  const spawnedAtMs = Date.now();
  started.push({ name, stop: () => proc.stop(), killNow: () => proc.killNow() });
  measuredProcesses.push({ name, pid: proc.pid });
  const url = healthUrlOf('gateway', env);
  const timeoutMs = 120_000;
  const ready = pollUntil(() => httpOk(url), {
    timeoutMs,
    message: () => `${name} not ready at ${url} within ${timeoutMs} ms:\n${proc.tail()}`,
    abortIf: () =>
      proc.running() ? undefined : `${name} exited during start-up (log ${logFile}):\n${proc.tail()}`,
  });
  return { spawnedAtMs, ready };
}

/** The scenarios' process: `exit` resolves with its exit code; `stop` ends it early. */
function runScenarios(env) {
  const child = spawn(
    process.execPath,
    // With --cpu-prof, the load client writes its profile there too (name: its pid, as the apps').
    [
      '--enable-source-maps',
      ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : []),
      path.join(repoRoot, 'dist', 'bench', 'src', 'bench-main.js'),
    ],
    {
      cwd: repoRoot,
      env,
      stdio: 'inherit',
    },
  );
  const stop = async () => child.exitCode === null && child.signalCode === null && child.kill('SIGTERM');
  started.push({ name: 'scenarios', stop, killNow: () => child.kill('SIGKILL') });
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))),
  );
  return { exit, stop };
}

async function main() {
  const t0 = Date.now();
  const build = !flag('skip-build') && buildIsStale();
  await bootstrap({ build });
  await compileBench();
  say('bench', `${build ? 'built, ' : ''}bench compiled; starting infrastructure in ${runDir}`);
  const { infra, keys } = await startInfrastructure();
  const { apiKey, integratorKeys } = keys;
  const { base, gatewayUrl, gatewayMetricsUrl, uncachedGatewayUrl, metricsTargets, coldGateway } =
    await startApps(infra);
  say(
    'bench',
    `stack ${coldGateway ? 'up but the gateway' : 'up'} in ${((Date.now() - t0) / 1000).toFixed(0)} s; running ${scenarios.join(', ')}`,
  );
  const scenariosRun = runScenarios({
    ...base,
    BENCH_SETTINGS: JSON.stringify(settings),
    BENCH_GATEWAY_URL: gatewayUrl,
    BENCH_GATEWAY_METRICS_URL: gatewayMetricsUrl,
    ...(uncachedGatewayUrl ? { BENCH_UNCACHED_GATEWAY_URL: uncachedGatewayUrl } : {}),
    BENCH_API_KEY: apiKey,
    BENCH_INTEGRATOR_KEYS: integratorKeys.join(','),
    BENCH_PROCESSES: JSON.stringify(measuredProcesses),
    BENCH_METRICS_TARGETS: JSON.stringify(metricsTargets),
    ...(coldGateway ? { BENCH_GATEWAY_SPAWNED_AT_MS: String(coldGateway.spawnedAtMs) } : {}),
    BENCH_LOG_DIR: logDir,
    // libs/testing's startApp (soak-scaled's extra instances) writes its logs under <TEST_RUN_DIR>/logs.
    TEST_RUN_DIR: runDir,
    BENCH_RESULTS_DIR: path.join(repoRoot, 'bench', 'results'),
  });
  // The cold gateway failing to start ends the run (the cold soak would only wait for its health).
  let gatewayFailed = false;
  coldGateway?.ready.then(
    () =>
      say(
        'apps',
        `gateway ready ${((Date.now() - coldGateway.spawnedAtMs) / 1000).toFixed(1)} s after its spawn`,
      ),
    (error) => {
      if (stopping) return; // stopped with the rest, not a failed start
      gatewayFailed = true;
      fail('gateway', error.message);
      void scenariosRun.stop();
    },
  );
  const code = await scenariosRun.exit;
  if (gatewayFailed) throw new Error('the gateway did not start');
  say('bench', `done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return code;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  fail('bench', error.stack ?? error.message);
  const tails = fs.existsSync(logDir) ? fs.readdirSync(logDir) : [];
  if (tails.length > 0) fail('bench', `app logs in ${logDir}`);
} finally {
  await stopAll();
  if (exitCode === 0 && !keepLogs) fs.rmSync(runDir, { recursive: true, force: true });
  else console.log(`logs: ${runDir}`);
}
process.exit(exitCode);
