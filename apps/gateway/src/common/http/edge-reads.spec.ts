import type { ApiKeyAuthenticator, CachedVerdict } from '../../auth/api-key.authenticator';
import type { RateLimitDecision } from '../../rate-limit/fixed-window';
import type { RateLimiter } from '../../rate-limit/rate-limiter.service';
import { EdgeAnswerer, EdgeReads } from './edge-reads';
import type { GatewayReply, GatewayRequest } from './gateway-request';

const KEY = 'sgw_' + 'k'.repeat(43);

function edgeOf(verdict: CachedVerdict, allowed = true) {
  const consumed: string[] = [];
  const authenticator = {
    cached: (key: string) => (key === KEY ? verdict : undefined),
  } as unknown as ApiKeyAuthenticator;
  const limiter = {
    consume: (apiKeyId: string): RateLimitDecision => {
      consumed.push(apiKeyId);
      return { allowed, limit: 600, remaining: allowed ? 599 : 0, resetSeconds: 42 };
    },
  } as unknown as RateLimiter;
  return { edge: new EdgeReads(authenticator, limiter), consumed };
}

function exchange(url: string, authorization = `Bearer ${KEY}`, method = 'GET', route = '/api/v1/chains') {
  const headers: Record<string, string> = {};
  const sent: string[] = [];
  const statusCodes: number[] = [];
  const request = {
    method,
    url,
    headers: authorization ? { authorization } : {},
    requestContext: { requestId: 'r-1', traceparent: 't' },
    routeOptions: { url: route },
  } as unknown as GatewayRequest;
  const reply = {
    code: (statusCode: number) => {
      statusCodes.push(statusCode);
      return reply;
    },
    header: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
      return reply;
    },
    send: (body: string) => {
      sent.push(body);
      return reply;
    },
  } as unknown as GatewayReply;
  return { request, reply, headers, sent, statusCodes };
}

const chains = { chains: [{ id: 'devnet-a', name: 'Devnet A' }] };

