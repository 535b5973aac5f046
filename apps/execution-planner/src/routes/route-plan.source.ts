import type { RoutePlan } from '@swapgw/contracts';

/**
 * Where the planner gets a route's executable plan: quote-service over `quote.requests`
 * (`quote.route.get`). Throws CodedError QUOTE_NOT_FOUND, UNKNOWN_ROUTE or QUOTE_EXPIRED as
 * quote-service answers, SERVICE_UNAVAILABLE when it does not answer in time.
 */
export interface RoutePlanSource {
  load(quoteId: string, routeId: string): Promise<RoutePlan>;
}

export const ROUTE_PLAN_SOURCE = Symbol('RoutePlanSource');
