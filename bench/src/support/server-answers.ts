// How long the gateway itself took to answer the burst's quotes and builds, beside what the load
// client measured. The load client is one Node process sending every swap of the burst on the same
// 2 cores as the stack: its own event loop, busy parsing thousands of answers, delays the moment it
// sees an answer. Both are reported; the client's event-loop delay says how much of the gap is its own.
//
// The gateway's histogram swapgw_http_request_duration_seconds{method,route,status_code} (its
// GET /metrics, on METRICS_PORT) is read before and after the burst; the difference is the burst's.
// So is swapgw_kafka_request_duration_seconds{topic,type,outcome}: what the gateway's answers waited
// on, its request-reply calls to the services (a build's price re-check and preflight among them).
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const HTTP_DURATION = 'swapgw_http_request_duration_seconds';
export const REQUEST_REPLY_DURATION = 'swapgw_kafka_request_duration_seconds';
export const CONNECTION_WAIT = 'swapgw_db_connection_wait_seconds';
/** Connection waits in AnswerHistograms are named `connection-wait <lane>`. */
const CONNECTION_WAIT_SERIES = 'connection-wait ';
/** Request-reply series in AnswerHistograms are named `request-reply <topic> <type> <outcome>`. */
const REQUEST_REPLY_SERIES = 'request-reply ';
const requestReplySeries = (labels: Record<string, string>) =>
  `${REQUEST_REPLY_SERIES}${labels.topic} ${labels.type} ${labels.outcome}`;

/** The answers of one route counted: the statuses a client takes as answered. */
export interface AnsweredRoute {
  name: string;
  method: string;
  route: string;
  statuses: readonly string[];
}

export const ANSWERED_ROUTES: readonly AnsweredRoute[] = [
  { name: 'quote', method: 'POST', route: '/api/v1/quote', statuses: ['200'] },
  { name: 'build', method: 'POST', route: '/api/v1/swap/build', statuses: ['200', '202'] },
  // The clients' polls of a built swap (202 until its payload is ready, then 200): what waiting costs.
  { name: 'poll', method: 'GET', route: '/api/v1/swap/:swapId/signing', statuses: ['200', '202'] },
];

/** Cumulative counts per upper bound (seconds, +Inf as Infinity), per route name. */
export type AnswerHistograms = Record<string, Map<number, number>>;

const BUCKET = new RegExp(
  `^(${HTTP_DURATION}|${REQUEST_REPLY_DURATION}|${CONNECTION_WAIT})_bucket\\{(.*)\\}\\s+(\\S+)`,
);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * The answered routes' buckets in a Prometheus text exposition (status codes summed), and every
 * request-reply series (named by requestReplySeries).
 */
export function parseAnswerHistograms(text: string): AnswerHistograms {
  const out: AnswerHistograms = {};
  for (const line of text.split('\n')) {
    const match = BUCKET.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of match[2].matchAll(LABEL)) labels[name] = value;
    const name =
      match[1] === REQUEST_REPLY_DURATION
        ? requestReplySeries(labels)
        : match[1] === CONNECTION_WAIT
          ? `${CONNECTION_WAIT_SERIES}${labels.lane}`
          : ANSWERED_ROUTES.find(
              (r) =>
                r.method === labels.method &&
                r.route === labels.route &&
                r.statuses.includes(labels.status_code),
            )?.name;
    if (!name) continue;
    const le = labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(labels.le);
    const buckets = (out[name] ??= new Map());
    buckets.set(le, (buckets.get(le) ?? 0) + Number(match[3]));
  }
  return out;
}

/** The gateway's histograms now; undefined when its /metrics did not answer. */
export async function readAnswerHistograms(
  metricsUrl: string | undefined,
): Promise<AnswerHistograms | undefined> {
  if (!metricsUrl) return undefined;
  try {
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) });
    return response.status === 200 ? parseAnswerHistograms(await response.text()) : undefined;
  } catch {
    return undefined;
  }
}

export interface ServerAnswerFigures {
  name: string;
  answered: number;
  /** Answers within each bound the report names (seconds → count). */
  within: Record<string, number>;
  /** The smallest bucket bound holding half and 99 % of the answers (seconds; a bound, not a value). */
  p50AtMostS: number;
  p99AtMostS: number;
}

/** Per route, what the gateway answered between two readings. */
export function serverAnswersBetween(
  before: AnswerHistograms | undefined,
  after: AnswerHistograms | undefined,
  boundsS: readonly number[],
): ServerAnswerFigures[] | undefined {
  return seriesBetween(
    ANSWERED_ROUTES.map(({ name }) => name),
    before,
    after,
    boundsS,
  );
}

/**
 * The gateway's request-reply calls between two readings, per `topic type outcome` with any call
 * in between, most calls first.
 */
export function requestRepliesBetween(
  before: AnswerHistograms | undefined,
  after: AnswerHistograms | undefined,
  boundsS: readonly number[],
): ServerAnswerFigures[] | undefined {
  return prefixedSeriesBetween(REQUEST_REPLY_SERIES, before, after, boundsS)?.sort(
    (a, b) => b.answered - a.answered,
  );
}

/**
 * The gateway's waits for a database connection between two readings, per lane with any wait in
 * between (command, request, other: which statements queued for the pool, and behind which).
 */
export function connectionWaitsBetween(
  before: AnswerHistograms | undefined,
  after: AnswerHistograms | undefined,
  boundsS: readonly number[],
): ServerAnswerFigures[] | undefined {
  return prefixedSeriesBetween(CONNECTION_WAIT_SERIES, before, after, boundsS);
}

/** The series named `prefix…` with any count in between, named without the prefix. */
function prefixedSeriesBetween(
  prefix: string,
  before: AnswerHistograms | undefined,
  after: AnswerHistograms | undefined,
  boundsS: readonly number[],
): ServerAnswerFigures[] | undefined {
  const names = Object.keys(after ?? {}).filter((name) => name.startsWith(prefix));
  return seriesBetween(names, before, after, boundsS)
    ?.filter((series) => series.answered > 0)
    .map((series) => ({ ...series, name: series.name.slice(prefix.length) }));
}

function seriesBetween(
  names: readonly string[],
  before: AnswerHistograms | undefined,
  after: AnswerHistograms | undefined,
  boundsS: readonly number[],
): ServerAnswerFigures[] | undefined {
  if (!before || !after) return undefined;
  return names.map((name) => {
    const bounds = [...(after[name]?.keys() ?? [])].sort((a, b) => a - b);
    const countAt = (le: number) => (after[name]?.get(le) ?? 0) - (before[name]?.get(le) ?? 0);
    const answered = countAt(Number.POSITIVE_INFINITY);
    const quantileBound = (q: number) => bounds.find((le) => countAt(le) >= q * answered) ?? Number.NaN;
    return {
      name,
      answered,
      within: Object.fromEntries(
        boundsS.filter((s) => after[name]?.has(s)).map((s) => [String(s), countAt(s)]),
      ),
      p50AtMostS: quantileBound(0.5),
      p99AtMostS: quantileBound(0.99),
    };
  });
}

export interface EventLoopDelayFigures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The load client's own event-loop delay while the burst runs: `stop` gives its figures. */
export function watchOwnEventLoop(): { stop(): EventLoopDelayFigures } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      const ms = (ns: number) => Math.round(ns / 1e5) / 10;
      return {
        p50Ms: ms(histogram.percentile(50)),
        p99Ms: ms(histogram.percentile(99)),
        maxMs: ms(histogram.max),
      };
    },
  };
}
