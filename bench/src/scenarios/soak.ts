// The soak: a burst of swaps at once, spread over several integrators' keys and several pairs (as
// clients spread them: same-chain on either chain, cross-chain, to Solana), with a prober asking
// the cheap questions other integrators keep asking meanwhile. Measured: what was refused, lost or
// done twice, swaps/s to a ready payload, build → ready latency (also per pair), CPU per swap over
// every process of the run, RPC calls per swap per chain, app and method, the machine's busy share,
// probe 5xx during and after the burst, request-reply recycles.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { api, ApiClient, ApiResponse, ledgerAnomalies, readSwapLedger, SwapLedgerRow } from '@swapgw/testing';
import {
  CpuUsage,
  cpuAccountingAvailable,
  cpuUsageBetween,
  ProcessGroup,
  takeCpuSnapshot,
} from '../support/process-cpu';
import {
  AcceptQueueFigures,
  ClientConnectionFigures,
  watchAcceptQueue,
  watchClientConnections,
} from '../support/client-connections';
import { Prober, ProbeResult, ProbeTarget } from '../support/prober';
import { readRecycles, RecycleReading, recyclesBetween } from '../support/request-reply-recycles';
import {
  EventLoopDelayFigures,
  readAnswerHistograms,
  requestRepliesBetween,
  connectionWaitsBetween,
  ServerAnswerFigures,
  serverAnswersBetween,
  watchOwnEventLoop,
} from '../support/server-answers';
import { readServerReady, ServerReadyFigures } from '../support/server-ready';
import {
  MetricsTarget,
  readRpcCounters,
  RpcFigures,
  RpcReading,
  rpcCallsBetween,
} from '../support/rpc-requests';
import { QuoteRequest, SoakPairMode, SoakPairs, SwapPair } from '../support/soak-pairs';
import { elapsedMs, LatencySummary, mapLimit, round, summarize } from '../support/stats';
import { BENCH_QUOTE } from './swap-flow';

export interface SoakOptions {
  gatewayUrl: string;
  /** GET /metrics of the same gateway, on its METRICS_PORT. */
  gatewayMetricsUrl?: string;
  /** One key per integrator; swap n uses key n mod the count for its quote, build and polling. */
  integratorKeys: string[];
  /** The prober's own key, so its requests are nobody's swaps. */
  proberKey: string;
  /** The pairs swap n goes through, round-robin (pair n mod the count), with their builders' addresses. */
  pairs: SoakPairs;
  /** Every app's GET /metrics, read before and after the burst for the RPC calls per swap. */
  metricsTargets: MetricsTarget[];
  databaseUrl: string;
  swaps: number;
  concurrency: number;
  /**
   * Swaps run through the whole path before the burst and not counted (JIT, pools, caches), so that
   * a soak measures a warm stack whichever scenario ran before it; 0 for none.
   */
  warmupSwaps: number;
  /** The builds' gasPayment: sponsored (the default) or user. */
  gasPayment: 'sponsored' | 'user';
  pollIntervalMs: number;
  /** waitForTxRequestMs of the signing polls (0: none, each poll answers at once). */
  pollWaitMs: number;
  readyTimeoutMs: number;
  probeIntervalMs: number;
  /** How long the prober keeps going after the last swap finished. */
  probeAfterMs: number;
  /** The run's processes, asked before and after the burst (PostgreSQL backends come and go). */
  processGroups: () => Promise<ProcessGroup[]>;
  gatewayLogFile?: string;
}

/** Something that runs alongside the burst (soak-scaled: starting more instances). */
export interface BurstCompanion {
  begin(clock: () => number): void;
  /** Its processes, counted in the CPU figures; read when the burst ends. */
  processGroups(): ProcessGroup[];
  /** Its apps' GET /metrics (their RPC calls are counted too); read before and after the burst. */
  metricsTargets?(): MetricsTarget[];
  /** The last reading of an app it stopped during the burst, taken just before it stopped. */
  lastRpcReading?(app: string): RpcReading | undefined;
}

/** What happened to one swap, with times on the soak clock (ms since the burst started). */
export interface SwapEvent {
  /** The pair's name (SwapPair.name). */
  pair: string;
  outcome: string;
  ok: boolean;
  /** When the swap ended (ready or failed). */
  atMs: number;
  /** When the build was answered with a refusal; undefined when it was accepted or never sent. */
  buildRefusedAtMs?: number;
}

