import type { TokenRef, UnavailableRouteReason } from '@swapgw/contracts';

/** The reasons a provider that answered gives for having no route (a failure is PROVIDER_UNAVAILABLE). */
export type NoRouteReason = Exclude<UnavailableRouteReason, 'PROVIDER_UNAVAILABLE'>;

/** A provider's bound on the amount, in base units of `token` (the token the limit applies to). */
export interface NoRouteBounds {
  token: Pick<TokenRef, 'chain' | 'symbol' | 'decimals'>;
  minAmount?: bigint;
  maxAmount?: bigint;
}

/**
 * Thrown by a provider that answered but has no route for the request: not a failure. `reason` is
 * the stable code the quote shows in `unavailableRoutes`; the message is for people.
 */
export class NoRouteError extends Error {
  constructor(
    readonly reason: NoRouteReason,
    message: string,
    readonly bounds?: NoRouteBounds,
  ) {
    super(message);
    this.name = 'NoRouteError';
  }
}

/** Most telling first: a bound the wallet can act on beats "no liquidity", which beats "not supported". */
const REASON_PRIORITY: NoRouteReason[] = [
  'AMOUNT_TOO_LOW',
  'AMOUNT_TOO_HIGH',
  'SLIPPAGE_TOO_LOW',
  'INTEGRATOR_FEE_NOT_SUPPORTED',
  'NO_LIQUIDITY',
  'TOKEN_NOT_SUPPORTED',
  'PAIR_NOT_SUPPORTED',
];

/**
 * One NoRouteError for several ways a provider tried (e.g. each token Across could bridge): the
 * most telling reason with its bounds, the messages of all.
 */
export function mostTellingNoRoute(errors: NoRouteError[]): NoRouteError {
  const [first] = [...errors].sort(
    (a, b) => REASON_PRIORITY.indexOf(a.reason) - REASON_PRIORITY.indexOf(b.reason),
  );
  if (errors.length === 1) return first;
  return new NoRouteError(first.reason, errors.map((error) => error.message).join('; '), first.bounds);
}
