import { Injectable, OnModuleInit } from '@nestjs/common';
import { EdgeAnswer, EdgeAnswerer, EdgeReads } from '../common/http/edge-reads';
import { plainSigningAnswerOf } from './swap-responses';
import { SwapViewChanges } from './swap-view-changes';

/** The signing poll's route as Fastify registers it (global prefix included). */
export const SIGNING_POLL_ROUTE = '/api/v1/swap/:swapId/signing';

/**
 * Signing polls answered at the edge: a swap's poll whose view this instance holds in its swap view
 * cache (exact while LISTEN is in place: every change of the row drops it) is answered from it,
 * before Fastify and Nest, whose router, hooks, guards and interceptors cost most of a poll. Under a flood of
 * builds, polls are most of the gateway's requests and nearly all of them find nothing changed.
 * Only answers the view alone decides (`plainSigningAnswerOf`: 200 with the payload, 202 pending)
 * and only to the swap's owner; anything else (not cached, another owner's or an unknown swap, a
 * terminal swap, an expired payload to refresh, a query string) goes the full path.
 */
@Injectable()
export class SigningPollEdge implements EdgeAnswerer, OnModuleInit {
  readonly route = SIGNING_POLL_ROUTE;

  constructor(
    private readonly edge: EdgeReads,
    private readonly changes: SwapViewChanges,
  ) {}

  onModuleInit(): void {
    this.edge.addAnswerer(this);
  }

  answer(params: Readonly<Record<string, string>>, owner: string, nowMs: number): EdgeAnswer | undefined {
    const swapId = params.swapId;
    if (!swapId) return undefined;
    const view = this.changes.cache.get(swapId, nowMs);
    if (!view || view.owner !== owner) return undefined;
    const answer = plainSigningAnswerOf(view, nowMs);
    return answer ? { statusCode: answer.httpStatus, data: answer.body } : undefined;
  }
}