/** One pair's share of a soak. */
export interface PairFigures {
  pair: string;
  quote: QuoteRequest;
  swaps: number;
  ready: number;
  /** From POST /swap/build to the first 200 of GET /swap/{id}/signing, this pair's swaps. */
  buildToReadyMs: LatencySummary;
  /** Swaps that did not end ready, by how they ended. */
  failures: Record<string, number>;
}

/** The figures of one soak, single-instance, cold or scaled. */
export interface SoakFigures {
  swaps: number;
  concurrency: number;
  integrators: number;
  /** `mix`: the swaps went round-robin over `pairs`; `single`: one pair. */
  pairMode: SoakPairMode;
  /** Per pair, in round-robin order: swap n went through pair n mod the count. */
  pairs: PairFigures[];
  /** Pairs of the mix left out because the devnet lacks their chain (older commits). */
  pairsSkipped: string[];
  /** Warm-up swaps before the burst, not counted (0 for the cold soak). */
  warmupSwaps: number;
  pollIntervalMs: number;
  pollWaitMs: number;
  readyTimeoutMs: number;
  wallSeconds: number;
  /** Swaps that reached a ready payload, per second of the burst's wall time. */
  swapsPerSecond: number;
  /**
   * The same throughput up to the moment the gateway stored the last payload (its read model's
   * time), without the client's wait for its next poll; undefined when the table could not be read.
   */
  serverReady?: ServerReadyFigures;
  /** From POST /swap/build to the first 200 of GET /swap/{id}/signing. */
  buildToReadyMs: LatencySummary;
  /** POST /quote answers: "200", "<status> <error code>", "timeout", "network …". */
  quoteStatuses: Record<string, number>;
  /** How long the 200 quotes took to come (unanswered ones are in quoteStatuses). */
  quoteAnswerMs: LatencySummary;
  /** How long the accepted builds (200/202, waitForTxRequestMs 0) took to come. */
  buildAnswerMs: LatencySummary;
  /** Accepted builds answered within BUILD_ANSWER_BOUND_MS (issue 44: every build within 5 s). */
  buildsAnsweredWithinBound: number;
  /**
   * The same answers timed by the gateway (its request-duration histogram, read before and after
   * the burst); undefined when its /metrics did not answer. The load client's figures above include
   * its own event-loop delay (loadClientEventLoop): it sends the whole burst from one process.
   */
  serverAnswers?: ServerAnswerFigures[];
  /** The gateway's request-reply calls during the burst (what its answers waited on), by topic, type and outcome. */
  requestReplies?: ServerAnswerFigures[];
  /** The gateway's statements' waits for a pooled database connection during the burst, by lane. */
  connectionWaits?: ServerAnswerFigures[];
  loadClientEventLoop?: EventLoopDelayFigures;
  /** The connections the load client opened during the burst, and how long their TCP connects took. */
  loadClientConnections?: ClientConnectionFigures;
  /** The gateway's accept queue during the burst (connections waiting in the kernel, unseen by its timings). */
  gatewayAcceptQueue?: AcceptQueueFigures;
  /** POST /swap/build answers in the same form; anything but 200 and 202 is a refusal. */
  buildStatuses: Record<string, number>;
  buildsRefused: number;
  /** Builds answered 200 or 202. */
  accepted: number;
  ready: number;
  /** Every swap's end: "ready", "quote refused: …", "build refused: …", "not ready within …", "signing answered …". */
  outcomes: Record<string, number>;
  distinctSwapIds: number;
  /** Accepted swaps of which some row was missing when the tables were read (after the probe tail). */
  lost: number;
  /** Accepted swaps with some row more than once, plus swap ids answered to two builds. */
  duplicated: number;
  /** Swaps whose rows are not exactly one each (first 20; see SwapLedgerRow). */
  anomalies: SwapLedgerRow[];
  anomalyCount: number;
  /** CPU over the burst; undefined without /proc. */
  cpu?: CpuUsage;
  /** cpu.serviceCpuMs and cpu.allCpuMs per ready swap. */
  cpuMsPerSwap?: { services: number; all: number };
  /**
   * JSON-RPC requests the apps sent to chain nodes during the burst (swapgw_rpc_requests_total,
   * before and after it), per ready swap; `available` false on commits without the counter.
   */
  rpc: RpcFigures;
  probes: ProbeResult;
  /** Request-reply client recycles in the gateway during the burst and the probe tail. */
  recycles: RecycleReading;
  /** The first failure message of each outcome, for a look at what went wrong. */
  failureSamples: string[];
  verdict: 'none lost, none duplicated' | 'FAILED: see outcomes and anomalies';
}

