import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext, TracedContext } from '@swapgw/runtime';
import type { IntegratorFeeShare } from '@swapgw/contracts';
import type { RateLimitDecision } from '../../rate-limit/fixed-window';
import type { HeldIdempotencyClaim } from '../../idempotency/held-claim';

/** What the gateway attaches to each Fastify request as it passes the shell. */
declare module 'fastify' {
  interface FastifyRequest {
    /** requestId + traceparent, set by the first hook of every request. */
    requestContext: RequestContext;
    /** Ends the request's trace span when the response is sent (a no-op without tracing). */
    endTrace?: NonNullable<TracedContext['end']>;
    /** Owner resolved from the API key by ApiKeyGuard (absent on public routes). */
    owner?: string;
    apiKeyId?: string;
    /** The API key's default integrator fee (ApiKeyGuard); null: none. */
    integratorFeeDefault?: IntegratorFeeShare[] | null;
    /** The rate limit's decision, when the edge of cached reads counted the request already. */
    rateLimitDecision?: RateLimitDecision;
    /** Idempotency-Key used for this request (given or generated), set by @Idempotent(). */
    idempotencyKey?: string;
    /** The claim on that key while the handler runs, set by @Idempotent(). */
    idempotencyClaim?: HeldIdempotencyClaim;
  }
}

export type GatewayRequest = FastifyRequest;
export type GatewayReply = FastifyReply;
