import { createHash } from 'node:crypto';

/** UUID namespace of swap ids (random, fixed forever: changing it would re-key every retry). */
const SWAP_ID_NAMESPACE = '6f0d8a52-3c41-4b8e-9a57-2d1f4e7c9b30';

/**
 * The swapId of a build: UUID v5 (RFC 4122, SHA-1 name-based) of owner + Idempotency-Key. A retry
 * with the same key, even after a gateway crash that lost the idempotency record's response, maps
 * to the same swap at the planner, which answers it instead of building a second one.
 */
export function swapIdOf(owner: string, idempotencyKey: string): string {
  const namespace = Buffer.from(SWAP_ID_NAMESPACE.replace(/-/g, ''), 'hex');
  const name = Buffer.from(`${owner}\u0000${idempotencyKey}`, 'utf8');
  const hash = createHash('sha1').update(namespace).update(name).digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
