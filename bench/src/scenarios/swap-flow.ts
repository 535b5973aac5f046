import { randomUUID } from 'node:crypto';
import { api, ApiClient, ledgerAnomalies, readSwapLedger, SwapLedgerRow } from '@swapgw/testing';
import { elapsedMs, LatencySummary, mapLimit, round, summarize } from '../support/stats';

/** Same-chain devnet swap used by every swap scenario (a Uniswap V2 pool seeded by the devnet). */
export const BENCH_QUOTE = {
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: 'USDC',
  tokenOut: 'DAI',
  amount: '1',
} as const;

export interface SwapFlowContext {
  gatewayUrl: string;
  apiKey: string;
  /** A funded devnet account: builds check its balance, nothing is signed or broadcast. */
  userAddress: string;
}

export interface QuoteLatencyResult {
  scenario: 'quote-latency';
  request: typeof BENCH_QUOTE;
  latencyMs: LatencySummary;
  statuses: Record<string, number>;
}

export interface SyncBuildLatencyResult {
  scenario: 'sync-build-latency';
  waitForTxRequestMs: number;
  /** POST /swap/build until its answer, every build counted (sync and async). */
  latencyMs: LatencySummary;
  /** 200 = payload in the answer (sync), 202 = wait ran out (async). */
  statuses: Record<string, number>;
}

export interface SoakResult {
  scenario: 'soak';
  swaps: number;
  concurrency: number;
  pollIntervalMs: number;
  wallSeconds: number;
  /** Swaps that went quote → build → polled until ready, per second of wall time. */
  swapsPerSecond: number;
  /** From POST /swap/build to the first 200 of GET /swap/{id}/signing. */
  buildToReadyMs: LatencySummary;
  buildStatuses: Record<string, number>;
  ready: number;
  distinctSwapIds: number;
  /** Swaps whose rows are not exactly one each (see SwapLedgerRow); empty when nothing was lost or duplicated. */
  anomalies: SwapLedgerRow[];
  failures: string[];
  verdict: 'none lost, none duplicated' | 'FAILED: see failures and anomalies';
}

function countStatus(statuses: Record<string, number>, status: number): void {
  statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
}

async function quote(client: ApiClient): Promise<{ quoteId: string; routeId: string }> {
  const res = await client.post('/quote', BENCH_QUOTE);
  if (res.status !== 200 || !res.body.data?.routes?.length)
    throw new Error(`POST /quote answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { quoteId: res.body.data.quoteId, routeId: res.body.data.routes[0].routeId };
}

/** POST /quote one at a time: the latency a client sees for a same-chain quote on the devnet. */
export async function quoteLatency(context: SwapFlowContext, count: number): Promise<QuoteLatencyResult> {
  const client = api(context.gatewayUrl, context.apiKey);
  await quote(client); // warm-up
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  for (let n = 0; n < count; n++) {
    const start = process.hrtime.bigint();
    const res = await client.post('/quote', BENCH_QUOTE);
    samples.push(elapsedMs(start));
    countStatus(statuses, res.status);
  }
  return { scenario: 'quote-latency', request: BENCH_QUOTE, latencyMs: summarize(samples), statuses };
}

/** POST /swap/build with a bounded wait, one at a time, each on a fresh quote (not timed). */
export async function syncBuildLatency(
  context: SwapFlowContext,
  count: number,
  waitForTxRequestMs: number,
): Promise<SyncBuildLatencyResult> {
  const client = api(context.gatewayUrl, context.apiKey);
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  for (let n = 0; n < count; n++) {
    const { quoteId, routeId } = await quote(client);
    const start = process.hrtime.bigint();
    const res = await client.post(
      '/swap/build',
      { quoteId, routeId, userAddress: context.userAddress, waitForTxRequestMs },
      { idempotencyKey: `bench-sync-${randomUUID()}`, timeoutMs: waitForTxRequestMs + 30_000 },
    );
    samples.push(elapsedMs(start));
    countStatus(statuses, res.status);
  }
  return { scenario: 'sync-build-latency', waitForTxRequestMs, latencyMs: summarize(samples), statuses };
}

/**
 * `swaps` swaps at once, each quote → async build (waitForTxRequestMs 0) → poll until ready; then
 * the tables are counted: every swap exactly one view, one planner row, one step-1 prepare, one
 * step-1 ready event and one step-1 signing request.
 */
export async function soak(
  context: SwapFlowContext & { databaseUrl: string },
  swaps: number,
  concurrency: number,
  pollIntervalMs: number,
  readyTimeoutMs: number,
): Promise<SoakResult> {
  const client = api(context.gatewayUrl, context.apiKey);
  const buildStatuses: Record<string, number> = {};
  const failures: string[] = [];
  const readyTimes: number[] = [];
  const swapIds: string[] = [];
  const start = process.hrtime.bigint();
  await mapLimit(
    Array.from({ length: swaps }, (_, n) => n),
    concurrency,
    async (n) => {
      try {
        const { quoteId, routeId } = await quote(client);
        const buildStart = process.hrtime.bigint();
        const build = await client.post(
          '/swap/build',
          { quoteId, routeId, userAddress: context.userAddress, waitForTxRequestMs: 0 },
          { idempotencyKey: `bench-soak-${n}-${randomUUID()}` },
        );
        countStatus(buildStatuses, build.status);
        if (build.status !== 200 && build.status !== 202)
          throw new Error(`build answered ${build.status}: ${JSON.stringify(build.body)}`);
        const swapId = build.body.data.swapId as string;
        swapIds.push(swapId);
        const deadline = Date.now() + readyTimeoutMs;
        for (;;) {
          const poll = await client.get(`/swap/${swapId}/signing`);
          if (poll.status === 200) break;
          if (poll.status !== 202)
            throw new Error(
              `swap ${swapId}: GET signing answered ${poll.status}: ${JSON.stringify(poll.body)}`,
            );
          if (Date.now() > deadline) throw new Error(`swap ${swapId} not ready within ${readyTimeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
        }
        readyTimes.push(elapsedMs(buildStart));
      } catch (error) {
        failures.push((error as Error).message);
      }
    },
  );
  const wallSeconds = elapsedMs(start) / 1000;
  const ledger = swapIds.length > 0 ? await readSwapLedger(context.databaseUrl, swapIds) : [];
  const anomalies = ledgerAnomalies(ledger);
  const distinct = new Set(swapIds).size;
  const clean =
    failures.length === 0 && anomalies.length === 0 && distinct === swaps && readyTimes.length === swaps;
  return {
    scenario: 'soak',
    swaps,
    concurrency,
    pollIntervalMs,
    wallSeconds: round(wallSeconds),
    swapsPerSecond: round(readyTimes.length / wallSeconds),
    buildToReadyMs: summarize(readyTimes),
    buildStatuses,
    ready: readyTimes.length,
    distinctSwapIds: distinct,
    anomalies,
    failures: failures.slice(0, 20),
    verdict: clean ? 'none lost, none duplicated' : 'FAILED: see failures and anomalies',
  };
}
