import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { OtlpReceiver, startOtlpReceiver } from '../otlp-receiver';
import { startStack, Stack } from '../stack';
import { repoRoot, testEnv } from '../test-env';

declare global {
  // Shared with e2e-global-teardown.ts, which jest runs in the same process.
  var __SWAPGW_E2E_STACK__: Stack | undefined;
  var __SWAPGW_E2E_OTLP__: OtlpReceiver | undefined;
}

/**
 * jest globalSetup of the e2e project: builds (unless SWAPGW_SKIP_BUILD=1, set by `npm test` which
 * has just built), starts the five apps once for all e2e suites against the infrastructure of
 * KAFKA_BROKERS / DATABASE_URL / DEVNET_MANIFEST, and exports their addresses to the test files:
 *   GATEWAY_URL            http://127.0.0.1:<port>/api/v1 of the first gateway instance
 *   GATEWAY_URLS           comma-separated, one per gateway instance (E2E_GATEWAY_INSTANCES, default 2)
 *   GATEWAY_METRICS_URL    http://127.0.0.1:<METRICS_PORT>/metrics of the first gateway instance
 *   GATEWAY_METRICS_URLS   comma-separated, one per gateway instance, in the order of GATEWAY_URLS
 *   <APP>_HEALTH_URL       e.g. QUOTE_SERVICE_HEALTH_URL
 *   OTLP_SPANS_FILE        the spans every app exported to the local OTLP receiver (JSON lines):
 *                          the apps run with OTEL_EXPORTER_OTLP_ENDPOINT pointing at it
 *   OTLP_METRICS_FILE      the metrics every app exported to it (every 2 s), likewise
 */
/** The API key owner the e2e stack gives no gas budget (see swap-gasless.e2e-spec.ts). */
export const E2E_OWNER_WITHOUT_GAS_BUDGET = 'gasless-e2e-no-budget';

export default async function e2eGlobalSetup(): Promise<void> {
  if (process.env.SWAPGW_SKIP_BUILD !== '1') {
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'tools', 'build', 'build.mjs')], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('build failed');
  }
  // Every app traces to a local OTLP receiver, so that tests can follow a request across them.
  const spansFile = path.join(testEnv().runDir, 'otlp-spans.jsonl');
  const metricsFile = path.join(testEnv().runDir, 'otlp-metrics.jsonl');
  globalThis.__SWAPGW_E2E_OTLP__ = await startOtlpReceiver(spansFile, metricsFile);
  process.env.OTLP_SPANS_FILE = spansFile;
  process.env.OTLP_METRICS_FILE = metricsFile;
  process.env.OTEL_METRIC_EXPORT_INTERVAL ??= '2000';
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = globalThis.__SWAPGW_E2E_OTLP__.endpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY ??= '200';
  const stack = await startStack({
    gatewayInstances: Number(process.env.E2E_GATEWAY_INSTANCES || 2),
    skipMissing: true,
    // An owner whose daily gas budget is 1 wei: swap-gasless.e2e-spec.ts shows the 503 it gets.
    appEnv: {
      'signer-surface': {
        SPONSORSHIP_BUDGET_OVERRIDES: JSON.stringify({ [E2E_OWNER_WITHOUT_GAS_BUDGET]: '1' }),
      },
    },
  });
  globalThis.__SWAPGW_E2E_STACK__ = stack;
  if (stack.gatewayUrl) process.env.GATEWAY_URL = stack.gatewayUrl;
  process.env.GATEWAY_URLS = stack.gatewayUrls.join(',');
  if (stack.gatewayMetricsUrls[0]) process.env.GATEWAY_METRICS_URL = stack.gatewayMetricsUrls[0];
  process.env.GATEWAY_METRICS_URLS = stack.gatewayMetricsUrls.join(',');
  for (const handle of stack.handles) {
    if (handle.app === 'gateway') continue;
    process.env[`${handle.app.toUpperCase().replace(/-/g, '_')}_HEALTH_URL`] = handle.baseUrl;
  }
}
