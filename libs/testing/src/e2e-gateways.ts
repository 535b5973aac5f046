/**
 * The gateway instances the e2e global setup started (libs/testing/src/jest/e2e-global-setup.ts):
 * GATEWAY_URL is the first, GATEWAY_URLS lists every one. A suite that needs them fails loudly
 * when they are missing, rather than skipping or quietly talking to one instance twice.
 */
const RUN_THROUGH_E2E = 'run it through the e2e project (npm test, or tools/stack/test.mjs --only e2e)';

/** http://127.0.0.1:<port>/api/v1 of the first gateway instance. */
export function e2eGatewayUrl(source: Record<string, string | undefined> = process.env): string {
  const url = source.GATEWAY_URL;
  if (!url)
    throw new Error(`GATEWAY_URL is not set: ${RUN_THROUGH_E2E}, whose global setup starts the stack`);
  return url;
}

/**
 * Two gateway instances, for suites that prove one instance answers what another was asked
 * (polls, SSE streams, rate limits across instances). Fewer than two is an error, not a fallback.
 */
export function e2eGatewayPair(source: Record<string, string | undefined> = process.env): [string, string] {
  const urls = (source.GATEWAY_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  if (urls.length < 2)
    throw new Error(
      `GATEWAY_URLS names ${urls.length} gateway instance(s), this suite needs two: ${RUN_THROUGH_E2E} with E2E_GATEWAY_INSTANCES unset or at least 2`,
    );
  return [urls[0], urls[1]];
}
