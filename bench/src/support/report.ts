import type { GatewayOverheadResult } from '../scenarios/gateway-overhead';
import type { HealthFloodResult } from '../scenarios/health-flood';
import type { KafkaRequestReplyResult } from '../scenarios/kafka-request-reply';
import { BUILD_ANSWER_BOUND_MS } from '../scenarios/soak';
import type { SoakFigures, SoakResult } from '../scenarios/soak';
import type { SoakColdResult } from '../scenarios/soak-cold';
import type { SoakScaledResult } from '../scenarios/soak-scaled';
import type { QuoteLatencyResult, SyncBuildLatencyResult } from '../scenarios/swap-flow';
import type { MachineDescription } from './machine';
import { RPC_COUNTER, type RpcFigures } from './rpc-requests';
import type { ServerAnswerFigures } from './server-answers';
import type { LatencySummary } from './stats';

export type ScenarioResult =
  | GatewayOverheadResult
  | KafkaRequestReplyResult
  | QuoteLatencyResult
  | SyncBuildLatencyResult
  | SoakResult
  | SoakColdResult
  | SoakScaledResult
  | HealthFloodResult;

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  machine: MachineDescription;
  settings: Record<string, unknown>;
  results: ScenarioResult[];
  /** Scenarios that threw, with the message: a bench run reports what it could measure. */
  errors: Array<{ scenario: string; message: string }>;
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : 'n/a');
const num = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const x = (v: number) => (Number.isFinite(v) ? `×${v.toFixed(3)}` : 'n/a');
const statuses = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ') || 'none';
const latencyRow = (name: string, l: LatencySummary) =>
  `| ${name} | ${l.samples} | ${ms(l.p50)} | ${ms(l.p90)} | ${ms(l.p99)} | ${ms(l.max)} |`;
const LATENCY_HEADER = ['| series | samples | p50 | p90 | p99 | max |', '|---|---:|---:|---:|---:|---:|'];

