import { CodedError, ErrorCodes, LIMIT_ORDER_MAX_LIFETIME_MS, TimeInForce } from '@swapgw/contracts';

export interface ExpiryTerms {
  timeInForce?: TimeInForce;
  expiresAtMs?: number;
  expireAfterMs?: number;
}

export interface ResolvedExpiry {
  timeInForce: TimeInForce;
  expiresAtMs: number;
}

/**
 * Decides an order's time in force and expiry (the spec leaves both open; decided here, described in
 * docs/integrator-guide.md "Time in force"):
 * - no timeInForce: GTD when an expiry field is sent, else GTC;
 * - GTC lives until canceled, at most 90 days; an expiry field with GTC is contradictory → 400;
 * - GTD needs exactly one of expiresAtMs / expireAfterMs, in the future, within 90 days;
 * - IOC and FOK are checked once at creation, so they expire at creation and take no expiry field;
 * - expiresAtMs and expireAfterMs together are ambiguous → 400 INVALID_EXPIRY whatever the mode.
 */
export function resolveExpiry(terms: ExpiryTerms, nowMs: number): ResolvedExpiry {
  const hasAbsolute = terms.expiresAtMs !== undefined && terms.expiresAtMs !== null;
  const hasRelative = terms.expireAfterMs !== undefined && terms.expireAfterMs !== null;
  if (hasAbsolute && hasRelative) {
    throw invalid('send either expiresAtMs or expireAfterMs, not both');
  }
  const timeInForce: TimeInForce = terms.timeInForce ?? (hasAbsolute || hasRelative ? 'GTD' : 'GTC');
  const latest = nowMs + LIMIT_ORDER_MAX_LIFETIME_MS;

  switch (timeInForce) {
    case 'GTC':
      if (hasAbsolute || hasRelative) throw invalid('GTC orders take no expiry; use GTD', timeInForce);
      return { timeInForce, expiresAtMs: latest };
    case 'GTD': {
      if (!hasAbsolute && !hasRelative)
        throw invalid('GTD orders need expiresAtMs or expireAfterMs', timeInForce);
      const expiresAtMs = hasAbsolute
        ? (terms.expiresAtMs as number)
        : nowMs + (terms.expireAfterMs as number);
      if (expiresAtMs <= nowMs) throw invalid('the expiry is in the past', timeInForce);
      if (expiresAtMs > latest) throw invalid('the expiry is more than 90 days away', timeInForce);
      return { timeInForce, expiresAtMs };
    }
    case 'IOC':
    case 'FOK':
      if (hasAbsolute || hasRelative) {
        throw invalid(`${timeInForce} orders are checked once at creation and take no expiry`, timeInForce);
      }
      return { timeInForce, expiresAtMs: nowMs };
  }
}

function invalid(message: string, timeInForce?: TimeInForce): CodedError {
  return new CodedError(ErrorCodes.INVALID_EXPIRY, message, timeInForce ? { timeInForce } : undefined);
}
