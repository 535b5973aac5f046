import { CodedError } from '@swapgw/contracts';
import type { RequestOptions, RequestReplyClient } from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';
import { ServiceClient } from './service-client';

/** The request options ServiceClient hands the request-reply client. */
function clientWith(answer: () => unknown = () => ({ ok: true })) {
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
  const config = Object.assign(new GatewayConfig(), { SERVICE_REQUEST_TIMEOUT_MS: 10_000 });
  return { client: new ServiceClient(requester, config), sent };
}

describe('ServiceClient', () => {
  it('hands the longer wait of a call for a busy service to the request-reply client', async () => {
    const { client, sent } = clientWith();
    let up = true;
    await client.unordered(
      'quote.requests',
      'quote.create',
      {},
      { timeoutMs: 15_000, waitLonger: { stillWaiting: () => up, upToMs: 60_000 } },
    );
    const [options] = sent;
    expect(options.timeoutMs).toBe(15_000);
    expect(options.waitLonger?.upToMs).toBe(60_000);
    expect(options.waitLonger?.stillWaiting()).toBe(true);
    up = false;
    expect(options.waitLonger?.stillWaiting()).toBe(false);
  });

  it('waits no longer than the default timeout when the call asks nothing else', async () => {
    const { client, sent } = clientWith();
    await client.unordered('catalog.requests', 'catalog.chains.list', {});
    expect(sent[0]).toEqual({ timeoutMs: 10_000, version: undefined, waitLonger: undefined });
  });

  it("answers the call's unavailableAs code when no reply came", async () => {
    const { client } = clientWith(() => {
      throw new CodedError('SERVICE_UNAVAILABLE', 'No answer to quote.create within 15000 ms');
    });
    await expect(
      client.unordered('quote.requests', 'quote.create', {}, { unavailableAs: 'QUOTE_UPSTREAM_FAILED' }),
    ).rejects.toMatchObject({ code: 'QUOTE_UPSTREAM_FAILED' });
  });
});