function section(result: ScenarioResult): string[] {
  switch (result.scenario) {
    case 'gateway-overhead': {
      const whole = (v: number) => (v === 0 ? '<1 ms' : ms(v));
      const row = (name: string, r: GatewayOverheadResult['gateway']) =>
        `| ${name} | ${num(r.requestsPerSecond, 1)} | ${ms(r.latencyMs.mean)} | ${whole(r.latencyMs.p50)} | ${whole(r.latencyMs.p99)} | ${r.totalRequests} | ${r.non2xx} | ${r.errors + r.timeouts} | ${cpu(r)} |`;
      const cpu = (r: GatewayOverheadResult['gateway']) =>
        r.cpuMicrosPerRequest
          ? `${num(r.cpuMicrosPerRequest.server, 1)} / ${num(r.cpuMicrosPerRequest.loadGenerator, 1)} µs`
          : '—';
      return [
        `## Gateway overhead: GET /api/v1/chains (${result.gateway.connections} connections, ${result.gatewayUncached.durationSeconds} s per run, ${result.responseBytes} B body)`,
        '',
        '| target | req/s | mean | p50 | p99 | requests | non-2xx | errors+timeouts | CPU per request: server / load generator |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
        row(
          'gateway GET /chains (auth, rate limit, envelope, catalog answer cached in the gateway)',
          result.gateway,
        ),
        row(
          'gateway GET /chains, catalog cache off (every request a request-reply to quote-service)',
          result.gatewayUncached,
        ),
        row(
          'gateway without Kafka: GET /swap/{unknown}/signing → 404 (auth, rate limit, one read)',
          result.gatewayWithoutKafka,
        ),
        row('bare Fastify, same bytes as GET /chains', result.bareFastify),
        '',
        `Bare Fastify and the cached gateway ran twice each, alternating (req/s by run: bare ${(result.bareFastify.requestsPerSecondByRun ?? []).join(', ')}; gateway ${(result.gateway.requestsPerSecondByRun ?? []).join(', ')}); their rows combine both runs (req/s the mean, percentiles the worse run).`,
        `Throughput ratio gateway/bare: ${x(result.throughputRatio)} (catalog cache off: ${x(result.uncachedThroughputRatio)}); latency ratio mean ${x(result.latencyRatio.mean)}, p99 ${x(result.latencyRatio.p99)}.`,
        'autocannon records whole milliseconds: "<1 ms" is a percentile under its resolution.',
        ...(result.gateway.cpuMicrosPerRequest && result.bareFastify.cpuMicrosPerRequest
          ? [
              `CPU per request, gateway/bare: ${x(result.gateway.cpuMicrosPerRequest.server / result.bareFastify.cpuMicrosPerRequest.server)} (the server processes' own time from /proc; the two cores are shared with the load generator).`,
            ]
          : []),
      ];
    }
    case 'kafka-request-reply':
      return [
        `## Kafka request-reply (${result.requests} sequential requests; throughput with ${result.concurrency} in flight)`,
        '',
        ...LATENCY_HEADER,
        latencyRow('@swapgw/messaging RequestReplyClient → RequestResponder', result.messaging.roundTripMs),
        latencyRow('raw kafkajs produce → consume → produce → consume', result.rawKafkajs.roundTripMs),
        latencyRow('raw kafkajs produce → consume (one hop)', result.rawKafkajs.oneHopMs),
        '',
        `Throughput: messaging ${num(result.messaging.concurrentRequestsPerSecond, 1)} req/s, raw ${num(result.rawKafkajs.concurrentRoundTripsPerSecond, 1)} round trips/s (ratio ${x(result.throughputRatio)}).`,
        `Latency ratio messaging/raw round trip: p50 ${x(result.latencyRatio.p50)}, p99 ${x(result.latencyRatio.p99)}.`,
      ];
    case 'quote-latency':
      return [
        `## Quote latency: POST /quote ${result.request.amount} ${result.request.tokenIn}→${result.request.tokenOut} on ${result.request.fromChain}`,
        '',
        ...LATENCY_HEADER,
        latencyRow('POST /quote', result.latencyMs),
        '',
        `Statuses: ${statuses(result.statuses)}.`,
      ];
    case 'sync-build-latency':
      return [
        `## Sync build latency: POST /swap/build with waitForTxRequestMs ${result.waitForTxRequestMs}`,
        '',
        ...LATENCY_HEADER,
        latencyRow('POST /swap/build', result.latencyMs),
        '',
        `Statuses (200 sync with payload, 202 async): ${statuses(result.statuses)}.`,
      ];
    case 'soak':
      return [
        `## Soak: ${result.swaps} swaps, ${result.concurrency} at a time, ${result.integrators} integrators' keys, ${pairsPhrase(result)} (quote → async build → poll${result.pollWaitMs > 0 ? ` waiting up to ${result.pollWaitMs} ms` : ''} ${result.pollIntervalMs > 0 ? `every ${result.pollIntervalMs} ms` : 'after each pollAfterMs'} until ready; ${result.warmupSwaps} warm-up swaps before, not counted)`,
        '',
        ...soakFigures(result),
      ];
    case 'soak-cold': {
      const cold = result.cold;
      return [
        `## Soak, cold: ${result.swaps} swaps, ${result.concurrency} at a time, ${pairsPhrase(result)}, no warm-up, sent when GET /api/v1/health first answered ok`,
        '',
        `The gateway's health first answered ok ${cold.healthOkAfterSpawnMs === undefined ? '' : `${num(cold.healthOkAfterSpawnMs / 1000, 2)} s after its process was spawned, `}after ${cold.healthPolls} polls (every 25 ms; before the ok: ${statuses(cold.healthAnswersBefore)}); the first swap went ${ms(cold.firstSwapAfterHealthOkMs)} after the ok (the readings taken before the burst, at once: the gateway's metrics ${ms(cold.readingsBeforeMs.recycles)}, the processes ${ms(cold.readingsBeforeMs.processes)}, the RPC counters ${ms(cold.readingsBeforeMs.rpc)}). The Kafka services were started and ready before the gateway, as in every run.`,
        '',
        ...soakFigures(result),
      ];
    }
    case 'soak-scaled': {
      const moving = result.partitionsMoving;
      const errors = result.errorsWhilePartitionsMove;
      return [
        `## Soak scaled: same burst, a second execution-planner and signer-surface started before it, the second planner stopped during it (${result.swaps} swaps, ${result.concurrency} at a time)`,
        '',
        `Against the single-instance soak of this run: throughput ${x(result.throughputRatio ?? Number.NaN)} (${num(result.swapsPerSecond, 2)} swaps/s here), service CPU per ready swap ${x(result.cpuPerSwapRatio ?? Number.NaN)}. Both soaks start after the same warm-up (--soak-warmup swaps, not counted); throughput varies by about ±10 % between runs on this machine: compare outcomes too.`,
        `Extra instances (started and ready before the burst): ${result.instances.map((i) => `${i.instanceId} ${i.error ? `FAILED (${i.error})` : i.stoppedAtMs !== undefined ? `stopped at ${num(i.stoppedAtMs / 1000, 1)} s` : 'ran throughout'}`).join('; ')}.`,
        `Partitions moving: the second planner told to stop at ${num(moving.launchedAtMs / 1000, 1)} s, rebalance from ${num(moving.fromMs / 1000, 1)} s to ${moving.toMs === undefined ? 'never stable with one member' : `${num(moving.toMs / 1000, 1)} s`} (groups last seen: ${
          Object.entries(moving.groups)
            .map(([g, v]) => `${g} ${v.state} ${v.members} members`)
            .join(', ') || 'unknown'
        }).`,
        `Errors while partitions moved: ${errors.buildRefusals} builds refused, ${errors.swapFailures} swaps failed, ${errors.probeServerErrors} probe 5xx.`,
        '',
        ...soakFigures(result),
      ];
    }
    case 'health-flood': {
      const phaseRow = (name: string, p: HealthFloodResult['baseline']) =>
        `| ${name} | ${p.ready}/${p.swaps} | ${num(p.swapsPerSecond, 2)} (${p.swapsPerSecondByRound.map((v) => num(v, 2)).join(', ')}) | ${ms(p.buildToReadyMs.p50)} | ${ms(p.buildToReadyMs.p99)} | ${statuses(p.failures)} |`;
      return [
        `## Health flood: swaps with and without ${result.floodConnections} callers of GET /api/v1/health back to back (${result.rounds} rounds, alternating; ${result.concurrency} swaps at a time)`,
        '',
        '| phase | ready | swaps/s (by round) | build → ready p50 | p99 | not ready |',
        '|---|---:|---:|---:|---:|---|',
        phaseRow('no flood (baseline)', result.baseline),
        phaseRow('health flood', result.flood),
        '',
        `Throughput with the flood / without: ${x(result.throughputRatio)}; build → ready p99 ${x(result.readyP99Ratio)}.`,
        `Ready per pair (${result.pairMode}): ${Object.entries(result.baseline.byPair)
          .map(([name, p]) => {
            const f = result.flood.byPair[name];
            return `${name} ${p.ready}/${p.swaps} without the flood, ${f ? `${f.ready}/${f.swaps}` : 'n/a'} with it`;
          })
          .join('; ')}.`,
        `Health calls: ${result.health.calls} (${num(result.health.callsPerSecond, 1)}/s), statuses ${statuses(result.health.statuses)}, p50 ${ms(result.health.latencyMs.p50)}, p99 ${ms(result.health.latencyMs.p99)}.`,
      ];
    }
  }
}

