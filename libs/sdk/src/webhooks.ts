// Standard Webhooks verification (https://www.standardwebhooks.com), the same algorithm the gateway
// signs with (apps/gateway/src/webhooks/webhook-signature.ts). Web Crypto only, so it runs in Node
// 20+, Deno, Bun, edge workers and browsers without a dependency.
import { base64ToBytes, bytesToBase64 } from './base64';

/** A delivery's body as the gateway sends it. */
export interface WebhookDelivery {
  /** The delivery id (= `webhook-id`): dedupe on it, deliveries are at least once. */
  id: string;
  /** The source event's id, the same for every webhook that receives it. */
  eventId: string;
  type: string;
  occurredAtMs: number;
  data: Record<string, unknown>;
}

export class WebhookVerificationError extends Error {
  constructor(
    message: string,
    readonly reason: 'missing-headers' | 'bad-timestamp' | 'too-old' | 'too-new' | 'mismatch' | 'bad-secret',
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export type WebhookHeaders =
  { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest distance between `webhook-timestamp` and now, in seconds (replays); 300 by default. */
  toleranceSeconds?: number;
  /** The clock, unix seconds (tests). */
  nowSeconds?: number;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function')
    return (headers.get as (n: string) => string | null)(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Constant time for equal lengths (the length of a signature is not a secret). */
function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The HMAC key of a webhook secret: the base64 decoding of what follows `whsec_`. Secrets made
 * before the gateway signed the Standard Webhooks way are `whsec_` + 64 hex characters, which are
 * valid base64: they decode to a 48-byte key, the one the gateway signs them with.
 */
export function webhookSecretKey(secret: string): Uint8Array {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!encoded || !BASE64.test(encoded))
    throw new WebhookVerificationError('the secret is not whsec_ followed by base64', 'bad-secret');
  return base64ToBytes(encoded);
}

/** `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`: what `webhook-signature` carries. */
export async function webhookSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    webhookSecretKey(secret) as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign(
    'HMAC',
    key,
    new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`),
  );
  return `v1,${bytesToBase64(new Uint8Array(mac))}`;
}

/**
 * Verifies a webhook delivery (Standard Webhooks) and returns its parsed body; throws
 * WebhookVerificationError when it does not verify. `body` is the raw body as received, before any
 * JSON parsing; `headers` a fetch Headers or Node's `req.headers`.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookDelivery> {
  const raw = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError(
      'missing webhook-id, webhook-timestamp or webhook-signature',
      'missing-headers',
    );
  if (!/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('webhook-timestamp is not unix seconds', 'bad-timestamp');
  const t = Number(timestamp);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (now - t > tolerance)
    throw new WebhookVerificationError('the delivery is too old (a replay?)', 'too-old');
  if (t - now > tolerance) throw new WebhookVerificationError('the delivery is from the future', 'too-new');
  const expected = (await webhookSignature(secret, id, t, raw)).slice('v1,'.length);
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    return version === 'v1' && value !== undefined && equal(value, expected);
  });
  if (!matches) throw new WebhookVerificationError('no matching signature', 'mismatch');
  return JSON.parse(raw) as WebhookDelivery;
}
