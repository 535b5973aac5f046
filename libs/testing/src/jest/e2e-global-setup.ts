import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startStack, Stack } from '../stack';
import { repoRoot } from '../test-env';

declare global {
  // Shared with e2e-global-teardown.ts, which jest runs in the same process.
  var __SWAPGW_E2E_STACK__: Stack | undefined;
}

/**
 * jest globalSetup of the e2e project: builds (unless SWAPGW_SKIP_BUILD=1, set by `npm test` which
 * has just built), starts the five apps once for all e2e suites against the infrastructure of
 * KAFKA_BROKERS / DATABASE_URL / DEVNET_MANIFEST, and exports their addresses to the test files:
 *   GATEWAY_URL            http://127.0.0.1:<port>/api/v1 of the first gateway instance
 *   GATEWAY_URLS           comma-separated, one per gateway instance (E2E_GATEWAY_INSTANCES, default 2)
 *   <APP>_HEALTH_URL       e.g. QUOTE_SERVICE_HEALTH_URL
 */
export default async function e2eGlobalSetup(): Promise<void> {
  if (process.env.SWAPGW_SKIP_BUILD !== '1') {
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'tools', 'build', 'build.mjs')], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('build failed');
  }
  const stack = await startStack({
    gatewayInstances: Number(process.env.E2E_GATEWAY_INSTANCES || 2),
    skipMissing: true,
  });
  globalThis.__SWAPGW_E2E_STACK__ = stack;
  if (stack.gatewayUrl) process.env.GATEWAY_URL = stack.gatewayUrl;
  process.env.GATEWAY_URLS = stack.gatewayUrls.join(',');
  for (const handle of stack.handles) {
    if (handle.app === 'gateway') continue;
    process.env[`${handle.app.toUpperCase().replace(/-/g, '_')}_HEALTH_URL`] = handle.baseUrl;
  }
}
