import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import type { GatewayReply, GatewayRequest } from '../common/http/gateway-request';
import { applyRateLimitHeaders } from './rate-limit-headers';
import { RateLimiter } from './rate-limiter.service';

/**
 * Runs after ApiKeyGuard (registered after it): counts every authenticated request, polling
 * included, and sets the RateLimit-* headers on the reply before the handler runs, so that they are
 * present on successes and errors alike. A request the edge of cached reads already counted (and
 * did not answer) is decided as the edge decided it: counted once.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<GatewayRequest>();
    if (!request.apiKeyId) return true; // public route
    const decision = request.rateLimitDecision ?? this.limiter.consume(request.apiKeyId); // from memory: no database round trip
    const reply = http.getResponse<GatewayReply>();
    applyRateLimitHeaders(reply, decision);
    if (!decision.allowed) {
      reply.header('Retry-After', String(decision.resetSeconds));
      throw new CodedError(ErrorCodes.RATE_LIMITED, 'Too many requests for this API key', {
        limit: decision.limit,
        retryAfterSeconds: decision.resetSeconds,
      });
    }
    return true;
  }
}
