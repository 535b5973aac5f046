import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): every delivery carries `webhook-id`,
// `webhook-timestamp` and `webhook-signature`, so any Standard Webhooks library verifies it.
/** The delivery id: one event to one webhook, the same on every retry and redelivery. */
export const DELIVERY_ID_HEADER = 'webhook-id';
/** Unix seconds of this attempt (signed: a receiver refuses one too far from its clock). */
export const TIMESTAMP_HEADER = 'webhook-timestamp';
/** Space-separated `v1,<base64 HMAC-SHA256>` signatures (one today). */
export const SIGNATURE_HEADER = 'webhook-signature';
/** Ours, not the standard's: the source event's id, the same for every webhook that receives it. */
export const EVENT_ID_HEADER = 'webhook-event-id';

const SECRET_PREFIX = 'whsec_';
/** Strict base64 (with padding), as the libraries decode it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A webhook's signing secret: `whsec_` + base64 of 32 random bytes. Shown once, at creation. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The HMAC key of a secret: the base64 decoding of what follows `whsec_`, as every Standard
 * Webhooks library reads it. Secrets made before the switch are `whsec_` + 64 hex characters: hex
 * is valid base64, so they decode to a 48-byte key and keep working unchanged (no rotation).
 */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded.length === 0 || !BASE64.test(encoded)) {
    throw new Error('a webhook secret is whsec_ followed by base64');
  }
  return Buffer.from(encoded, 'base64');
}

/** `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', webhookKey(secret)).update(`${id}.${timestampSeconds}.${body}`);
  return `v1,${mac.digest('base64')}`;
}

/** The three Standard Webhooks headers of one attempt. */
export function signedHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    [DELIVERY_ID_HEADER]: id,
    [TIMESTAMP_HEADER]: String(timestampSeconds),
    [SIGNATURE_HEADER]: signatureOf(secret, id, timestampSeconds, body),
  };
}

export type SignatureVerdict =
  | { ok: true; id: string; timestampSeconds: number }
  | { ok: false; reason: 'malformed' | 'mismatch' | 'too-old' | 'too-new' };

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * What a receiver does (the integrator's guide shows the same steps; the SDK's verifyWebhook is
 * the same algorithm): read the three headers, refuse a timestamp further than
 * `toleranceSeconds` from now (replays), recompute the signature over the raw body and compare it
 * in constant time with every `v1,` entry of the header.
 */
export function verifySignature(
  secret: string,
  headers: Headers,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): SignatureVerdict {
  const id = header(headers, DELIVERY_ID_HEADER);
  const timestamp = header(headers, TIMESTAMP_HEADER);
  const signatures = header(headers, SIGNATURE_HEADER);
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return { ok: false, reason: 'malformed' };
  const t = Number(timestamp);
  if (nowSeconds - t > toleranceSeconds) return { ok: false, reason: 'too-old' };
  if (t - nowSeconds > toleranceSeconds) return { ok: false, reason: 'too-new' };
  const expected = Buffer.from(signatureOf(secret, id, t, body).slice('v1,'.length), 'base64');
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const candidate = Buffer.from(value, 'base64');
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
  return matches ? { ok: true, id, timestampSeconds: t } : { ok: false, reason: 'mismatch' };
}
