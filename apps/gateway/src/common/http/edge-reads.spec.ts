import type { ApiKeyAuthenticator, CachedVerdict } from '../../auth/api-key.authenticator';
import type { RateLimitDecision } from '../../rate-limit/fixed-window';
import type { RateLimiter } from '../../rate-limit/rate-limiter.service';
import { SystemClock } from '@swapgw/runtime';
import { EdgeAnswerer, EdgeReads } from './edge-reads';
import type { IncomingMessage, ServerResponse } from 'node:http';

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
  return { edge: new EdgeReads(authenticator, limiter, new SystemClock()), consumed };
}

const REQUEST_ID = 'r-1';
const CHAINS_ROUTE = '/api/v1/chains';

/** A request as Node's HTTP server hands it over, and a response that records what is written. */
function exchange(url: string, authorization = `Bearer ${KEY}`, method = 'GET') {
  const headers: Record<string, string> = {};
  const sent: string[] = [];
  const statusCodes: number[] = [];
  const request = {
    method,
    url,
    headers: { ...(authorization ? { authorization } : {}), 'x-request-id': REQUEST_ID },
  } as unknown as IncomingMessage;
  const response = {
    writeHead: (statusCode: number, pairs: string[]) => {
      statusCodes.push(statusCode);
      for (let i = 0; i < pairs.length; i += 2) headers[pairs[i]] = pairs[i + 1];
      return response;
    },
    end: (body: string) => {
      sent.push(body);
      return response;
    },
  } as unknown as ServerResponse;
  return { request, response, headers, sent, statusCodes };
}

const chains = { chains: [{ id: 'devnet-a', name: 'Devnet A' }] };

