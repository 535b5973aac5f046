import type { GatewayRequest } from '../common/http/gateway-request';
import type { ReadWithClaim } from './idempotent-response.repository';

/** Metadata key of @Idempotent() handlers, read by IdempotencyInterceptor. */
export const IDEMPOTENT_ROUTE = 'gateway:idempotent-route';

export interface IdempotentOptions {
  /** true: a request without Idempotency-Key is a 400; false: one is generated and returned. */
  required: boolean;
  /**
   * A read of the handler's to send in the statement that claims the key (one round trip less
   * before the handler runs); its answer is the handler's `request.idempotencyClaim.readWithClaim`. Undefined
   * for a request it cannot read for (the handler then reads on its own, or its validation refuses it).
   */
  readWithClaim?: (request: GatewayRequest) => ReadWithClaim | undefined;
}
