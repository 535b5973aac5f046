export * from './idempotent.decorator';
export * from './idempotency-key';
export * from './request-fingerprint';
export { HeldIdempotencyClaim } from './held-claim';
export { completionsOf, IdempotentResponseRepository } from './idempotent-response.repository';
export type {
  ClaimCompletion,
  ClaimRead,
  CompletionTerms,
  ReadWithClaim,
} from './idempotent-response.repository';
