// Does a flood of health calls slow swaps? The same burst of swaps (quote → async build → poll until
// the signing payload is ready) runs without and with a closed-loop flood of GET /api/v1/health on
// the same gateway, alternating (baseline, flood, baseline, flood …: the machine drifts between
// runs), and the throughput with the flood is reported as a ratio of the one without it.
import { api } from '@swapgw/testing';
import { SoakPairMode, SwapPair } from '../support/soak-pairs';
import { elapsedMs, LatencySummary, mapLimit, ratio, round, summarize } from '../support/stats';
import { BurstRecord, newBurstRecord, oneSwap, pairOf, SoakOptions } from './soak';

export interface HealthFloodOptions extends Pick<
  SoakOptions,
  'gasPayment' | 'readyTimeoutMs' | 'pollIntervalMs' | 'pollWaitMs'
> {
  gatewayUrl: string;
  /** The soak's pairs, round-robin (swap n: pair n mod the count). */
  pairs: SwapPair[];
  pairMode: SoakPairMode;
  integratorKeys: string[];
  swaps: number;
  concurrency: number;
  warmupSwaps: number;
  /** Health calls in flight at once during a flood burst, each sent as soon as the last answered. */
  floodConnections: number;
  /** Baseline-then-flood pairs. */
  rounds: number;
}

export interface HealthFloodPhase {
  swaps: number;
  ready: number;
  wallSeconds: number;
  /** Ready swaps per second of wall time, all rounds of the phase together. */
  swapsPerSecond: number;
  swapsPerSecondByRound: number[];
  buildToReadyMs: LatencySummary;
  /** Swaps that did not end ready, by how they ended. */
  failures: Record<string, number>;
  /** Swaps and ready ones per pair, every round of the phase together. */
  byPair: Record<string, { swaps: number; ready: number }>;
}

export interface HealthFloodResult {
  scenario: 'health-flood';
  pairMode: SoakPairMode;
  concurrency: number;
  floodConnections: number;
  rounds: number;
  baseline: HealthFloodPhase;
  flood: HealthFloodPhase;
  health: {
    calls: number;
    callsPerSecond: number;
    statuses: Record<string, number>;
    latencyMs: LatencySummary;
  };
  /** Swaps/s with the flood over swaps/s without it (1 = the flood costs nothing). */
  throughputRatio: number;
  /** build → ready p99 with the flood over without it. */
  readyP99Ratio: number;
}

const HEALTH_TIMEOUT_MS = 10_000;

/** Closed-loop GET /api/v1/health from `connections` callers, between start() and stop(). */
class HealthFlood {
  private stopped = false;
  private loops: Promise<void>[] = [];
  private startedAt = 0n;
  private activeMs = 0;
  readonly statuses: Record<string, number> = {};
  readonly latencies: number[] = [];

  constructor(
    private readonly url: string,
    private readonly connections: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.startedAt = process.hrtime.bigint();
    this.loops = Array.from({ length: this.connections }, () => this.loop());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
    this.activeMs += elapsedMs(this.startedAt);
  }

  /** Seconds the flood ran, all bursts together. */
  get seconds(): number {
    return this.activeMs / 1000;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const t0 = process.hrtime.bigint();
      let status: string;
      try {
        const res = await fetch(this.url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
        await res.arrayBuffer();
        status = String(res.status);
      } catch (error) {
        status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      }
      this.latencies.push(elapsedMs(t0));
      this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    }
  }
}

interface Burst {
  swaps: number;
  record: BurstRecord;
  wallSeconds: number;
  failures: Record<string, number>;
}

async function burst(options: HealthFloodOptions, count: number, concurrency: number): Promise<Burst> {
  const clients = options.integratorKeys.map((key) => api(options.gatewayUrl, key));
  const record = newBurstRecord();
  const failures: Record<string, number> = {};
  const start = process.hrtime.bigint();
  const clock = () => elapsedMs(start);
  await mapLimit(
    Array.from({ length: count }, (_, n) => n),
    concurrency,
    async (n) => {
      const event = await oneSwap(
        clients[n % clients.length],
        n,
        pairOf(options.pairs, n),
        options,
        clock,
        record,
      );
      if (!event.ok) failures[event.outcome] = (failures[event.outcome] ?? 0) + 1;
    },
  );
  return { swaps: count, record, wallSeconds: clock() / 1000, failures };
}

function phaseOf(bursts: Burst[]): HealthFloodPhase {
  const ready = bursts.reduce((n, b) => n + b.record.readyTimes.length, 0);
  const wallSeconds = bursts.reduce((s, b) => s + b.wallSeconds, 0);
  const failures: Record<string, number> = {};
  for (const b of bursts)
    for (const [k, v] of Object.entries(b.failures)) failures[k] = (failures[k] ?? 0) + v;
  const byPair: HealthFloodPhase['byPair'] = {};
  for (const b of bursts)
    for (const [name, r] of Object.entries(b.record.pairs)) {
      const p = (byPair[name] ??= { swaps: 0, ready: 0 });
      p.swaps += r.swaps;
      p.ready += r.readyTimes.length;
    }
  return {
    swaps: bursts.reduce((n, b) => n + b.swaps, 0),
    ready,
    wallSeconds: round(wallSeconds),
    swapsPerSecond: round(ready / wallSeconds, 3),
    swapsPerSecondByRound: bursts.map((b) => round(b.record.readyTimes.length / b.wallSeconds, 3)),
    buildToReadyMs: summarize(bursts.flatMap((b) => b.record.readyTimes)),
    failures,
    byPair,
  };
}

export async function healthFlood(options: HealthFloodOptions): Promise<HealthFloodResult> {
  if (options.warmupSwaps > 0)
    await burst(options, options.warmupSwaps, Math.min(options.warmupSwaps, options.concurrency));
  const flood = new HealthFlood(`${options.gatewayUrl.replace(/\/+$/, '')}/health`, options.floodConnections);
  const baselines: Burst[] = [];
  const flooded: Burst[] = [];
  for (let round = 0; round < options.rounds; round++) {
    baselines.push(await burst(options, options.swaps, options.concurrency));
    flood.start();
    try {
      flooded.push(await burst(options, options.swaps, options.concurrency));
    } finally {
      await flood.stop();
    }
  }
  const baseline = phaseOf(baselines);
  const withFlood = phaseOf(flooded);
  if (baseline.ready === 0 || withFlood.ready === 0) {
    const samples = [...baselines, ...flooded].flatMap((b) => b.record.failureSamples);
    throw new Error(`no swap was ready in a phase, nothing to compare: ${samples.slice(0, 3).join('; ')}`);
  }
  const calls = flood.latencies.length;
  return {
    scenario: 'health-flood',
    pairMode: options.pairMode,
    concurrency: options.concurrency,
    floodConnections: options.floodConnections,
    rounds: options.rounds,
    baseline,
    flood: withFlood,
    health: {
      calls,
      callsPerSecond: round(calls / flood.seconds, 1),
      statuses: flood.statuses,
      latencyMs: summarize(flood.latencies),
    },
    throughputRatio: ratio(withFlood.swapsPerSecond, baseline.swapsPerSecond),
    readyP99Ratio: ratio(withFlood.buildToReadyMs.p99, baseline.buildToReadyMs.p99),
  };
}