describe('EdgeReads', () => {
  it('answers a remembered GET in the envelope, with the rate limit counted once and its headers', () => {
    const { edge, consumed } = edgeOf({ owner: 'alice', apiKeyId: 'k1' } as CachedVerdict);
    edge.remember('/api/v1/chains', chains, Date.now() + 5000);
    const { request, reply, headers, sent } = exchange('/api/v1/chains');
    expect(edge.tryAnswer(request, reply)).toBe(true);
    expect(JSON.parse(sent[0])).toEqual({
      data: chains,
      meta: { requestId: 'r-1', timestamp: expect.any(String) },
    });
    expect(headers).toMatchObject({
      'ratelimit-limit': '600',
      'ratelimit-remaining': '599',
      'ratelimit-reset': '42',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(consumed).toEqual(['k1']);
    expect(request).toMatchObject({ owner: 'alice', apiKeyId: 'k1' });
  });

  it('leaves to the full path: other URLs and methods, expired answers, keys not known valid, requests over the limit', () => {
    const valid = { owner: 'alice', apiKeyId: 'k1' } as CachedVerdict;
    const { edge, consumed } = edgeOf(valid);
    edge.remember('/api/v1/chains', chains, Date.now() + 5000);
    edge.remember('/api/v1/tokens?limit=1', { tokens: [] }, Date.now() - 1);
    const tries = [
      exchange('/api/v1/chains?x=1'),
      exchange('/api/v1/chains', `Bearer ${KEY}`, 'POST'),
      exchange('/api/v1/tokens?limit=1'),
      exchange('/api/v1/chains', ''),
      exchange('/api/v1/chains', 'Bearer sgw_unknown'),
    ];
    for (const { request, reply, sent } of tries) {
      expect(edge.tryAnswer(request, reply)).toBe(false);
      expect(sent).toEqual([]);
    }
    expect(consumed).toEqual([]);

    const invalid = edgeOf(null);
    invalid.edge.remember('/api/v1/chains', chains, Date.now() + 5000);
    expect(invalid.edge.tryAnswer(exchange('/api/v1/chains').request, exchange('/api/v1/chains').reply)).toBe(
      false,
    );

    // Over the limit: counted here, and the decision is handed to the full path (which answers 429) so it is not counted twice.
    const limited = edgeOf(valid, false);
    limited.edge.remember('/api/v1/chains', chains, Date.now() + 5000);
    const over = exchange('/api/v1/chains');
    expect(limited.edge.tryAnswer(over.request, over.reply)).toBe(false);
    expect(over.request.rateLimitDecision).toMatchObject({ allowed: false });
    expect(limited.consumed).toEqual(['k1']);
  });

  it('keeps at most 1000 URLs, dropping the oldest', () => {
    const { edge } = edgeOf({ owner: 'alice', apiKeyId: 'k1' } as CachedVerdict);
    for (let i = 0; i < 1001; i += 1) edge.remember(`/api/v1/tokens?page=${i}`, {}, Date.now() + 5000);
    expect(edge.size).toBe(1000);
    const oldest = exchange('/api/v1/tokens?page=0');
    expect(edge.tryAnswer(oldest.request, oldest.reply)).toBe(false);
    const newest = exchange('/api/v1/tokens?page=1000');
    expect(edge.tryAnswer(newest.request, newest.reply)).toBe(true);
  });

  describe('answerers (answers for one owner held by a feature)', () => {
    const route = '/api/v1/swap/:swapId/signing';
    /** Answers 202 for alice's swap s-1 only, and records whom it was asked for. */
    function pollAnswerer(): EdgeAnswerer & { askedFor: string[] } {
      const askedFor: string[] = [];
      return {
        route,
        askedFor,
        answer: (request, owner) => {
          askedFor.push(owner);
          return request.url.endsWith('/s-1/signing') && owner === 'alice'
            ? { statusCode: 202, data: { swapId: 's-1', mode: 'async' } }
            : undefined;
        },
      };
    }

    it('answers with the answerer’s status and data in the envelope, counted once, for the key’s owner', () => {
      const { edge, consumed } = edgeOf({ owner: 'alice', apiKeyId: 'k1' } as CachedVerdict);
      const answerer = pollAnswerer();
      edge.addAnswerer(answerer);
      const poll = exchange('/api/v1/swap/s-1/signing', `Bearer ${KEY}`, 'GET', route);
      expect(edge.tryAnswer(poll.request, poll.reply)).toBe(true);
      expect(poll.statusCodes).toEqual([202]);
      expect(JSON.parse(poll.sent[0])).toEqual({
        data: { swapId: 's-1', mode: 'async' },
        meta: { requestId: 'r-1', timestamp: expect.any(String) },
      });
      expect(poll.headers).toMatchObject({ 'ratelimit-remaining': '599' });
      expect(answerer.askedFor).toEqual(['alice']);
      expect(consumed).toEqual(['k1']);
    });

    it('leaves to the full path, uncounted, what the answerer does not know, keys not known valid and other routes', () => {
      const { edge, consumed } = edgeOf({ owner: 'bob', apiKeyId: 'k2' } as CachedVerdict);
      const answerer = pollAnswerer();
      edge.addAnswerer(answerer);
      const tries = [
        exchange('/api/v1/swap/s-1/signing', `Bearer ${KEY}`, 'GET', route), // bob's key: not his swap
        exchange('/api/v1/swap/s-1/signing', 'Bearer sgw_unknown', 'GET', route),
        exchange('/api/v1/swap/s-1/signing', `Bearer ${KEY}`, 'POST', route),
        exchange('/api/v1/swap/s-1', `Bearer ${KEY}`, 'GET', '/api/v1/swap/:swapId'),
      ];
      for (const { request, reply, sent } of tries) {
        expect(edge.tryAnswer(request, reply)).toBe(false);
        expect(sent).toEqual([]);
      }
      expect(answerer.askedFor).toEqual(['bob']);
      expect(consumed).toEqual([]);
    });
  });
});
