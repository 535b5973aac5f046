import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '@swapgw/runtime';

/** What the gateway attaches to each Fastify request as it passes the shell. */
declare module 'fastify' {
  interface FastifyRequest {
    /** requestId + traceparent, set by the first hook of every request. */
    requestContext: RequestContext;
    /** Owner resolved from the API key by ApiKeyGuard (absent on public routes). */
    owner?: string;
    apiKeyId?: string;
    /** Idempotency-Key used for this request (given or generated), set by @Idempotent(). */
    idempotencyKey?: string;
  }
}

export type GatewayRequest = FastifyRequest;
export type GatewayReply = FastifyReply;
