export * from './idempotent.decorator';
export * from './idempotency-key';
export * from './request-fingerprint';
export { IdempotencyStore } from './idempotency.store';
