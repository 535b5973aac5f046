import { createHmac } from 'node:crypto';
import { newWebhookSecret, signatureHeader, verifySignature } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"id":"d1","type":"swap.completed"}';

  it('signs "<t>.<raw body>" with HMAC-SHA256 in hex, as a receiver recomputes it', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader(secret, 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verifies its own header and refuses a changed body, another secret, an old timestamp or garbage', () => {
    const header = signatureHeader(secret, 1700000000, body);
    expect(verifySignature(secret, header, body, 1700000010)).toEqual({
      ok: true,
      timestampSeconds: 1700000000,
    });
    expect(verifySignature(secret, header, body.replace('completed', 'failed'), 1700000010)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature('whsec_other', header, body, 1700000010)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature(secret, header, body, 1700000000 + 301)).toEqual({ ok: false, reason: 'too-old' });
    expect(verifySignature(secret, 'v1=abc', body, 1700000010)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(secret, undefined, body)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('generates distinct 32-byte secrets', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
