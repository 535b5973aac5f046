import { randomBytes } from 'node:crypto';
import { ErrorCatalog } from '@swapgw/contracts';
import { ApiResponse, Stack, waitFor } from '@swapgw/testing';

// Assertions and waits shared by the fault suites (outages, kafka-proxy). The swap steps they take
// (quote, build, signing poll) are support/swap-steps.ts's.

/** An ApiError body whose code is in the catalog with the status the response has. */
export function expectApiError(res: ApiResponse, status: number): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({
    error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    meta: { requestId: expect.any(String), timestamp: expect.any(String) },
  });
  const code = res.body.error.code as keyof typeof ErrorCatalog;
  expect(Object.keys(ErrorCatalog)).toContain(code);
  expect(ErrorCatalog[code].status).toBe(status);
}

/** A call made during a fault: accepted (200/202), or refused with a 503 ApiError; never a 500. */
export function expectAcceptedOrUnavailable(res: ApiResponse): void {
  if (res.status === 503) expectApiError(res, 503);
  else expect([200, 202]).toContain(res.status);
}

/** A quote during a fault: 200, or 502 QUOTE_UPSTREAM_FAILED (the spec's answer when the quote service is unavailable). */
export function expectQuoteOrUpstreamFailed(res: ApiResponse): void {
  if (res.status === 200) return;
  expectApiError(res, 502);
  expect(res.body.error.code).toBe('QUOTE_UPSTREAM_FAILED');
}

export async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3000) })).status === 200;
  } catch {
    return false;
  }
}

/** Every app of the stack answers ready again by itself (no restart) within the bound. */
export async function stackReady(stack: Stack, timeoutMs = 120_000): Promise<void> {
  await Promise.all(
    stack.handles.map((handle) =>
      waitFor(() => isReady(handle.healthUrl), {
        timeoutMs,
        intervalMs: 500,
        description: `${handle.app} ready again by itself`,
      }),
    ),
  );
}

/** Retries a call as a client retries a 503 (same Idempotency-Key) until it is accepted. */
export async function untilAccepted(
  call: () => Promise<ApiResponse>,
  description: string,
): Promise<ApiResponse> {
  return waitFor(
    async () => {
      const res = await call();
      if (res.status === 200 || res.status === 202) return res;
      // Thrown, so that a timeout names the last answer (status and ApiError).
      throw new Error(`answered ${res.status} ${JSON.stringify(res.body?.error ?? res.body)}`);
    },
    { timeoutMs: 120_000, intervalMs: 1000, description },
  );
}

/** A database of its own for a fault stack: `swapgw_<label>_<random>` on the test run's server. */
export function privateDatabaseUrl(label: string, databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/swapgw_${label}_${randomBytes(4).toString('hex')}`;
  return url.toString();
}