export interface SoakResult extends SoakFigures {
  scenario: 'soak';
}

export const PROBE_TARGETS: ProbeTarget[] = [
  { name: 'GET /chains', send: (c, timeoutMs) => c.get('/chains', { timeoutMs }) },
  { name: 'POST /quote', send: (c, timeoutMs) => c.post('/quote', BENCH_QUOTE, { timeoutMs }) },
  { name: 'GET /limit-orders/limits', send: (c, timeoutMs) => c.get('/limit-orders/limits', { timeoutMs }) },
];

/** A probe without an answer within this long counts as "timeout", not as a 5xx. */
const PROBE_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** What a zero-wait build must be answered within, however busy the stack (issue 44). */
export const BUILD_ANSWER_BOUND_MS = 5_000;

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** "503 SERVICE_UNAVAILABLE": the status and the envelope's error code, the way a client tells them apart. */
function answerOf(res: ApiResponse): string {
  const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
  return code ? `${res.status} ${code}` : String(res.status);
}

/** A request that got no answer: the abort of our bounded timeout, or the socket's error. */
function noAnswerOf(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
  return `network ${e.cause?.code ?? e.cause?.message ?? e.message}`;
}

async function send(request: () => Promise<ApiResponse>): Promise<{ res?: ApiResponse; answer: string }> {
  try {
    const res = await request();
    return { res, answer: answerOf(res) };
  } catch (error) {
    return { answer: noAnswerOf(error) };
  }
}

/** One pair's swaps in a burst. */
export interface PairRecord {
  pair: SwapPair;
  swaps: number;
  readyTimes: number[];
  failures: Record<string, number>;
}

export interface BurstRecord {
  /** Per pair name. */
  pairs: Record<string, PairRecord>;
  quoteStatuses: Record<string, number>;
  buildStatuses: Record<string, number>;
  quoteAnswerTimes: number[];
  buildAnswerTimes: number[];
  readyTimes: number[];
  swapIds: string[];
  events: SwapEvent[];
  failureSamples: string[];
  failureKinds: Set<string>;
}

export const newBurstRecord = (): BurstRecord => ({
  pairs: {},
  quoteStatuses: {},
  buildStatuses: {},
  quoteAnswerTimes: [],
  buildAnswerTimes: [],
  readyTimes: [],
  swapIds: [],
  events: [],
  failureSamples: [],
  failureKinds: new Set(),
});

/** The pair of swap n: round-robin over the pairs. */
export const pairOf = (pairs: readonly SwapPair[], n: number): SwapPair => pairs[n % pairs.length];

/** What one swap of a burst runs with. */
interface SwapRun {
  client: ApiClient;
  n: number;
  pair: SwapPair;
  options: Pick<SoakOptions, 'gasPayment' | 'readyTimeoutMs' | 'pollIntervalMs' | 'pollWaitMs'>;
  clock: () => number;
  record: BurstRecord;
}

/** One swap as a client runs it: quote, async build, then GET /swap/{id}/signing until 200. */
export async function oneSwap(
  client: ApiClient,
  n: number,
  pair: SwapPair,
  options: SwapRun['options'],
  clock: () => number,
  record: BurstRecord,
): Promise<SwapEvent> {
  const ofPair = (record.pairs[pair.name] ??= { pair, swaps: 0, readyTimes: [], failures: {} });
  ofPair.swaps++;
  const event = await swapThrough({ client, n, pair, options, clock, record }, ofPair);
  if (!event.ok) count(ofPair.failures, event.outcome);
  return event;
}

