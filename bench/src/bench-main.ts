// The scenario runner of `npm run bench`. bench/run.mjs starts the infrastructure and the five
// apps, then runs this (compiled to dist/bench/src/bench-main.js) with their addresses in the
// environment; it measures, writes bench/results/<timestamp>.json and .md and prints the markdown.
import fs from 'node:fs';
import path from 'node:path';
import { gatewayOverhead } from './scenarios/gateway-overhead';
import { kafkaRequestReply } from './scenarios/kafka-request-reply';
import { quoteLatency, soak, syncBuildLatency } from './scenarios/swap-flow';
import { describeMachine } from './support/machine';
import { BenchReport, ScenarioResult, toMarkdown } from './support/report';

export const SCENARIOS = [
  'gateway-overhead',
  'kafka-request-reply',
  'quote-latency',
  'sync-build-latency',
  'soak',
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
  soakPollMs: number;
  soakReadyTimeoutMs: number;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (bench/run.mjs sets it)`);
  return value;
}

async function main(): Promise<number> {
  const settings = JSON.parse(required('BENCH_SETTINGS')) as BenchSettings;
  const gatewayUrl = required('BENCH_GATEWAY_URL');
  const uncachedGatewayUrl = required('BENCH_UNCACHED_GATEWAY_URL');
  const apiKey = required('BENCH_API_KEY');
  const databaseUrl = required('DATABASE_URL');
  const brokers = required('KAFKA_BROKERS').split(',');
  const manifest = JSON.parse(fs.readFileSync(required('DEVNET_MANIFEST'), 'utf8')) as {
    accounts: Array<{ index: number; address: string }>;
  };
  const userAddress = manifest.accounts.find((a) => a.index === 9)?.address ?? manifest.accounts[0].address;
  const resultsDir = required('BENCH_RESULTS_DIR');
  const swapContext = { gatewayUrl, apiKey, userAddress };

  const startedAt = new Date();
  const machine = describeMachine();
  const results: ScenarioResult[] = [];
  const errors: BenchReport['errors'] = [];
  const runners: Record<ScenarioName, () => Promise<ScenarioResult>> = {
    'gateway-overhead': () =>
      gatewayOverhead({
        gatewayUrl,
        uncachedGatewayUrl,
        apiKey,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        bareServerScript: path.join(__dirname, 'support', 'bare-server.js'),
      }),
    'kafka-request-reply': () =>
      kafkaRequestReply({ brokers, requests: settings.rrRequests, concurrency: settings.rrConcurrency }),
    'quote-latency': () => quoteLatency(swapContext, settings.latencySamples),
    'sync-build-latency': () => syncBuildLatency(swapContext, settings.latencySamples, settings.buildWaitMs),
    soak: () =>
      soak(
        { ...swapContext, databaseUrl },
        settings.soakSwaps,
        settings.soakConcurrency,
        settings.soakPollMs,
        settings.soakReadyTimeoutMs,
      ),
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
  const soakFailed = results.some((r) => r.scenario === 'soak' && r.verdict !== 'none lost, none duplicated');
  return errors.length > 0 || soakFailed ? 1 : 0;
}

// Explicit exit: Kafka clients and sockets of finished scenarios must not keep the run alive.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[bench] ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
