import { randomUUID } from 'node:crypto';
import { api, ApiClient } from '@swapgw/testing';
import { elapsedMs, LatencySummary, summarize } from '../support/stats';

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
