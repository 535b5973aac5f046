// RPC calls per ready swap. Every app counts the JSON-RPC requests it sends to a chain node in the
// Prometheus counter swapgw_rpc_requests_total{chain="<chain id>",method="<json-rpc method>"}
// (libs/chains; `service`, the app's default label, is on every series). The soaks read it on every
// app's /metrics before and after the burst. A commit without the counter exposes none: its figures
// are then "n/a", never a failure, so the same bench runs against older commits side by side.

export const RPC_COUNTER = 'swapgw_rpc_requests_total';

/** One app's GET /metrics: the gateways on their METRICS_PORT, the Kafka services on their HEALTH_PORT. */
export interface MetricsTarget {
  /** The process as run.mjs names it (the two gateways share the service label `gateway`). */
  app: string;
  url: string;
}

/** Calls by chain, then by JSON-RPC method. */
export type RpcCounts = Record<string, Record<string, number>>;

export interface RpcReading {
  app: string;
  /**
   * counter: the app exposes the counter (maybe with no sample yet: no call so far);
   * absent: /metrics answered without it (a commit before it); unreadable: no answer.
   */
  state: 'counter' | 'absent' | 'unreadable';
  /** The `service` labels seen on the counter's samples. */
  services: string[];
  counts: RpcCounts;
  detail?: string;
}

export interface RpcAppFigures {
  app: string;
  services: string[];
  /** State of the reading after the burst (before it when that one failed). */
  state: RpcReading['state'] | 'stopped';
  calls: number;
  byChain: Record<string, number>;
}

export interface RpcFigures {
  /** false when no app exposed the counter: every figure below is then empty and printed "n/a". */
  available: boolean;
  readySwaps: number;
  total: number;
  /** total / readySwaps; NaN without a ready swap. */
  perReadySwap: number;
  apps: RpcAppFigures[];
  /** Calls per chain, every app together, most first. */
  chains: Array<{ chain: string; calls: number; perReadySwap: number }>;
  /** Calls per chain and method, every app together, most first. */
  methods: Array<{ chain: string; method: string; calls: number; perReadySwap: number }>;
}

const SAMPLE = new RegExp(`^${RPC_COUNTER}(?:\\{(.*)\\})?\\s+(\\S+)`);
const DECLARED = new RegExp(`^# (?:TYPE|HELP) ${RPC_COUNTER}\\s`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

const unescape = (value: string) => value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** The counter's samples in a Prometheus text exposition; undefined when it is not there at all. */
export function parseRpcCounter(text: string): { counts: RpcCounts; services: string[] } | undefined {
  const counts: RpcCounts = {};
  const services = new Set<string>();
  let declared = false;
  for (const line of text.split('\n')) {
    if (DECLARED.test(line)) {
      declared = true;
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) continue;
    declared = true;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[1] ?? '').matchAll(LABEL)) labels[name] = unescape(value);
    const value = Number(match[2]);
    if (!Number.isFinite(value)) continue;
    const chain = labels.chain ?? '(no chain)';
    const method = labels.method ?? '(no method)';
    if (labels.service) services.add(labels.service);
    counts[chain] ??= {};
    counts[chain][method] = (counts[chain][method] ?? 0) + value;
  }
  return declared ? { counts, services: [...services] } : undefined;
}

async function readOne(target: MetricsTarget): Promise<RpcReading> {
  const empty = { app: target.app, services: [], counts: {} };
  try {
    const response = await fetch(target.url, { signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    if (response.status !== 200)
      return { ...empty, state: 'unreadable', detail: `GET ${target.url} answered ${response.status}` };
    const found = parseRpcCounter(text);
    return found ? { app: target.app, state: 'counter', ...found } : { ...empty, state: 'absent' };
  } catch (error) {
    return { ...empty, state: 'unreadable', detail: `GET ${target.url}: ${(error as Error).message}` };
  }
}

/** The counter on every target, read at once. */
export function readRpcCounters(targets: readonly MetricsTarget[]): Promise<RpcReading[]> {
  return Promise.all(targets.map(readOne));
}

const sum = (values: Iterable<number>) => [...values].reduce((s, v) => s + v, 0);

/** after − before per chain and method; a value below the one before is a restarted process: all of it counts. */
function delta(before: RpcCounts, after: RpcCounts): RpcCounts {
  const out: RpcCounts = {};
  for (const [chain, methods] of Object.entries(after))
    for (const [method, value] of Object.entries(methods)) {
      const previous = before[chain]?.[method] ?? 0;
      const calls = value >= previous ? value - previous : value;
      if (calls > 0) (out[chain] ??= {})[method] = calls;
    }
  return out;
}

/**
 * Calls between two readings of the same targets, per app, chain and method, over `readySwaps`.
 * An app read before but not after (soak-scaled's planner stopped during the burst) is `stopped`,
 * with what its last reading `lastOf` gave, when there is one.
 */
export function rpcCallsBetween(
  before: readonly RpcReading[],
  after: readonly RpcReading[],
  readySwaps: number,
  lastOf: (app: string) => RpcReading | undefined = () => undefined,
): RpcFigures {
  const perSwap = (calls: number) =>
    readySwaps > 0 ? Math.round((calls / readySwaps) * 100) / 100 : Number.NaN;
  const apps: RpcAppFigures[] = [];
  const total: RpcCounts = {};
  const names = new Set([...before.map((r) => r.app), ...after.map((r) => r.app)]);
  for (const app of names) {
    const first = before.find((r) => r.app === app);
    let last = after.find((r) => r.app === app);
    let state: RpcAppFigures['state'] | undefined = last?.state;
    if (!last || last.state === 'unreadable') {
      const stopped = lastOf(app);
      if (stopped) {
        last = stopped;
        state = 'stopped';
      }
    }
    // Absent before and there after: a counter made at its first increment, during the burst.
    const calls =
      (first?.state === 'counter' || first?.state === 'absent') && last?.state === 'counter'
        ? delta(first.counts, last.counts)
        : {};
    for (const [chain, methods] of Object.entries(calls))
      for (const [method, value] of Object.entries(methods))
        (total[chain] ??= {})[method] = (total[chain][method] ?? 0) + value;
    apps.push({
      app,
      services: [...new Set([...(first?.services ?? []), ...(last?.services ?? [])])],
      state: state ?? first?.state ?? 'unreadable',
      calls: sum(Object.values(calls).flatMap((m) => Object.values(m))),
      byChain: Object.fromEntries(
        Object.entries(calls).map(([chain, methods]) => [chain, sum(Object.values(methods))]),
      ),
    });
  }
  const available = apps.some((a) => a.state === 'counter' || a.state === 'stopped');
  const chains = Object.entries(total)
    .map(([chain, methods]) => {
      const calls = sum(Object.values(methods));
      return { chain, calls, perReadySwap: perSwap(calls) };
    })
    .sort((a, b) => b.calls - a.calls);
  const methods = Object.entries(total)
    .flatMap(([chain, byMethod]) =>
      Object.entries(byMethod).map(([method, calls]) => ({
        chain,
        method,
        calls,
        perReadySwap: perSwap(calls),
      })),
    )
    .sort((a, b) => b.calls - a.calls);
  const calls = sum(chains.map((c) => c.calls));
  return {
    available,
    readySwaps,
    total: calls,
    perReadySwap: available ? perSwap(calls) : Number.NaN,
    apps,
    chains,
    methods,
  };
}
