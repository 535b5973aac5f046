export * from './address-formats';
export * from './boolean-query';
export * from './decimal-amount';
export * from './decorators';
export * from './validation-pipe';
export { isValidIdempotencyKey } from '../../idempotency/idempotency-key';
