import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` are the
 * same request. `undefined` members are dropped as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 hex of the canonical body and path parameters: what "the same request" means. */
export function requestFingerprint(body: unknown, params: Record<string, string> | undefined): string {
  return createHash('sha256')
    .update(canonicalJson({ body: body ?? null, params: params ?? {} }))
    .digest('hex');
}
