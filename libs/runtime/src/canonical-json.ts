import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` are the
 * same text (request fingerprints). `undefined` members are dropped as JSON.stringify does; an
 * `undefined` array item, or value, is `null`.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item: unknown) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * The idempotency fingerprint of the suite: SHA-256 hex of the value's canonical JSON, what "the
 * same request" means to the gateway (body and path parameters) and limit-order-service (the
 * request's terms). Stored fingerprints depend on it: it must not change.
 */
export function canonicalFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