const cpuMs = (v: number) => `${num(v)} ms`;

const pairsPhrase = (result: SoakFigures) =>
  result.pairMode === 'single'
    ? `one pair (${result.pairs[0]?.pair ?? 'n/a'})`
    : `${result.pairs.length} pairs round-robin`;

/** Top methods shown in the summary; the JSON has them all. */
const TOP_RPC_METHODS = 8;

function rpcLines(rpc: RpcFigures, probes: SoakFigures['probes']): string[] {
  if (!rpc.available)
    return [
      '',
      `RPC calls per ready swap: n/a (no app exposes ${RPC_COUNTER}: a commit before the counter; apps read: ${rpc.apps.map((a) => `${a.app} ${a.state}`).join(', ')}).`,
    ];
  const chains = rpc.chains.map((c) => c.chain);
  const perSwap = (calls: number) => (rpc.readySwaps > 0 ? num(calls / rpc.readySwaps, 2) : 'n/a');
  const probesDuring = probes.targets.reduce((n, t) => n + t.during.sent, 0);
  const quoteProbes = probes.targets.find((t) => t.name === 'POST /quote')?.during.sent ?? 0;
  return [
    '',
    `RPC calls per ready swap: **${num(rpc.perReadySwap, 2)}** (${rpc.total} JSON-RPC requests to the chains over ${rpc.readySwaps} ready swaps; ${RPC_COUNTER} on every app's /metrics before and after the burst, so the prober's ${probesDuring} requests during the burst, ${quoteProbes} of them POST /quote, and the apps' own background reads are in it). Per app and chain, per ready swap:`,
    '',
    `| app | ${chains.join(' | ')} | all chains |`,
    `|---|${chains.map(() => '---:|').join('')}---:|`,
    ...rpc.apps.map((a) =>
      a.state === 'counter' || a.state === 'stopped'
        ? `| ${a.app}${a.state === 'stopped' ? ' (stopped during the burst: to its last reading)' : ''} | ${chains.map((c) => perSwap(a.byChain[c] ?? 0)).join(' | ')} | ${perSwap(a.calls)} |`
        : `| ${a.app} (${a.state === 'absent' ? 'no counter on its /metrics' : 'metrics unreadable'}) | ${chains.map(() => 'n/a').join(' | ')} | n/a |`,
    ),
    `| **all apps** | ${rpc.chains.map((c) => perSwap(c.calls)).join(' | ')} | ${perSwap(rpc.total)} |`,
    '',
    `Top methods (of ${rpc.methods.length}):`,
    '',
    '| chain | method | calls | per ready swap |',
    '|---|---|---:|---:|',
    ...rpc.methods
      .slice(0, TOP_RPC_METHODS)
      .map((m) => `| ${m.chain} | ${m.method} | ${m.calls} | ${perSwap(m.calls)} |`),
  ];
}

