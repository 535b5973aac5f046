/** Metadata key of @Idempotent() handlers, read by IdempotencyInterceptor. */
export const IDEMPOTENT_ROUTE = 'gateway:idempotent-route';

export interface IdempotentOptions {
  /** true: a request without Idempotency-Key is a 400; false: one is generated and returned. */
  required: boolean;
}
