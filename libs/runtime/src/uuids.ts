import { createHash, randomBytes } from 'node:crypto';

// How the suite makes identifiers, all of them UUIDs (RFC 9562):
//  - random ones (events, requests, deliveries): node's `randomUUID()` (version 4);
//  - ones that sort by creation time (quotes, routes, limit orders): `timeOrderedUuid` (version 7);
//  - ones a retry must find again (a swap from its idempotency key): `nameBasedUuid` (version 5).

/**
 * UUID version 5 (RFC 9562, SHA-1 name-based) of `name` in `namespace`: the same name always gives
 * the same id, which is how retries find the swap they started.
 */
export function nameBasedUuid(namespace: string, name: string): string {
  const namespaceBytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (namespaceBytes.length !== 16) throw new Error(`not a UUID namespace: ${namespace}`);
  const bytes = createHash('sha1')
    .update(namespaceBytes)
    .update(Buffer.from(name, 'utf8'))
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * UUID version 7 (RFC 9562): the 48-bit Unix time in milliseconds, then 74 random bits, so ids sort
 * by the millisecond they were made in (what ULIDs gave) and are unique without coordination.
 * `nowMs` is the caller's Clock time, so an id sorts with the rest of what that decision stamped.
 */
export function timeOrderedUuid(nowMs: number): string {
  if (!Number.isSafeInteger(nowMs) || nowMs < 0 || nowMs >= 2 ** 48)
    throw new Error(`not a Unix time in ms: ${nowMs}`);
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
