import { CodedError, HeartbeatService } from '@swapgw/contracts';
import type { RequestOptions, RequestReplyClient, ServiceLiveness } from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';
import { ServiceClient } from './service-client';
import type { ServiceHeartbeats } from './service-heartbeats';

/** The request options ServiceClient hands the request-reply client, and the heartbeats it reads. */
function clientWith(liveness: Record<string, ServiceLiveness>, answer: () => unknown = () => ({ ok: true })) {
  const sent: RequestOptions[] = [];
  const requester = {
    request: async (
      _topic: string,
      _type: string,
      _id: string,
      _payload: unknown,
      options: RequestOptions,
    ) => {
      sent.push(options);
      return answer();
    },
  } as unknown as RequestReplyClient;
  const heartbeats = {
    statusOf: (service: HeartbeatService) => liveness[service] ?? 'unknown',
  } as unknown as ServiceHeartbeats;
  const config = Object.assign(new GatewayConfig(), { SERVICE_REQUEST_TIMEOUT_MS: 10_000 });
  return { client: new ServiceClient(requester, config, heartbeats), sent, liveness };
}

describe('ServiceClient', () => {
  it('waits past the timeout for a busy service only while its heartbeats do not say it is down', async () => {
    const { client, sent, liveness } = clientWith({ 'quote-service': 'up' });
    await client.unordered(
      'quote.requests',
      'quote.create',
      {},
      {
        timeoutMs: 15_000,
        busy: { service: 'quote-service', upToMs: 60_000 },
      },
    );
    const [options] = sent;
    expect(options.timeoutMs).toBe(15_000);
    expect(options.waitLonger?.upToMs).toBe(60_000);
    expect(options.waitLonger?.stillWaiting()).toBe(true);
    // Not heard from yet (the gateway just started): not known to be down, so still worth waiting.
    liveness['quote-service'] = 'unknown';
    expect(options.waitLonger?.stillWaiting()).toBe(true);
    liveness['quote-service'] = 'down';
    expect(options.waitLonger?.stillWaiting()).toBe(false);
  });

  it('waits no longer than the timeout when the call names no busy service', async () => {
    const { client, sent } = clientWith({ 'quote-service': 'up' });
    await client.unordered('catalog.requests', 'catalog.chains.list', {});
    expect(sent[0]).toEqual({ timeoutMs: 10_000, version: undefined, waitLonger: undefined });
  });

  it("answers the call's unavailableAs code when no reply came", async () => {
    const { client } = clientWith({ 'quote-service': 'down' }, () => {
      throw new CodedError('SERVICE_UNAVAILABLE', 'No answer to quote.create within 15000 ms');
    });
    await expect(
      client.unordered('quote.requests', 'quote.create', {}, { unavailableAs: 'QUOTE_UPSTREAM_FAILED' }),
    ).rejects.toMatchObject({ code: 'QUOTE_UPSTREAM_FAILED' });
  });
});