function pairLines(result: SoakFigures): string[] {
  return [
    '',
    `Per pair (${result.pairMode === 'single' ? 'one pair' : 'swap n through pair n mod the count'}):`,
    '',
    '| pair | swaps | ready | build → ready p50 | p99 | not ready |',
    '|---|---:|---:|---:|---:|---|',
    ...result.pairs.map(
      (p) =>
        `| ${p.pair} | ${p.swaps} | ${p.ready} | ${ms(p.buildToReadyMs.p50)} | ${ms(p.buildToReadyMs.p99)} | ${statuses(p.failures)} |`,
    ),
    ...result.pairsSkipped.map((s) => `- left out of the mix: ${s}`),
  ];
}

/**
 * The gateway's own timing of the same answers, and the load client's event-loop delay, which its
 * figures above include (one process sends the whole burst on the stack's cores).
 */
function serverAnswerLines(result: SoakFigures): string[] {
  const loop = result.loadClientEventLoop;
  const connections = result.loadClientConnections;
  const answers = result.serverAnswers;
  const routeText = (a: ServerAnswerFigures) =>
    `${a.name}s ${a.answered} answered, ${Object.entries(a.within)
      .map(([s, n]) => `${n} within ${s} s`)
      .join(', ')}, p50 ≤ ${a.p50AtMostS} s, p99 ≤ ${a.p99AtMostS} s`;
  const replies = result.requestReplies;
  const waits = result.connectionWaits;
  const replyText = (a: ServerAnswerFigures) =>
    `${a.name} ${a.answered} (${Object.entries(a.within)
      .map(([s, n]) => `${n} within ${s} s`)
      .join(', ')}, p50 ≤ ${a.p50AtMostS} s, p99 ≤ ${a.p99AtMostS} s)`;
  return [
    answers
      ? `As the gateway timed them (its request-duration histogram, bucket bounds): ${answers.map(routeText).join('; ')}.`
      : `As the gateway timed them: n/a (its /metrics did not answer).`,
    ...(replies?.length
      ? [
          `What they waited on, the gateway's request-reply calls (topic, type, outcome; bucket bounds): ${replies.map(replyText).join('; ')}.`,
        ]
      : []),
    ...(waits?.length
      ? [
          `The gateway's statements' waits for a pooled database connection (lane; bucket bounds): ${waits.map(replyText).join('; ')}.`,
        ]
      : []),
    ...(loop
      ? [
          `The load client's own event-loop delay during the burst (in every client-side figure): p50 ${ms(loop.p50Ms)}, p99 ${ms(loop.p99Ms)}, max ${ms(loop.maxMs)}.`,
        ]
      : []),
    ...(connections
      ? [
          `The load client's new connections during the burst (a request on one waits for its TCP connect before the gateway sees it): ${connections.opened} opened, ${connections.connected} connected, connect p50 ${ms(connections.connectP50Ms)}, p99 ${ms(connections.connectP99Ms)}, max ${ms(connections.connectMaxMs)}.`,
        ]
      : []),
    ...(result.gatewayAcceptQueue
      ? [
          `The gateway's accept queue during the burst (connections its clients counted connected and it had not accepted; the kernel's count every 250 ms): max ${result.gatewayAcceptQueue.maxWaiting}, above 0 in ${result.gatewayAcceptQueue.waitingSamples} of ${result.gatewayAcceptQueue.samples} readings.`,
        ]
      : []),
  ];
}

