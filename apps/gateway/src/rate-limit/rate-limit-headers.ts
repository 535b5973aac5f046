import type { GatewayReply } from '../common/http/gateway-request';
import type { RateLimitDecision } from './fixed-window';

/** The RateLimit-* headers of a decision as name/value pairs, for a raw `writeHead`. */
export const rateLimitHeaderPairs = (decision: RateLimitDecision): string[] => [
  'ratelimit-limit',
  String(decision.limit),
  'ratelimit-remaining',
  String(decision.remaining),
  'ratelimit-reset',
  String(decision.resetSeconds),
];

/** The RateLimit-* headers of a decision, on successes and errors alike. */
export function applyRateLimitHeaders(reply: GatewayReply, decision: RateLimitDecision): void {
  const pairs = rateLimitHeaderPairs(decision);
  for (let i = 0; i < pairs.length; i += 2) reply.header(pairs[i], pairs[i + 1]);
}
