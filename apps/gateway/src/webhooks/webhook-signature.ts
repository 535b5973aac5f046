import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Header of every delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (Stripe's scheme). */
export const SIGNATURE_HEADER = 'webhook-signature';
export const DELIVERY_ID_HEADER = 'webhook-id';
export const EVENT_ID_HEADER = 'webhook-event-id';

/** A webhook's signing secret: `whsec_` + 32 random bytes in hex. Shown once, at creation. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/** The hex HMAC-SHA256 of `<t>.<body>` under `secret`. */
export function signatureOf(secret: string, timestampSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
}

/** The Webhook-Signature header value for `body` sent at `timestampSeconds`. */
export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  return `t=${timestampSeconds},v1=${signatureOf(secret, timestampSeconds, body)}`;
}

export type SignatureVerdict =
  { ok: true; timestampSeconds: number } | { ok: false; reason: 'malformed' | 'mismatch' | 'too-old' };

/**
 * What a receiver does (the integrator's guide shows the same steps): parse `t` and every `v1`,
 * recompute the HMAC over the raw body, compare in constant time, refuse timestamps further than
 * `toleranceSeconds` from now (replays). Used by the e2e receiver and as the reference recipe.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): SignatureVerdict {
  if (!header) return { ok: false, reason: 'malformed' };
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const candidates = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '')).map(([, v]) => v);
  if (!Number.isSafeInteger(t) || candidates.length === 0) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(signatureOf(secret, t, body), 'hex');
  const matches = candidates.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  if (!matches) return { ok: false, reason: 'mismatch' };
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, reason: 'too-old' };
  return { ok: true, timestampSeconds: t };
}