function soakFigures(result: SoakFigures): string[] {
  const cpu = result.cpu;
  const perSwap = (v: number) => (result.ready > 0 ? cpuMs(v / result.ready) : 'n/a');
  const cpuLines = cpu
    ? [
        '',
        `CPU during the burst (${num(cpu.wallMs / 1000, 1)} s, ${cpu.cores} cores), from /proc: ${cpuMs(result.cpuMsPerSwap?.services ?? Number.NaN)} per ready swap for apps + broker + PostgreSQL backends (${cpuMs(result.cpuMsPerSwap?.all ?? Number.NaN)} with the devnet). Machine busy ${num(cpu.machineBusyPercent, 1)} % (everything on the machine, other jobs included); the services' own share ${num(cpu.serviceSharePercent, 1)} %; the load generator used ${cpuMs(cpu.loadGeneratorCpuMs)} (not in the totals).`,
        '',
        '| process | processes | CPU | per ready swap |',
        '|---|---:|---:|---:|',
        ...cpu.groups.map(
          (g) =>
            `| ${g.name}${g.inServiceTotal ? '' : ' (not in the service total)'} | ${g.processes} | ${cpuMs(g.cpuMs)} | ${perSwap(g.cpuMs)} |`,
        ),
        `| **services total** | | ${cpuMs(cpu.serviceCpuMs)} | ${perSwap(cpu.serviceCpuMs)} |`,
        `| **all** | | ${cpuMs(cpu.allCpuMs)} | ${perSwap(cpu.allCpuMs)} |`,
      ]
    : ['', 'CPU: not measured (no /proc on this machine).'];
  const probeRows = result.probes.targets.flatMap((t) =>
    (['during', 'after'] as const).map((phase) => {
      const p = t[phase];
      return `| ${t.name} | ${phase} | ${p.sent} | ${p.serverErrors} | ${statuses(p.statuses)} | ${ms(p.latencyMs.p50)} | ${ms(p.latencyMs.p99)} |`;
    }),
  );
  const recycles = result.recycles;
  return [
    ...LATENCY_HEADER,
    latencyRow('quote answered (200s)', result.quoteAnswerMs),
    latencyRow('build answered (200/202)', result.buildAnswerMs),
    latencyRow('build → ready', result.buildToReadyMs),
    '',
    `Builds answered within ${BUILD_ANSWER_BOUND_MS / 1000} s: ${result.buildsAnsweredWithinBound} of ${result.accepted} accepted (of ${result.swaps}).`,
    ...serverAnswerLines(result),
    `Throughput: ${num(result.swapsPerSecond, 2)} swaps/s reached a ready payload over ${num(result.wallSeconds, 1)} s.`,
    ...(result.serverReady
      ? [
          `As the gateway stored them: ${result.serverReady.ready} payloads ready, the last ${num(result.serverReady.wallSeconds, 1)} s after the first swap was sent: ${num(result.serverReady.swapsPerSecond, 2)} swaps/s (the figure above also waits for each client's next poll).`,
        ]
      : []),
    `Ready ${result.ready}/${result.swaps}; builds accepted ${result.accepted}, refused ${result.buildsRefused} (${statuses(result.buildStatuses)}); quotes: ${statuses(result.quoteStatuses)}.`,
    `Lost ${result.lost}, duplicated ${result.duplicated} (tables read after the probe tail; distinct swap ids ${result.distinctSwapIds}, rows not exactly once: ${result.anomalyCount}). **${result.verdict}**`,
    `Outcomes: ${statuses(result.outcomes)}.`,
    ...pairLines(result),
    ...cpuLines,
    ...rpcLines(result.rpc, result.probes),
    '',
    `Prober (every ${result.probes.intervalMs} ms each, timeout ${result.probes.timeoutMs} ms; "during" = the burst, "after" = the tail after it; the requirement is no 5xx):`,
    '',
    '| request | phase | sent | 5xx | answers | p50 | p99 |',
    '|---|---|---:|---:|---|---:|---:|',
    ...probeRows,
    '',
    `Request-reply client recycles in the gateway (burst and tail): ${Number.isFinite(recycles.count) ? recycles.count : 'n/a'} (${recycles.source}${recycles.from ? `: ${recycles.from}` : ''}).`,
    ...result.failureSamples.map((f) => `- failure: ${f}`),
    ...result.anomalies.slice(0, 10).map((a) => `- anomaly: ${JSON.stringify(a)}`),
  ];
}

export function toMarkdown(report: BenchReport): string {
  const m = report.machine;
  return [
    `# Swap gateway bench, ${report.startedAt}`,
    '',
    `Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory (${m.freeMemoryGiB} GiB free), ${m.platform}, Node ${m.node}, load average at start ${m.loadAverage.join(' / ')}.`,
    'Everything (Kafka, PostgreSQL, two anvil chains, five apps, the load generator) ran on this one machine: figures are relative, compare them within one run.',
    '',
    `Settings: ${Object.entries(report.settings)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')}.`,
    '',
    ...report.results.flatMap((r) => [...section(r), '']),
    ...(report.errors.length > 0
      ? ['## Scenarios that failed', '', ...report.errors.map((e) => `- ${e.scenario}: ${e.message}`), '']
      : []),
    `Finished ${report.finishedAt}.`,
  ].join('\n');
}
