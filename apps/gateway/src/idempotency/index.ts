export * from './idempotent.decorator';
export * from './idempotency-key';
export * from './request-fingerprint';
export { IdempotentResponseRepository } from './idempotent-response.repository';
