import { NoRouteError } from '../providers/no-route.error';
import type { CandidateRoute, QuoteContext, QuoteProvider } from '../providers/quote-provider';

export type ProviderStatus = 'ok' | 'no-route' | 'failed' | 'timed-out';

export interface ProviderOutcome {
  provider: string;
  status: ProviderStatus;
  routes: number;
  elapsedMs: number;
  reason?: string;
}

export interface GatheredRoutes {
  routes: CandidateRoute[];
  outcomes: ProviderOutcome[];
  /** Providers that cover the request (asked); 0 means no provider trades these chains. */
  asked: number;
}

/**
 * Asks every provider that covers the request, in parallel, each under the same deadline. A slow
 * provider is aborted and skipped; a failing one is skipped; both are reported in the outcomes.
 */
export async function gatherRoutes(
  providers: QuoteProvider[],
  context: QuoteContext,
  timeoutMs: number,
): Promise<GatheredRoutes> {
  const applicable = providers.filter((p) => p.applies(context));
  const results = await Promise.all(applicable.map((provider) => askOne(provider, context, timeoutMs)));
  return {
    routes: results.flatMap((r) => r.routes),
    outcomes: results.map((r) => r.outcome),
    asked: applicable.length,
  };
}

async function askOne(
  provider: QuoteProvider,
  context: QuoteContext,
  timeoutMs: number,
): Promise<{ routes: CandidateRoute[]; outcome: ProviderOutcome }> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs} ms`);
      error.name = 'ProviderTimeout';
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const outcome = (status: ProviderStatus, routes: number, reason?: string): ProviderOutcome => ({
    provider: provider.name,
    status,
    routes,
    elapsedMs: Date.now() - started,
    ...(reason ? { reason } : {}),
  });
  try {
    const routes = await Promise.race([provider.quote(context, controller.signal), deadline]);
    return { routes, outcome: outcome(routes.length > 0 ? 'ok' : 'no-route', routes.length) };
  } catch (error) {
    if (error instanceof NoRouteError) return { routes: [], outcome: outcome('no-route', 0, error.message) };
    const timedOut = controller.signal.aborted;
    return {
      routes: [],
      outcome: outcome(timedOut ? 'timed-out' : 'failed', 0, (error as Error)?.message ?? String(error)),
    };
  } finally {
    clearTimeout(timer);
  }
}
