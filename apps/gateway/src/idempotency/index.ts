export * from './idempotent.decorator';
export * from './idempotency-key';
export * from './request-fingerprint';
export { IdempotencyRepository } from './idempotency.repository';