async function swapThrough(run: SwapRun, ofPair: PairRecord): Promise<SwapEvent> {
  const { client, n, pair, options, clock, record } = run;
  const fail = (outcome: string, detail: string, extra: Partial<SwapEvent> = {}): SwapEvent => {
    // One sample per kind of failure: a thousand identical timeouts would hide the rarer ones.
    if (record.failureSamples.length < 10 && !record.failureKinds.has(outcome)) {
      record.failureKinds.add(outcome);
      record.failureSamples.push(`swap ${n} (${pair.name}): ${detail}`);
    }
    return { pair: pair.name, outcome, ok: false, atMs: clock(), ...extra };
  };
  const quoteStart = process.hrtime.bigint();
  const quote = await send(() => client.post('/quote', pair.quote, { timeoutMs: REQUEST_TIMEOUT_MS }));
  count(record.quoteStatuses, quote.answer);
  if (quote.res?.status === 200) record.quoteAnswerTimes.push(elapsedMs(quoteStart));
  const route = quote.res?.body?.data;
  if (quote.res?.status !== 200 || !route?.routes?.length)
    return fail(
      `quote refused: ${quote.answer}`,
      `POST /quote ${quote.answer} ${JSON.stringify(quote.res?.body ?? '')}`,
    );

  const buildStart = process.hrtime.bigint();
  const build = await send(() =>
    client.post(
      '/swap/build',
      {
        quoteId: route.quoteId,
        routeId: route.routes[0].routeId,
        userAddress: pair.userAddress,
        ...(pair.recipient ? { recipient: pair.recipient } : {}),
        gasPayment: options.gasPayment,
        waitForTxRequestMs: 0,
      },
      { idempotencyKey: `bench-soak-${n}-${randomUUID()}`, timeoutMs: REQUEST_TIMEOUT_MS },
    ),
  );
  count(record.buildStatuses, build.answer);
  if (build.res?.status !== 200 && build.res?.status !== 202)
    return fail(
      `build refused: ${build.answer}`,
      `POST /swap/build ${build.answer} ${JSON.stringify(build.res?.body ?? '')}`,
      {
        buildRefusedAtMs: clock(),
      },
    );
  record.buildAnswerTimes.push(elapsedMs(buildStart));
  const swapId = build.res.body.data.swapId as string;
  record.swapIds.push(swapId);

  const deadline = Date.now() + options.readyTimeoutMs;
  // As a client does: a 200 build carries its payload (ready); a 202 says when to poll first.
  if (build.res.status === 202) {
    let waitMs = pollIntervalOf(options, build.res.body);
    // With --soak-poll-wait-ms the poll itself waits for the payload (waitForTxRequestMs), and a 202
    // that took at least its pollAfterMs is followed by the next poll at once.
    const pollPath =
      options.pollWaitMs > 0
        ? `/swap/${swapId}/signing?waitForTxRequestMs=${options.pollWaitMs}`
        : `/swap/${swapId}/signing`;
    for (;;) {
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      const pollStart = process.hrtime.bigint();
      const poll = await send(() =>
        client.get(pollPath, { timeoutMs: REQUEST_TIMEOUT_MS + options.pollWaitMs }),
      );
      if (poll.res?.status === 200) break;
      // 202 = not yet; a poll without an answer is retried like a client would, within the deadline.
      if (poll.res && poll.res.status !== 202)
        return fail(
          `signing answered ${poll.answer}`,
          `GET /swap/${swapId}/signing ${poll.answer} ${JSON.stringify(poll.res.body)}`,
        );
      if (Date.now() > deadline)
        return fail(
          `not ready within ${options.readyTimeoutMs} ms`,
          `swap ${swapId} not ready (last poll: ${poll.answer})`,
        );
      waitMs = Math.max(0, pollIntervalOf(options, poll.res?.body) - elapsedMs(pollStart));
    }
  }
  const readyMs = elapsedMs(buildStart);
  record.readyTimes.push(readyMs);
  ofPair.readyTimes.push(readyMs);
  return { pair: pair.name, outcome: 'ready', ok: true, atMs: clock() };
}

/** Per pair, in the order of `pairs` (the round-robin's). */
export function pairFiguresOf(pairs: readonly SwapPair[], record: BurstRecord): PairFigures[] {
  return pairs.map((pair) => {
    const r = record.pairs[pair.name];
    return {
      pair: pair.name,
      quote: pair.quote,
      swaps: r?.swaps ?? 0,
      ready: r?.readyTimes.length ?? 0,
      buildToReadyMs: summarize(r?.readyTimes ?? []),
      failures: r?.failures ?? {},
    };
  });
}

/** Lost: some row missing; duplicated: some row more than once (per accepted swap id). */
function ledgerVerdicts(ledger: readonly SwapLedgerRow[]): { lost: number; duplicated: number } {
  const counts = (r: SwapLedgerRow) => [
    r.gatewayViews,
    r.plannerSwaps,
    r.step1Prepares,
    r.step1ReadyEvents,
    r.step1SigningRequests,
  ];
  return {
    lost: ledger.filter((r) => counts(r).some((c) => c === 0)).length,
    duplicated: ledger.filter((r) => counts(r).some((c) => c > 1)).length,
  };
}

