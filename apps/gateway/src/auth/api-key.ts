import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key format: `sgw_` + 32 random bytes in base64url (43 characters). The first 8 characters
 * after `sgw_` are the public prefix (shown in listings, used to find the row); only the SHA-256 of
 * the whole key is stored.
 */
export const API_KEY_PREFIX = 'sgw_';
const API_KEY_FORMAT = /^sgw_[A-Za-z0-9_-]{43}$/;
const PUBLIC_PREFIX_LENGTH = 8;

export interface GeneratedApiKey {
  key: string;
  prefix: string;
  keyHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: publicPrefixOf(key), keyHash: hashApiKey(key) };
}

export const isWellFormedApiKey = (value: string): boolean => API_KEY_FORMAT.test(value);

export const publicPrefixOf = (key: string): string =>
  key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + PUBLIC_PREFIX_LENGTH);

/** One-shot `crypto.hash`: a third of the cost of a Hash object per request. */
export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

/** Constant-time comparison of two SHA-256 hex digests (the stored one and the presented one). */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}

/** The key of an `Authorization: Bearer <key>` header, or null when the header is absent or malformed. */
export function bearerKeyOf(authorization: string | string[] | undefined): string | null {
  if (typeof authorization !== 'string') return null;
  const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
  if (!match || !isWellFormedApiKey(match[1])) return null;
  return match[1];
}
