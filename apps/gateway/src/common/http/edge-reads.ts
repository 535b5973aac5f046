import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Clock, countEdgeAnswer, observeHttpRequest } from '@swapgw/runtime';
import { ApiKeyAuthenticator } from '../../auth/api-key.authenticator';
import { bearerKeyOf } from '../../auth/api-key';
import type { RateLimitDecision } from '../../rate-limit/fixed-window';
import { rateLimitHeaderPairs } from '../../rate-limit/rate-limit-headers';
import { RateLimiter } from '../../rate-limit/rate-limiter.service';
import { apiMetaJson } from '../envelope/api-meta';
import { startRequestTrace } from './request-trace';
import { RouteTemplate } from './route-template';

/** Distinct URLs remembered (catalog pages: a few hundred tokens at most each). */
const MAX_REMEMBERED = 1_000;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What an answerer gives for a request it can answer from memory: the status and the envelope's `data`. */
export interface EdgeAnswer {
  statusCode: number;
  data: unknown;
}

/**
 * A route's answers for one owner, held in memory. `answer` returns exactly what the full path
 * would answer for `owner`, or undefined whenever it does not know that for certain (the full path
 * then answers). It must not have side effects: the request may still be refused by the limiter.
 * Answerers see only URLs without a query string.
 */
export interface EdgeAnswerer {
  /** The route as Fastify knows it, e.g. `/api/v1/swap/:swapId/signing` (GET only). */
  readonly route: string;
  /** `params`: the route's parameters as they appear in the path (never percent-encoded). */
  answer(params: Readonly<Record<string, string>>, owner: string, nowMs: number): EdgeAnswer | undefined;
}

/** What the edge learnt of a request it counted and then left to the full path (over the limit). */
export interface EdgeHandover {
  owner: string;
  apiKeyId: string;
  rateLimitDecision: RateLimitDecision;
}

interface RememberedAnswer {
  /** The route template, for the metrics' label. */
  route: string;
  /** The handler's result as JSON: the envelope's `data`. */
  dataJson: string;
  expiresAtMs: number;
}

interface CompiledAnswerer {
  answerer: EdgeAnswerer;
  template: RouteTemplate;
}

/**
 * The edge of cached reads: a GET whose answer the gateway holds already (the catalog's, within
 * its cache TTL) is answered by the HTTP server's request listener itself, before Fastify's router,
 * hooks and reply and before Nest's guards, pipes and interceptors, which cost most of such a
 * request. It is the same answer the full path gives: the same authentication (a key the
 * authenticator's cache knows as valid), the same rate limit (counted once, with its headers), the
 * same request id and traceparent, the same envelope and headers, the same metrics; anything else
 * (a key not in the cache, a key known to be invalid, a request over the limit, an answer not held
 * or expired, a path not in its canonical form, the server shutting down) goes the full path, which
 * answers it and its errors as always.
 *
 * Two kinds of answers:
 * - answers that do not depend on who asks (the catalog): `remember` is called by the routes that
 *   know that, with the time their answer stops being fresh;
 * - answers for one owner that a feature holds in memory already (a swap's signing poll, from the
 *   swap views kept exact by notifications): the feature registers an `EdgeAnswerer` for its route,
 *   consulted once the key is known valid and before the request is counted.
 */
@Injectable()
export class EdgeReads implements OnModuleDestroy {
  private readonly logger = new Logger(EdgeReads.name);
  private readonly answers = new Map<string, RememberedAnswer>();
  private readonly answerers: CompiledAnswerer[] = [];
  private readonly handovers = new WeakMap<IncomingMessage, EdgeHandover>();
  private closing = false;

  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  /** Remembers the 200 answer of GET `url` (path and query string as sent) of `route` until `expiresAtMs`. */
  remember(url: string, route: string, data: unknown, expiresAtMs: number, nowMs = this.clock.nowMs()): void {
    if (expiresAtMs <= nowMs) return;
    this.answers.delete(url);
    if (this.answers.size >= MAX_REMEMBERED) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(url, { route, dataJson: JSON.stringify(data ?? null), expiresAtMs });
  }

  /** Lets `answerer` answer GETs of its route from memory. */
  addAnswerer(answerer: EdgeAnswerer): void {
    this.answerers.push({ answerer, template: new RouteTemplate(answerer.route) });
  }

  /** From now on every request goes the full path, which answers 503 while the server closes. */
  onModuleDestroy(): void {
    this.closing = true;
  }

  /**
   * Answers the request on `response` when it can (true); otherwise leaves both untouched for the
   * full path (false). Never throws: a failure here leaves the request to the full path.
   */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || this.closing) return false;
    try {
      return this.answer(request, response);
    } catch (error) {
      this.logger.error({
        msg: 'edge answer failed; the full path answers',
        error: (error as Error).message,
      });
      return false;
    }
  }

  /** What the edge decided for a request it counted and left to the full path, once. */
  takeHandover(request: IncomingMessage): EdgeHandover | undefined {
    const handover = this.handovers.get(request);
    if (handover) this.handovers.delete(request);
    return handover;
  }

  get size(): number {
    return this.answers.size;
  }

  private answer(request: IncomingMessage, response: ServerResponse): boolean {
    const startedAt = performance.now();
    const url = request.url ?? '';
    const nowMs = this.clock.nowMs();
    const held = this.rememberedFor(url, nowMs) ?? this.answererFor(url);
    if (!held) return false;
    const key = bearerKeyOf(request.headers.authorization);
    const principal = key ? this.authenticator.cached(key) : undefined;
    if (!principal) return false;

    let route: string;
    let statusCode = 200;
    let dataJson: string;
    if ('dataJson' in held) {
      route = held.route;
      dataJson = held.dataJson;
    } else {
      const answer = held.answerer.answer(held.params, principal.owner, nowMs);
      if (!answer) return false;
      route = held.answerer.route;
      statusCode = answer.statusCode;
      dataJson = JSON.stringify(answer.data ?? null);
    }
    const decision = this.limiter.consume(principal.apiKeyId, nowMs);
    if (!decision.allowed) {
      // The full path answers 429 with this decision: the request is counted once.
      this.handovers.set(request, {
        owner: principal.owner,
        apiKeyId: principal.apiKeyId,
        rateLimitDecision: decision,
      });
      return false;
    }

    const traced = startRequestTrace('GET', route, request.headers);
    const body = `{"data":${dataJson},"meta":${apiMetaJson(traced.context.requestId, nowMs)}}`;
    response.writeHead(statusCode, [
      'x-request-id',
      traced.context.requestId,
      'traceparent',
      traced.context.traceparent,
      ...rateLimitHeaderPairs(decision),
      'content-type',
      JSON_CONTENT_TYPE,
      'content-length',
      String(Buffer.byteLength(body)),
    ]);
    response.end(body);
    observeHttpRequest({
      method: 'GET',
      routeTemplate: route,
      statusCode,
      durationSeconds: (performance.now() - startedAt) / 1000,
    });
    countEdgeAnswer(route);
    traced.end?.(undefined, { 'http.response.status_code': statusCode });
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

  /**
   * The answerer whose route matches `url` exactly, with its parameters. Only canonical paths match
   * (no query string, no percent-encoding, no empty segment): Fastify's router answers the rest.
   */
  private answererFor(url: string): { answerer: EdgeAnswerer; params: Record<string, string> } | undefined {
    if (this.answerers.length === 0 || url.includes('?') || url.includes('%')) return undefined;
    for (const { answerer, template } of this.answerers) {
      const params = template.match(url);
      if (params) return { answerer, params };
    }
    return undefined;
  }
}
