import 'reflect-metadata';
// The scenario runner of `npm run bench`. bench/run.mjs starts the infrastructure and the five
// apps, then runs this (compiled to dist/bench/src/bench-main.js) with their addresses in the
// environment; it measures, writes bench/results/<timestamp>.json and .md and prints the markdown.
import fs from 'node:fs';
import path from 'node:path';
import { gatewayOverhead } from './scenarios/gateway-overhead';
import { healthFlood } from './scenarios/health-flood';
import { kafkaRequestReply } from './scenarios/kafka-request-reply';
import { soak, SoakOptions, SoakResult } from './scenarios/soak';
import { soakCold } from './scenarios/soak-cold';
import { killScaledInstances, soakScaled } from './scenarios/soak-scaled';
import { BENCH_QUOTE, quoteLatency, syncBuildLatency } from './scenarios/swap-flow';
import { describeMachine } from './support/machine';
import { postgresBackendPids } from './support/postgres-backends';
import { ProcessGroup } from './support/process-cpu';
import { BenchReport, ScenarioResult, toMarkdown } from './support/report';
import { MetricsTarget } from './support/rpc-requests';
import { BenchManifest, benchUserAddress, SoakPairMode, soakPairsOf } from './support/soak-pairs';

export const SCENARIOS = [
  'soak-cold',
  'gateway-overhead',
  'kafka-request-reply',
  'quote-latency',
  'sync-build-latency',
  'soak',
  'soak-scaled',
  'health-flood',
] as const;
type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchSettings {
  scenarios: ScenarioName[];
  connections: number;
  durationSeconds: number;
  rrRequests: number;
  rrConcurrency: number;
  latencySamples: number;
  buildWaitMs: number;
  soakSwaps: number;
  soakConcurrency: number;
  soakWarmupSwaps: number;
  soakGasPayment: 'sponsored' | 'user';
  soakPollMs: number;
  soakPollWaitMs: number;
  soakReadyTimeoutMs: number;
  soakIntegrators: number;
  /** `mix`: the soaks' swaps round-robin over several pairs; `single`: BENCH_QUOTE only. */
  soakPairs: SoakPairMode;
  probeIntervalMs: number;
  probeAfterSeconds: number;
  healthFloodConnections: number;
  healthFloodRounds: number;
  logLevel: string;
}

/** A process bench/run.mjs started, as it passes them in BENCH_PROCESSES. */
interface StartedProcess {
  name: string;
  pid: number;
  /** Not part of the system under test (the devnet stands in for chain RPC). */
  outsideServices?: boolean;
}

/**
 * The run's processes for the CPU figures: what run.mjs started (with their children: the devnet
 * runs anvil) and the PostgreSQL backends of the bench database at the time of asking.
 */
