import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, webhookSecretKey, webhookSignature, WebhookVerificationError } from './webhooks';

// The SDK's verifier against the reference JavaScript library of Standard Webhooks, both ways, with a
// secret as the gateway makes them now (base64) and as it made them before (64 hex characters).
describe('verifyWebhook (Standard Webhooks)', () => {
  const body = JSON.stringify({
    id: '0b8e7f7e-3c1d-4a53-9b84-5d0f1c2e9a77',
    eventId: '6c1f0e58-2f7a-4d0b-8f43-0e3b8a1d2c55',
    type: 'swap.completed',
    occurredAtMs: 1767225600950,
    data: { swapId: 's1', status: 'completed' },
  });
  const id = '0b8e7f7e-3c1d-4a53-9b84-5d0f1c2e9a77';
  const now = () => Math.floor(Date.now() / 1000);
  const secrets: Array<[string, string]> = [
    ['a new secret', `whsec_${randomBytes(32).toString('base64')}`],
    ['an old hex secret', `whsec_${randomBytes(32).toString('hex')}`],
  ];

  const signedByTheLibrary = (secret: string, t = now(), msgId = id) => ({
    'webhook-id': msgId,
    'webhook-timestamp': String(t),
    'webhook-signature': new Webhook(secret).sign(msgId, new Date(t * 1000), body),
  });

  it.each(secrets)('verifies what the standardwebhooks package signs, with %s', async (_, secret) => {
    await expect(verifyWebhook(secret, signedByTheLibrary(secret), body)).resolves.toEqual(JSON.parse(body));
    // A fetch Headers and a Uint8Array body, as a Fetch API handler has them.
    const headers = new Headers(signedByTheLibrary(secret));
    await expect(verifyWebhook(secret, headers, new TextEncoder().encode(body))).resolves.toMatchObject({
      type: 'swap.completed',
    });
  });

  it.each(secrets)('signs what the standardwebhooks package verifies, with %s', async (_, secret) => {
    const t = now();
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(t),
      'webhook-signature': await webhookSignature(secret, id, t, body),
    };
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, new Date(t * 1000), body));
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it.each(secrets)(
    'refuses a tampered body, another id, another secret and old or future timestamps, with %s',
    async (_, secret) => {
      const refused = async (promise: Promise<unknown>, reason: WebhookVerificationError['reason']) => {
        const error = await promise.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(WebhookVerificationError);
        expect((error as WebhookVerificationError).reason).toBe(reason);
      };
      const headers = signedByTheLibrary(secret);
      await refused(verifyWebhook(secret, headers, body.replace('completed', 'failed')), 'mismatch');
      await refused(verifyWebhook(secret, { ...headers, 'webhook-id': 'another' }, body), 'mismatch');
      await refused(verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, headers, body), 'mismatch');
      await refused(verifyWebhook(secret, signedByTheLibrary(secret, now() - 301), body), 'too-old');
      await refused(verifyWebhook(secret, signedByTheLibrary(secret, now() + 301), body), 'too-new');
      await refused(verifyWebhook(secret, { 'webhook-id': id }, body), 'missing-headers');
      // The library refuses the same old delivery.
      expect(() => new Webhook(secret).verify(body, signedByTheLibrary(secret, now() - 301))).toThrow(
        'Message timestamp too old',
      );
    },
  );

  it('accepts any v1 entry of a space-separated list; reads old hex secrets as 48-byte keys', async () => {
    const [, secret] = secrets[0];
    const headers = signedByTheLibrary(secret);
    const list = { ...headers, 'webhook-signature': `v1,bm90IGl0 v1a,xyz ${headers['webhook-signature']}` };
    await expect(verifyWebhook(secret, list, body)).resolves.toMatchObject({ id });
    expect(webhookSecretKey(secrets[1][1])).toHaveLength(48);
    expect(webhookSecretKey(secret)).toHaveLength(32);
    expect(() => webhookSecretKey('whsec_not base64!')).toThrow(WebhookVerificationError);
  });
});
