import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signedHeaders, verifySignature, webhookKey } from './webhook-signature';

describe('webhook signatures (Standard Webhooks)', () => {
  const body = '{"id":"d1","type":"swap.completed"}';
  const id = '0b8e7f7e-3c1d-4a53-9b84-5d0f1c2e9a77';
  const now = () => Math.floor(Date.now() / 1000);
  /** A secret as webhooks registered before Standard Webhooks have it: whsec_ + 64 hex characters. */
  const legacySecret = `whsec_${randomBytes(32).toString('hex')}`;

  it('signs "<id>.<timestamp>.<raw body>" with HMAC-SHA256 under the base64-decoded secret', () => {
    const secret = newWebhookSecret();
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.1700000000.${body}`).digest('base64');
    expect(signedHeaders(secret, id, 1700000000, body)).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1700000000',
      'webhook-signature': `v1,${expected}`,
    });
  });

  it.each([
    ['a new secret', newWebhookSecret()],
    ['an old hex secret', legacySecret],
  ])('signs so that the standardwebhooks package verifies it, with %s', (_, secret) => {
    const headers = signedHeaders(secret, id, now(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('completed', 'failed'), headers)).toThrow(
      'No matching signature found',
    );
    const old = signedHeaders(secret, id, now() - 301, body);
    expect(() => new Webhook(secret).verify(body, old)).toThrow('Message timestamp too old');
  });

  it.each([
    ['a new secret', newWebhookSecret()],
    ['an old hex secret', legacySecret],
  ])('verifies what the standardwebhooks package signs, with %s', (_, secret) => {
    const t = now();
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(t),
      'webhook-signature': new Webhook(secret).sign(id, new Date(t * 1000), body),
    };
    expect(verifySignature(secret, headers, body)).toEqual({ ok: true, id, timestampSeconds: t });
    expect(verifySignature(secret, headers, body.replace('completed', 'failed'))).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    // Another delivery id under the same signature: the id is signed too.
    expect(verifySignature(secret, { ...headers, 'webhook-id': 'other' }, body)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature(secret, headers, body, t + 301)).toEqual({ ok: false, reason: 'too-old' });
    expect(verifySignature(secret, headers, body, t - 301)).toEqual({ ok: false, reason: 'too-new' });
  });

  it('reads an old hex secret as base64, as the libraries do: a 48-byte key', () => {
    expect(webhookKey(legacySecret)).toHaveLength(48);
    expect(webhookKey(newWebhookSecret())).toHaveLength(32);
  });

  it('accepts any matching entry of a space-separated list; refuses another secret, missing headers and garbage', () => {
    const secret = newWebhookSecret();
    const t = now();
    const headers = signedHeaders(secret, id, t, body);
    const rotated = { ...headers, 'webhook-signature': `v1,AAAA v2,xyz ${headers['webhook-signature']}` };
    expect(verifySignature(secret, rotated, body).ok).toBe(true);
    // Header names are case-insensitive, as HTTP's.
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifySignature(secret, upper, body).ok).toBe(true);
    expect(verifySignature(newWebhookSecret(), headers, body)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(secret, { ...headers, 'webhook-signature': 't=1,v1=ab' }, body)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature(secret, { ...headers, 'webhook-timestamp': 'soon' }, body)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifySignature(secret, { 'webhook-signature': headers['webhook-signature'] }, body)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('generates distinct secrets: whsec_ + base64 of 32 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newWebhookSecret()).not.toBe(a);
    expect(() => webhookKey('whsec_not base64!')).toThrow('base64');
  });
});
