import { canonicalFingerprint } from '@swapgw/runtime';

/** SHA-256 hex of the canonical body and path parameters: what "the same request" means. */
export function requestFingerprint(body: unknown, params: Record<string, string> | undefined): string {
  return canonicalFingerprint({ body: body ?? null, params: params ?? {} });
}
