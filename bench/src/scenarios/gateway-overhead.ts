import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '@swapgw/testing';
import { spawnNode, waitForHttp } from '../support/child-process';
import { processCpuMs } from '../support/process-cpu';
import { ratio } from '../support/stats';

export interface HttpLoadResult {
  url: string;
  connections: number;
  durationSeconds: number;
  requestsPerSecond: number;
  totalRequests: number;
  /** autocannon records whole milliseconds: a p50 of 0 means under 1 ms; `mean` keeps the fraction. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * CPU-microseconds per request of the server process (from /proc) and of the load generator
   * (this process), over the timed run: what a request costs, whatever the scheduling of the two
   * cores between them. Undefined where /proc is not readable.
   */
  cpuMicrosPerRequest?: { server: number; loadGenerator: number };
  /** req/s of each run when the figure combines several (bare Fastify and the cached gateway: two each, alternating). */
  requestsPerSecondByRun?: number[];
}

type CpuMeasuredResult = HttpLoadResult & Required<Pick<HttpLoadResult, 'cpuMicrosPerRequest'>>;

const measuredCpu = (run: HttpLoadResult): run is CpuMeasuredResult => run.cpuMicrosPerRequest !== undefined;

/**
 * Several runs of one target as one figure: req/s the mean, latency mean and CPU per request
 * weighted by requests, percentiles and max the worst of the runs.
 */
function combined(runs: HttpLoadResult[]): HttpLoadResult {
  const total = runs.reduce((sum, r) => sum + r.totalRequests, 0);
  const weighted = <R extends HttpLoadResult>(among: R[], value: (r: R) => number) =>
    among.reduce((sum, r) => sum + value(r) * r.totalRequests, 0) / Math.max(1, total);
  const worst = (value: (r: HttpLoadResult) => number) => Math.max(...runs.map(value));
  const withCpu = runs.filter(measuredCpu);
  return {
    url: runs[0].url,
    connections: runs[0].connections,
    durationSeconds: runs.reduce((sum, r) => sum + r.durationSeconds, 0),
    requestsPerSecond: runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / runs.length,
    totalRequests: total,
    latencyMs: {
      mean: weighted(runs, (r) => r.latencyMs.mean),
      p50: worst((r) => r.latencyMs.p50),
      p90: worst((r) => r.latencyMs.p90),
      p99: worst((r) => r.latencyMs.p99),
      max: worst((r) => r.latencyMs.max),
    },
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    timeouts: runs.reduce((sum, r) => sum + r.timeouts, 0),
    cpuMicrosPerRequest:
      withCpu.length === runs.length
        ? {
            server: Math.round(weighted(withCpu, (r) => r.cpuMicrosPerRequest.server) * 10) / 10,
            loadGenerator:
              Math.round(weighted(withCpu, (r) => r.cpuMicrosPerRequest.loadGenerator) * 10) / 10,
          }
        : undefined,
    requestsPerSecondByRun: runs.map((r) => Math.round(r.requestsPerSecond)),
  };
}

export interface GatewayOverheadResult {
  scenario: 'gateway-overhead';
  /** GET /chains as configured: the catalog answer comes from the gateway's cache (CATALOG_CACHE_TTL_MS). */
  gateway: HttpLoadResult;
  /** GET /chains on a gateway with CATALOG_CACHE_TTL_MS=0: every request is a request-reply to quote-service. */
  gatewayUncached: HttpLoadResult;
  /**
   * The gateway without the catalog call: GET /swap/{unknown id}/signing answers 404 after the same
   * shell (request id, auth, rate limit, envelope) and one read of its own table, no Kafka. It
   * splits the overhead into "HTTP shell + PostgreSQL" and "request-reply to quote-service".
   */
  gatewayWithoutKafka: HttpLoadResult;
  bareFastify: HttpLoadResult;
  /** gateway req/s ÷ bare Fastify req/s (1 = no overhead). */
  throughputRatio: number;
  /** uncached gateway req/s ÷ bare Fastify req/s. */
  uncachedThroughputRatio: number;
  /** gateway ÷ bare latency, mean and p99 (p50 of the bare server is often under autocannon's 1 ms resolution). */
  latencyRatio: { mean: number; p99: number };
  responseBytes: number;
}