/**
 * The burst with its prober, CPU accounting and ledger check. `companion` runs alongside the burst
 * (soak-scaled); the events let the caller count errors inside a window of the soak clock.
 */
export async function runSoak(
  options: SoakOptions,
  companion?: BurstCompanion,
): Promise<{
  figures: SoakFigures;
  events: SwapEvent[];
  prober: Prober;
  burstStart: bigint;
  /** How long each reading before the burst took (they run at once): what delays the cold burst. */
  readingsBeforeMs: Record<'recycles' | 'processes' | 'rpc', number>;
}> {
  // Each integrator's backend keeps its own connections (node:http keep-alive, not the global
  // fetch, whose one pool per origin costs the load client more CPU than the gateway at 3,000).
  const agents = options.integratorKeys.map(() => new http.Agent({ keepAlive: true }));
  const clients = options.integratorKeys.map((key, n) => api(options.gatewayUrl, key, { agent: agents[n] }));
  const pairs = options.pairs.pairs;
  if (pairs.length === 0) throw new Error('the soak has no pair to swap');
  if (options.warmupSwaps > 0) {
    const warmup = newBurstRecord();
    const warmupStart = process.hrtime.bigint();
    await mapLimit(
      Array.from({ length: options.warmupSwaps }, (_, n) => n),
      Math.min(options.warmupSwaps, options.concurrency),
      async (n) =>
        void (await oneSwap(
          clients[n % clients.length],
          -1 - n,
          pairOf(pairs, n),
          options,
          () => elapsedMs(warmupStart),
          warmup,
        )),
    );
  }
  const record = newBurstRecord();
  const metricsTargets = () => [...options.metricsTargets, ...(companion?.metricsTargets?.() ?? [])];
  // Read at once: the cold soak sends its first swap right after these.
  const measureCpu = cpuAccountingAvailable();
  const readingsStart = process.hrtime.bigint();
  const timed = async <T>(reading: Promise<T>): Promise<[T, number]> => [
    await reading,
    round(elapsedMs(readingsStart)),
  ];
  const [[recyclesBefore, recyclesMs], [groupsBefore, processesMs], [rpcBefore, rpcMs], answersBefore] =
    await Promise.all([
      timed(readRecycles(options.gatewayMetricsUrl, options.gatewayLogFile)),
      timed(measureCpu ? options.processGroups() : Promise.resolve(undefined)),
      timed(readRpcCounters(metricsTargets())),
      readAnswerHistograms(options.gatewayMetricsUrl),
    ]);
  const cpuBefore = groupsBefore && takeCpuSnapshot(groupsBefore);
  const loadGeneratorBefore = process.cpuUsage();

  const start = process.hrtime.bigint();
  const startEpochMs = Date.now();
  const clock = () => elapsedMs(start);
  const ownEventLoop = watchOwnEventLoop();
  const connections = watchClientConnections(agents);
  const acceptQueue = watchAcceptQueue(options.gatewayUrl);
  const prober = new Prober(
    options.gatewayUrl,
    options.proberKey,
    PROBE_TARGETS,
    options.probeIntervalMs,
    PROBE_TIMEOUT_MS,
    clock,
  );
  prober.start();
  companion?.begin(clock);
  await mapLimit(
    Array.from({ length: options.swaps }, (_, n) => n),
    options.concurrency,
    async (n) => {
      record.events.push(
        await oneSwap(clients[n % clients.length], n, pairOf(pairs, n), options, clock, record),
      );
    },
  );
  const wallSeconds = elapsedMs(start) / 1000;
  const loadGenerator = process.cpuUsage(loadGeneratorBefore);
  const loadClientEventLoop = ownEventLoop.stop();
  const loadClientConnections = connections.stop();
  const gatewayAcceptQueue = await acceptQueue.stop();
  const cpu =
    cpuBefore &&
    cpuUsageBetween(
      cpuBefore,
      takeCpuSnapshot([...(await options.processGroups()), ...(companion?.processGroups() ?? [])]),
      (loadGenerator.user + loadGenerator.system) / 1000,
    );
  // After the CPU snapshot: the apps' CPU rendering /metrics stays out of the burst's figures (the
  // readings before the burst are taken before its snapshot too).
  const [rpcAfter, answersAfter] = await Promise.all([
    readRpcCounters(metricsTargets()),
    readAnswerHistograms(options.gatewayMetricsUrl),
  ]);
  const distinct = [...new Set(record.swapIds)];
  const serverReady = await readServerReady(options.databaseUrl, distinct, startEpochMs);
  const rpc = rpcCallsBetween(rpcBefore, rpcAfter, record.readyTimes.length, (app) =>
    companion?.lastRpcReading?.(app),
  );

  // The tail: do the cheap requests recover once the burst is over?
  prober.burstEnded();
  await new Promise((resolve) => setTimeout(resolve, options.probeAfterMs));
  const probes = await prober.stop();
  const recycles = recyclesBetween(
    recyclesBefore,
    await readRecycles(options.gatewayMetricsUrl, options.gatewayLogFile),
  );

  const ledger = distinct.length > 0 ? await readSwapLedger(options.databaseUrl, distinct) : [];
  const anomalies = ledgerAnomalies(ledger);
  const verdicts = ledgerVerdicts(ledger);
  const duplicated = verdicts.duplicated + (record.swapIds.length - distinct.length);
  const outcomes: Record<string, number> = {};
  for (const e of record.events) count(outcomes, e.outcome);
  const ready = record.readyTimes.length;
  const buildsRefused = Object.entries(record.buildStatuses)
    .filter(([answer]) => answer !== '200' && answer !== '202')
    .reduce((sum, [, n]) => sum + n, 0);
  const clean = ready === options.swaps && anomalies.length === 0 && duplicated === 0;
  const figures: SoakFigures = {
    swaps: options.swaps,
    concurrency: options.concurrency,
    integrators: options.integratorKeys.length,
    pairMode: options.pairs.mode,
    pairs: pairFiguresOf(pairs, record),
    pairsSkipped: options.pairs.skipped,
    warmupSwaps: options.warmupSwaps,
    pollIntervalMs: options.pollIntervalMs,
    pollWaitMs: options.pollWaitMs,
    readyTimeoutMs: options.readyTimeoutMs,
    wallSeconds: round(wallSeconds),
    swapsPerSecond: round(ready / wallSeconds),
    serverReady,
    buildToReadyMs: summarize(record.readyTimes),
    quoteStatuses: record.quoteStatuses,
    quoteAnswerMs: summarize(record.quoteAnswerTimes),
    buildAnswerMs: summarize(record.buildAnswerTimes),
    buildsAnsweredWithinBound: record.buildAnswerTimes.filter((ms) => ms <= BUILD_ANSWER_BOUND_MS).length,
    serverAnswers: serverAnswersBetween(answersBefore, answersAfter, [BUILD_ANSWER_BOUND_MS / 1000, 30]),
    requestReplies: requestRepliesBetween(answersBefore, answersAfter, [1, BUILD_ANSWER_BOUND_MS / 1000]),
    connectionWaits: connectionWaitsBetween(answersBefore, answersAfter, [0.1, 1]),
    loadClientEventLoop,
    loadClientConnections,
    gatewayAcceptQueue,
    buildStatuses: record.buildStatuses,
    buildsRefused,
    accepted: record.swapIds.length,
    ready,
    outcomes,
    distinctSwapIds: distinct.length,
    lost: verdicts.lost,
    duplicated,
    anomalies: anomalies.slice(0, 20),
    anomalyCount: anomalies.length,
    cpu,
    cpuMsPerSwap:
      cpu && ready > 0
        ? { services: round(cpu.serviceCpuMs / ready, 1), all: round(cpu.allCpuMs / ready, 1) }
        : undefined,
    rpc,
    probes,
    recycles,
    failureSamples: record.failureSamples,
    verdict: clean ? 'none lost, none duplicated' : 'FAILED: see outcomes and anomalies',
  };
  return {
    figures,
    events: record.events,
    prober,
    burstStart: start,
    readingsBeforeMs: { recycles: recyclesMs, processes: processesMs, rpc: rpcMs },
  };
}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  return { scenario: 'soak', ...(await runSoak(options)).figures };
}

/** How long a client waits before its next poll: --soak-poll-ms when given, else the answer's pollAfterMs. */
function pollIntervalOf(options: Pick<SoakOptions, 'pollIntervalMs'>, body: unknown): number {
  if (options.pollIntervalMs > 0) return options.pollIntervalMs;
  return Number((body as { data?: { pollAfterMs?: unknown } } | undefined)?.data?.pollAfterMs ?? 1000);
}
