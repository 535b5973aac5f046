// How often the gateway's request-reply client replaced itself (a new reply consumer group: every
// request waiting on the old one fails). Read from the gateway's Prometheus metrics when a counter
// with "recycl" in its name exists there, else counted in the gateway's log, whose warning for a
// replaced client has been "request-reply client is dead; the next request connects a new one".
import fs from 'node:fs';

export interface RecycleReading {
  source: 'metrics' | 'log' | 'unavailable';
  /** The metric names summed, or the log file read. */
  from: string;
  count: number;
}

const RECYCLE_LOG_LINE = /recycl|request-reply client is dead/i;

/** Sum of every sample of the metrics whose name contains "recycl"; undefined when there is none. */
function fromMetrics(text: string): { names: string[]; count: number } | undefined {
  const names = new Set<string>();
  let count = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match || !/recycl/i.test(match[1])) continue;
    names.add(match[1]);
    count += Number(match[3]) || 0;
  }
  return names.size > 0 ? { names: [...names], count } : undefined;
}

function fromLog(logFile: string): number {
  return fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => RECYCLE_LOG_LINE.test(line)).length;
}

/** `metricsUrl`: the gateway's GET /metrics on its METRICS_PORT (undefined: the log only). */
export async function readRecycles(
  metricsUrl: string | undefined,
  gatewayLogFile: string | undefined,
): Promise<RecycleReading> {
  try {
    if (!metricsUrl) throw new Error('no metrics URL');
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) });
    if (response.status === 200) {
      const found = fromMetrics(await response.text());
      if (found) return { source: 'metrics', from: found.names.join(', '), count: found.count };
    }
  } catch {
    // no metrics URL, or a gateway too busy to answer: fall back to its log
  }
  if (gatewayLogFile && fs.existsSync(gatewayLogFile))
    return { source: 'log', from: gatewayLogFile, count: fromLog(gatewayLogFile) };
  return { source: 'unavailable', from: '', count: Number.NaN };
}

/** Recycles between two readings; NaN when the two readings do not come from the same source. */
export function recyclesBetween(before: RecycleReading, after: RecycleReading): RecycleReading {
  return {
    source: after.source,
    from: after.from,
    count: before.source === after.source ? after.count - before.count : Number.NaN,
  };
}