export interface GatewayOverheadOptions {
  gatewayUrl: string;
  uncachedGatewayUrl: string;
  apiKey: string;
  connections: number;
  durationSeconds: number;
  bareServerScript: string;
  /** The gateways' process ids (BENCH_PROCESSES), for their CPU per request. */
  gatewayPid?: number;
  uncachedGatewayPid?: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  durationSeconds: number,
  serverPid: number | undefined,
): Promise<HttpLoadResult> {
  // A short warm-up first (JIT, connection pools, caches), not counted.
  await autocannon({ url, headers, connections, duration: 1 });
  const serverCpuBefore = serverPid === undefined ? undefined : processCpuMs(serverPid);
  const ownCpuBefore = process.cpuUsage();
  const result = await autocannon({ url, headers, connections, duration: durationSeconds });
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const serverCpuAfter = serverPid === undefined ? undefined : processCpuMs(serverPid);
  const perRequest = (cpuMicros: number): number =>
    Math.round((cpuMicros / Math.max(1, result.requests.total)) * 10) / 10;
  return {
    url,
    connections,
    durationSeconds,
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    latencyMs: {
      mean: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpuMicrosPerRequest:
      serverCpuBefore === undefined || serverCpuAfter === undefined
        ? undefined
        : {
            server: perRequest((serverCpuAfter - serverCpuBefore) * 1000),
            loadGenerator: perRequest(ownCpu.user + ownCpu.system),
          },
  };
}

/**
 * Authenticated GET /api/v1/chains through the gateway against a bare Fastify process answering
 * the same bytes: what auth, rate limiting, envelope, logging and the catalog call cost.
 */
export async function gatewayOverhead(options: GatewayOverheadOptions): Promise<GatewayOverheadResult> {
  const headers = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
  const gatewayChains = `${options.gatewayUrl}/chains`;
  const sample = await fetch(gatewayChains, { headers });
  if (sample.status !== 200) throw new Error(`GET /chains answered ${sample.status}: ${await sample.text()}`);
  const body = await sample.text();

  const bodyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-bench-')), 'chains.json');
  fs.writeFileSync(bodyFile, body);
  const port = await freePort();
  const bare = spawnNode(options.bareServerScript, { PORT: String(port), BARE_BODY_FILE: bodyFile });
  const bareChains = `http://127.0.0.1:${port}/api/v1/chains`;
  try {
    await waitForHttp(bareChains);
    // Alternating, twice each: the machine's speed drifts between runs of a few seconds, and the
    // ratio should compare the two servers, not two moments.
    const bareRuns: HttpLoadResult[] = [];
    const gatewayRuns: HttpLoadResult[] = [];
    for (let round = 0; round < 2; round += 1) {
      bareRuns.push(
        await load(bareChains, headers, options.connections, options.durationSeconds, bare.process.pid),
      );
      gatewayRuns.push(
        await load(gatewayChains, headers, options.connections, options.durationSeconds, options.gatewayPid),
      );
    }
    const bareResult = combined(bareRuns);
    const gatewayResult = combined(gatewayRuns);
    const uncachedResult = await load(
      `${options.uncachedGatewayUrl}/chains`,
      headers,
      options.connections,
      options.durationSeconds,
      options.uncachedGatewayPid,
    );
    const unknownSwap = `${options.gatewayUrl}/swap/00000000-0000-5000-8000-000000000000/signing`;
    const withoutKafka = await load(
      unknownSwap,
      headers,
      options.connections,
      options.durationSeconds,
      options.gatewayPid,
    );
    return {
      scenario: 'gateway-overhead',
      gateway: gatewayResult,
      gatewayUncached: uncachedResult,
      gatewayWithoutKafka: withoutKafka,
      bareFastify: bareResult,
      throughputRatio: ratio(gatewayResult.requestsPerSecond, bareResult.requestsPerSecond),
      uncachedThroughputRatio: ratio(uncachedResult.requestsPerSecond, bareResult.requestsPerSecond),
      latencyRatio: {
        mean: ratio(gatewayResult.latencyMs.mean, bareResult.latencyMs.mean),
        p99: ratio(gatewayResult.latencyMs.p99, bareResult.latencyMs.p99),
      },
      responseBytes: Buffer.byteLength(body),
    };
  } finally {
    await bare.stop();
    fs.rmSync(path.dirname(bodyFile), { recursive: true, force: true });
  }
}