describe('EdgeReads', () => {
  it('answers a remembered GET in the envelope, with the rate limit counted once and its headers', () => {
    const { edge, consumed } = edgeOf({ owner: 'alice', apiKeyId: 'k1' } as CachedVerdict);
    edge.remember('/api/v1/chains', CHAINS_ROUTE, chains, Date.now() + 5000);
    const { request, response, headers, sent, statusCodes } = exchange('/api/v1/chains');
    expect(edge.serve(request, response)).toBe(true);
    expect(statusCodes).toEqual([200]);
    expect(JSON.parse(sent[0])).toEqual({
      data: chains,
      meta: { requestId: REQUEST_ID, timestamp: expect.any(String) },
    });
    expect(headers).toEqual({
      'x-request-id': REQUEST_ID,
      traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
      'ratelimit-limit': '600',
      'ratelimit-remaining': '599',
      'ratelimit-reset': '42',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(sent[0])),
    });
    expect(consumed).toEqual(['k1']);
    expect(edge.takeHandover(request)).toBeUndefined();
  });

  it('leaves to the full path: other URLs and methods, expired answers, keys not known valid, requests over the limit', () => {
    const valid = { owner: 'alice', apiKeyId: 'k1' } as CachedVerdict;
    const { edge, consumed } = edgeOf(valid);
    edge.remember('/api/v1/chains', CHAINS_ROUTE, chains, Date.now() + 5000);
    edge.remember('/api/v1/tokens?limit=1', '/api/v1/tokens', { tokens: [] }, Date.now() - 1);
    const tries = [
      exchange('/api/v1/chains?x=1'),
      exchange('/api/v1/chains', `Bearer ${KEY}`, 'POST'),
      exchange('/api/v1/tokens?limit=1'),
      exchange('/api/v1/chains', ''),
      exchange('/api/v1/chains', 'Bearer sgw_unknown'),
    ];
    for (const { request, response, sent } of tries) {
      expect(edge.serve(request, response)).toBe(false);
      expect(sent).toEqual([]);
    }
    expect(consumed).toEqual([]);

    const invalid = edgeOf(null);
    invalid.edge.remember('/api/v1/chains', CHAINS_ROUTE, chains, Date.now() + 5000);
    const refused = exchange('/api/v1/chains');
    expect(invalid.edge.serve(refused.request, refused.response)).toBe(false);

    // Over the limit: counted here, and the decision is handed to the full path (which answers 429) so it is not counted twice.
    const limited = edgeOf(valid, false);
    limited.edge.remember('/api/v1/chains', CHAINS_ROUTE, chains, Date.now() + 5000);
    const over = exchange('/api/v1/chains');
    expect(limited.edge.serve(over.request, over.response)).toBe(false);
    expect(limited.edge.takeHandover(over.request)).toEqual({
      owner: 'alice',
      apiKeyId: 'k1',
      rateLimitDecision: expect.objectContaining({ allowed: false }),
    });
    expect(limited.edge.takeHandover(over.request)).toBeUndefined(); // handed over once
    expect(limited.consumed).toEqual(['k1']);
  });

  it('answers nothing once the application is shutting down (the full path answers 503)', () => {
    const { edge, consumed } = edgeOf({ owner: 'alice', apiKeyId: 'k1' } as CachedVerdict);
    edge.remember('/api/v1/chains', CHAINS_ROUTE, chains, Date.now() + 5000);
    edge.onModuleDestroy();
    const { request, response, sent } = exchange('/api/v1/chains');
    expect(edge.serve(request, response)).toBe(false);
    expect(sent).toEqual([]);
    expect(consumed).toEqual([]);
  });

  it('keeps at most 1000 URLs, dropping the oldest', () => {
    const { edge } = edgeOf({ owner: 'alice', apiKeyId: 'k1' } as CachedVerdict);
    for (let i = 0; i < 1001; i += 1)
      edge.remember(`/api/v1/tokens?page=${i}`, '/api/v1/tokens', {}, Date.now() + 5000);
    expect(edge.size).toBe(1000);
    const oldest = exchange('/api/v1/tokens?page=0');
    expect(edge.serve(oldest.request, oldest.response)).toBe(false);
    const newest = exchange('/api/v1/tokens?page=1000');
    expect(edge.serve(newest.request, newest.response)).toBe(true);
  });

  describe('answerers (answers for one owner held by a feature)', () => {
    const route = '/api/v1/swap/:swapId/signing';
    /** Answers 202 for alice's swap s-1 only, and records whom it was asked for. */
    function pollAnswerer(): EdgeAnswerer & { askedFor: string[] } {
      const askedFor: string[] = [];
      return {
        route,
        askedFor,
        answer: (params, owner) => {
          askedFor.push(owner);
          return params.swapId === 's-1' && owner === 'alice'
            ? { statusCode: 202, data: { swapId: 's-1', mode: 'async' } }
            : undefined;
        },
      };
    }

    it('answers with the answerer’s status and data in the envelope, counted once, for the key’s owner', () => {
      const { edge, consumed } = edgeOf({ owner: 'alice', apiKeyId: 'k1' } as CachedVerdict);
      const answerer = pollAnswerer();
      edge.addAnswerer(answerer);
      const poll = exchange('/api/v1/swap/s-1/signing');
      expect(edge.serve(poll.request, poll.response)).toBe(true);
      expect(poll.statusCodes).toEqual([202]);
      expect(JSON.parse(poll.sent[0])).toEqual({
        data: { swapId: 's-1', mode: 'async' },
        meta: { requestId: REQUEST_ID, timestamp: expect.any(String) },
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
        exchange('/api/v1/swap/s-1/signing'), // bob's key: not his swap
        exchange('/api/v1/swap/s-1/signing', 'Bearer sgw_unknown'),
        exchange('/api/v1/swap/s-1/signing', `Bearer ${KEY}`, 'POST'),
        exchange('/api/v1/swap/s-1'),
        // Not in the canonical form the answerer's route matches: Fastify's router decides.
        exchange('/api/v1/swap/s-1/signing?fresh=1'),
        exchange('/api/v1/swap/s%2D1/signing'),
        exchange('/api/v1/swap//signing'),
        exchange('/api/v1/swap/s-1/signing/'),
      ];
      for (const { request, response, sent } of tries) {
        expect(edge.serve(request, response)).toBe(false);
        expect(sent).toEqual([]);
      }
      expect(answerer.askedFor).toEqual(['bob']);
      expect(consumed).toEqual([]);
    });
  });
});
