import { baseUnitsToAmount } from '@swapgw/chains';
import type { UnavailableRoute, UnavailableRouteDetails } from '@swapgw/contracts';
import { NoRouteError } from '../providers/no-route.error';
import type { CandidateRoute, QuoteContext, QuoteProvider } from '../providers/quote-provider';

export type ProviderStatus = 'ok' | 'no-route' | 'failed' | 'timed-out';

export interface ProviderOutcome {
  provider: string;
  status: ProviderStatus;
  routes: number;
  elapsedMs: number;
  reason?: string;
  /** Without a route: what the quote's `unavailableRoutes` says of this provider. */
  unavailable?: UnavailableRoute;
}

export interface GatheredRoutes {
  routes: CandidateRoute[];
  outcomes: ProviderOutcome[];
  /** Providers that cover the request (asked); 0 means no provider trades these chains. */
  asked: number;
  /** Providers that do not cover the request's chains (not asked). */
  notApplicable: string[];
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
    notApplicable: providers.filter((p) => !applicable.includes(p)).map((p) => p.name),
  };
}

/**
 * The provider's routes; a NoRouteError without asking it when it cannot pay the request's
 * integrator fee: a fee to a THORChain affiliate (a THORName or thor1 address) is paid only by
 * THORChain's memo.
 */
function quoteOrRefuse(
  provider: QuoteProvider,
  context: QuoteContext,
  signal: AbortSignal,
): Promise<CandidateRoute[]> {
  const affiliate = context.integratorFee?.charges.find((charge) => charge.thorchainAffiliate);
  if (affiliate !== undefined && !provider.paysThorchainAffiliates)
    throw new NoRouteError(
      'INTEGRATOR_FEE_NOT_SUPPORTED',
      `${provider.name}: integratorFee recipient ${affiliate.recipient} is a THORChain affiliate, which only THORChain routes pay`,
    );
  return provider.quote(context, signal);
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
  const outcome = (
    status: ProviderStatus,
    routes: number,
    reason?: string,
    unavailable?: Omit<UnavailableRoute, 'provider'>,
  ): ProviderOutcome => ({
    provider: provider.name,
    status,
    routes,
    elapsedMs: Date.now() - started,
    ...(reason ? { reason } : {}),
    ...(unavailable ? { unavailable: { provider: provider.name, ...unavailable } } : {}),
  });
  try {
    const routes = await Promise.race([quoteOrRefuse(provider, context, controller.signal), deadline]);
    if (routes.length > 0) return { routes, outcome: outcome('ok', routes.length) };
    const message = `${provider.name}: no route for this pair and amount`;
    return {
      routes,
      outcome: outcome('no-route', 0, message, { reason: 'NO_LIQUIDITY', details: { message } }),
    };
  } catch (error) {
    if (error instanceof NoRouteError)
      return {
        routes: [],
        outcome: outcome('no-route', 0, error.message, {
          reason: error.reason,
          details: noRouteDetails(error),
        }),
      };
    const timedOut = controller.signal.aborted;
    // The failure itself stays in the logs and debug: it may name internal hosts.
    const details = { message: timedOut ? `no answer within ${timeoutMs} ms` : 'the provider failed' };
    return {
      routes: [],
      outcome: outcome(timedOut ? 'timed-out' : 'failed', 0, (error as Error)?.message ?? String(error), {
        reason: 'PROVIDER_UNAVAILABLE',
        details,
      }),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A NoRouteError's public details: its message, and its bounds in human units of their token. */
export function noRouteDetails(error: NoRouteError): UnavailableRouteDetails {
  const details: UnavailableRouteDetails = { message: error.message.slice(0, 500) };
  const bounds = error.bounds;
  if (!bounds) return details;
  if (bounds.minAmount !== undefined)
    details.minAmount = baseUnitsToAmount(bounds.minAmount, bounds.token.decimals);
  if (bounds.maxAmount !== undefined)
    details.maxAmount = baseUnitsToAmount(bounds.maxAmount, bounds.token.decimals);
  if (details.minAmount !== undefined || details.maxAmount !== undefined) {
    details.token = bounds.token.symbol;
    details.chain = bounds.token.chain;
  }
  return details;
}