function processGroupsOf(started: StartedProcess[], databaseUrl: string): () => Promise<ProcessGroup[]> {
  return async () => [
    ...started.map((p) => ({
      name: p.name,
      pids: [p.pid],
      withDescendants: true,
      excludeFromServiceTotal: p.outsideServices,
    })),
    {
      name: 'postgres backends',
      pids: await postgresBackendPids(databaseUrl).catch(() => []),
      withDescendants: false,
    },
  ];
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (bench/run.mjs sets it)`);
  return value;
}

async function main(): Promise<number> {
  const settings = JSON.parse(required('BENCH_SETTINGS')) as BenchSettings;
  const gatewayUrl = required('BENCH_GATEWAY_URL');
  const apiKey = required('BENCH_API_KEY');
  const databaseUrl = required('DATABASE_URL');
  const brokers = required('KAFKA_BROKERS').split(',');
  const manifest = JSON.parse(fs.readFileSync(required('DEVNET_MANIFEST'), 'utf8')) as BenchManifest;
  const userAddress = benchUserAddress(manifest);
  const pairs = soakPairsOf(settings.soakPairs, manifest, BENCH_QUOTE);
  // Every app's GET /metrics (run.mjs): the soaks read the RPC counter there.
  const metricsTargets = JSON.parse(process.env.BENCH_METRICS_TARGETS ?? '[]') as MetricsTarget[];
  if (settings.scenarios.indexOf('soak-cold') > 0)
    throw new Error('soak-cold runs on a cold stack: it can only be the first scenario of a run');
  const resultsDir = required('BENCH_RESULTS_DIR');
  const swapContext = { gatewayUrl, apiKey, userAddress };
  // run.mjs makes integrators' keys for the soaks only (empty otherwise): the run's key then.
  const integratorKeys = (process.env.BENCH_INTEGRATOR_KEYS || apiKey).split(',').filter(Boolean);
  const started = JSON.parse(process.env.BENCH_PROCESSES ?? '[]') as StartedProcess[];
  const logDir = process.env.BENCH_LOG_DIR;
  const soakOptions: SoakOptions = {
    gatewayUrl,
    gatewayMetricsUrl: process.env.BENCH_GATEWAY_METRICS_URL,
    integratorKeys,
    proberKey: apiKey,
    pairs,
    metricsTargets,
    databaseUrl,
    swaps: settings.soakSwaps,
    concurrency: settings.soakConcurrency,
    warmupSwaps: settings.soakWarmupSwaps,
    gasPayment: settings.soakGasPayment,
    pollIntervalMs: settings.soakPollMs,
    pollWaitMs: settings.soakPollWaitMs,
    readyTimeoutMs: settings.soakReadyTimeoutMs,
    probeIntervalMs: settings.probeIntervalMs,
    probeAfterMs: settings.probeAfterSeconds * 1000,
    processGroups: processGroupsOf(started, databaseUrl),
    gatewayLogFile: logDir ? path.join(logDir, 'gateway.log') : undefined,
  };

  const startedAt = new Date();
  const machine = describeMachine();
  const results: ScenarioResult[] = [];
  const errors: BenchReport['errors'] = [];
  const runners: Record<ScenarioName, () => Promise<ScenarioResult>> = {
    'soak-cold': () =>
      soakCold(soakOptions, {
        healthUrl: `${gatewayUrl.replace(/\/+$/, '')}/health`,
        gatewaySpawnedAtMs: process.env.BENCH_GATEWAY_SPAWNED_AT_MS
          ? Number(process.env.BENCH_GATEWAY_SPAWNED_AT_MS)
          : undefined,
        timeoutMs: 180_000,
      }),
    'gateway-overhead': () =>
      gatewayOverhead({
        gatewayUrl,
        // Started by run.mjs for this scenario only.
        uncachedGatewayUrl: required('BENCH_UNCACHED_GATEWAY_URL'),
        apiKey,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        bareServerScript: path.join(__dirname, 'support', 'bare-server.js'),
        gatewayPid: started.find((p) => p.name === 'gateway')?.pid,
        uncachedGatewayPid: started.find((p) => p.name === 'gateway-uncached')?.pid,
      }),
    'kafka-request-reply': () =>
      kafkaRequestReply({ brokers, requests: settings.rrRequests, concurrency: settings.rrConcurrency }),
    'quote-latency': () => quoteLatency(swapContext, settings.latencySamples),
    'sync-build-latency': () => syncBuildLatency(swapContext, settings.latencySamples, settings.buildWaitMs),
    soak: () => soak(soakOptions),
    'soak-scaled': () =>
      soakScaled(
        {
          ...soakOptions,
          brokers,
          instancePrefix: process.env.INSTANCE_ID_PREFIX ?? 'bench',
          logLevel: settings.logLevel,
        },
        results.find((r): r is SoakResult => r.scenario === 'soak'),
      ),
    'health-flood': () =>
      healthFlood({
        gatewayUrl,
        integratorKeys,
        pairs: pairs.pairs,
        pairMode: pairs.mode,
        gasPayment: settings.soakGasPayment,
        pollIntervalMs: settings.soakPollMs,
        pollWaitMs: settings.soakPollWaitMs,
        readyTimeoutMs: settings.soakReadyTimeoutMs,
        swaps: settings.soakSwaps,
        concurrency: settings.soakConcurrency,
        warmupSwaps: settings.soakWarmupSwaps,
        floodConnections: settings.healthFloodConnections,
        rounds: settings.healthFloodRounds,
      }),
  };
  for (const name of settings.scenarios) {
    const t0 = Date.now();
    process.stderr.write(`[bench] ${name}…\n`);
    try {
      results.push(await runners[name]());
      process.stderr.write(`[bench] ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    } catch (error) {
      errors.push({ scenario: name, message: (error as Error).message.split('\n')[0] });
      process.stderr.write(`[bench] ${name} failed: ${(error as Error).stack}\n`);
    }
  }

  const report: BenchReport = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine,
    settings: { ...settings },
    results,
    errors,
  };
  fs.mkdirSync(resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const markdown = toMarkdown(report);
  fs.writeFileSync(path.join(resultsDir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(resultsDir, `${stamp}.md`), `${markdown}\n`);
  process.stdout.write(`${markdown}\n\nResults: ${path.join(resultsDir, `${stamp}.json`)} and .md\n`);
  const soakFailed = results.some(
    (r) =>
      (r.scenario === 'soak' || r.scenario === 'soak-cold' || r.scenario === 'soak-scaled') &&
      r.verdict !== 'none lost, none duplicated',
  );
  return errors.length > 0 || soakFailed ? 1 : 0;
}

// run.mjs stops this process with SIGTERM (Ctrl-C, failure): instances started here go with it.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    killScaledInstances();
    process.exit(130);
  });
}
process.on('exit', killScaledInstances);

// Explicit exit: Kafka clients and sockets of finished scenarios must not keep the run alive.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[bench] ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
