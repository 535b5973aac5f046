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
    const bareResult = await load(
      bareChains,
      headers,
      options.connections,
      options.durationSeconds,
      bare.process.pid,
    );
    const gatewayResult = await load(
      gatewayChains,
      headers,
      options.connections,
      options.durationSeconds,
      options.gatewayPid,
    );
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
