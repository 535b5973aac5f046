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

/** What an answerer gives for a request it can answer from memory: the status and the envelope's `data`. */
export interface EdgeAnswer {
  statusCode: number;
  data: unknown;
}

/**
 * A route's answers for one owner, held in memory. `answer` returns exactly what the full path
 * would answer for `owner`, or undefined whenever it does not know that for certain (the full path
 * then answers). It must not have side effects: the request may still be refused by the limiter.
 */
export interface EdgeAnswerer {
  /** The route as Fastify knows it, e.g. `/api/v1/swap/:swapId/signing` (GET only). */
  readonly route: string;
  answer(request: GatewayRequest, owner: string, nowMs: number): EdgeAnswer | undefined;
}

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
 * Two kinds of answers:
 * - answers that do not depend on who asks (the catalog): `remember` is called by the routes that
 *   know that, with the time their answer stops being fresh;
 * - answers for one owner that a feature holds in memory already (a swap's signing poll, from the
 *   swap views kept exact by notifications): the feature registers an `EdgeAnswerer` for its route,
 *   consulted once the key is known valid and before the request is counted.
 */
@Injectable()
export class EdgeReads {
  private readonly answers = new Map<string, RememberedAnswer>();
  private readonly answerers = new Map<string, EdgeAnswerer>();

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

  /** Lets `answerer` answer GETs of its route from memory. */
  addAnswerer(answerer: EdgeAnswerer): void {
    this.answerers.set(answerer.route, answerer);
  }

  /** Answers the request when it can (true); otherwise leaves it to the full path (false). */
  tryAnswer(request: GatewayRequest, reply: GatewayReply): boolean {
    if (request.method !== 'GET') return false;
    const nowMs = Date.now();
    const remembered = this.rememberedFor(request.url, nowMs);
    const answerer = remembered ? undefined : this.answerers.get(request.routeOptions.url ?? '');
    if (!remembered && !answerer) return false;
    const key = bearerKeyOf(request.headers.authorization);
    const principal = key ? this.authenticator.cached(key) : undefined;
    if (!principal) return false;
    let statusCode = 200;
    let dataJson: string;
    if (remembered) {
      dataJson = remembered.dataJson;
    } else {
      const answer = answerer!.answer(request, principal.owner, nowMs);
      if (!answer) return false;
      statusCode = answer.statusCode;
      dataJson = JSON.stringify(answer.data ?? null);
    }
    request.owner = principal.owner;
    request.apiKeyId = principal.apiKeyId;
    const decision = this.limiter.consume(principal.apiKeyId, nowMs);
    request.rateLimitDecision = decision;
    if (!decision.allowed) return false;
    applyRateLimitHeaders(reply, decision);
    reply.code(statusCode);
    reply.header('content-type', 'application/json; charset=utf-8');
    void reply.send(`{"data":${dataJson},"meta":${JSON.stringify(apiMetaOf(request))}}`);
    countEdgeAnswer(request.routeOptions.url);
    return true;
  }

  private rememberedFor(url: string, nowMs: number): RememberedAnswer | undefined {
    const answer = this.answers.get(url);
    if (!answer) return undefined;
    if (answer.expiresAtMs <= nowMs) {
      this.answers.delete(url);
      return undefined;
    }
    return answer;
  }

  get size(): number {
    return this.answers.size;
  }
}
