import { nameBasedUuid } from '@swapgw/runtime';

/** UUID namespace of swap ids (random, fixed forever: changing it would re-key every retry). */
const SWAP_ID_NAMESPACE = '6f0d8a52-3c41-4b8e-9a57-2d1f4e7c9b30';

/**
 * The swapId of a build: UUID v5 (RFC 4122, SHA-1 name-based) of owner + Idempotency-Key. A retry
 * with the same key, even after a gateway crash that lost the idempotency record's response, maps
 * to the same swap at the planner, which answers it instead of building a second one.
 */
export function swapIdOf(owner: string, idempotencyKey: string): string {
  return nameBasedUuid(SWAP_ID_NAMESPACE, `${owner}\u0000${idempotencyKey}`);
}
