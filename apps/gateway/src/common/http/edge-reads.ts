import { Injectable } from '@nestjs/common';
import { countEdgeAnswer } from '@swapgw/runtime';
import { ApiKeyAuthenticator } from '../../auth/api-key.authenticator';
import { bearerKeyOf } from '../../auth/api-key';
import { applyRateLimitHeaders } from '../../rate-limit/rate-limit.guard';
import { RateLimiter } from '../../rate-limit/rate-limiter.service';
import { apiMetaOf } from '../envelope/api-meta';
import type { GatewayReply, GatewayRequest } from './gateway-request';

/** Distinct URLs remembered (catalog pages: a few hundred tokens at most each). */
const MAX_REMEMBERED = 1_000;

interface RememberedAnswer {
  /** The handler's result as JSON: the envelope's `data`. */
  dataJson: string;
  expiresAtMs: number;
}

/**
 * The edge of cached reads: a GET whose answer the gateway holds already (the catalog's, within
 * its cache TTL) is answered in the first Fastify hook, before Nest's router, guards, pipes and
 * interceptors, which cost most of such a request. It is the same answer the full path gives:
 * the same authentication (a key the authenticator's cache knows as valid), the same rate limit
 * (counted once, with its headers), the same envelope and headers; anything else (a key not in the
 * cache, a key known to be invalid, a request over the limit, an answer not held or expired) goes
 * the full path, which answers it and its errors as always.
 *
 * Only for answers that do not depend on who asks (the catalog): `remember` is called by the
 * routes that know that, with the time their answer stops being fresh.
 */
@Injectable()
export class EdgeReads {
  private readonly answers = new Map<string, RememberedAnswer>();

  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly limiter: RateLimiter,
  ) {}

  /** Remembers the 200 answer of GET `url` (path and query string as sent) until `expiresAtMs`. */
  remember(url: string, data: unknown, expiresAtMs: number, nowMs = Date.now()): void {
    if (expiresAtMs <= nowMs) return;
    this.answers.delete(url);
    if (this.answers.size >= MAX_REMEMBERED) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(url, { dataJson: JSON.stringify(data ?? null), expiresAtMs });
  }

  /** Answers the request when it can (true); otherwise leaves it to the full path (false). */
  tryAnswer(request: GatewayRequest, reply: GatewayReply): boolean {
    if (request.method !== 'GET') return false;
    const answer = this.answers.get(request.url);
    if (!answer) return false;
    const nowMs = Date.now();
    if (answer.expiresAtMs <= nowMs) {
      this.answers.delete(request.url);
      return false;
    }
    const key = bearerKeyOf(request.headers.authorization);
    const principal = key ? this.authenticator.cached(key) : undefined;
    if (!principal) return false;
    request.owner = principal.owner;
    request.apiKeyId = principal.apiKeyId;
    const decision = this.limiter.consume(principal.apiKeyId, nowMs);
    request.rateLimitDecision = decision;
    if (!decision.allowed) return false;
    applyRateLimitHeaders(reply, decision);
    reply.header('content-type', 'application/json; charset=utf-8');
    void reply.send(`{"data":${answer.dataJson},"meta":${JSON.stringify(apiMetaOf(request))}}`);
    countEdgeAnswer(request.routeOptions.url);
    return true;
  }

  get size(): number {
    return this.answers.size;
  }
}
