import { randomUUID } from 'node:crypto';
import { api, ApiClient, createApiKey } from '@swapgw/testing';
import { devnetManifest } from './support/devnet-evm';
import { connectE2eApi } from './support/e2e-api';
import { OpenApiValidator } from './support/openapi-validator';

// GET /chains, /tokens and /pairs through the running stack (gateway → quote-service → PostgreSQL).
const manifest = devnetManifest();

describe('catalog endpoints', () => {
  let client: ApiClient;
  let openApi: OpenApiValidator;

  beforeAll(async () => {
    ({ client, openApi } = await connectE2eApi('catalog-e2e'));
  });

  it('GET /chains lists the devnet chains and the real networks', async () => {
    const res = await client.get('/chains');
    expect(res.status).toBe(200);
    openApi.assertResponse('GET', '/chains', res.status, res.body);
    const ids = res.body.data.chains.map((c: { id: string }) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining(['devnet-a', 'devnet-b', 'ethereum', 'base', 'arbitrum', 'solana']),
    );
    expect(res.body.data.chains[0]).toEqual({
      id: 'devnet-a',
      name: expect.any(String),
      family: 'evm',
      network: 'testnet',
      chainId: expect.any(Number),
      caip2: expect.stringMatching(/^eip155:\d+$/),
      nativeSymbol: 'ETH',
    });
    // Every chain says what it is: EVM chains their numeric chain id, other families null.
    const byId = new Map(res.body.data.chains.map((c: { id: string }) => [c.id, c]));
    expect(byId.get('devnet-b')).toMatchObject({ family: 'evm', network: 'testnet', chainId: 31338 });
    expect(byId.get('ethereum')).toMatchObject({
      family: 'evm',
      network: 'mainnet',
      chainId: 1,
      caip2: 'eip155:1',
    });
    expect(byId.get('solana')).toMatchObject({ family: 'solana', network: 'mainnet', chainId: null });
    for (const chain of res.body.data.chains as Array<{
      family: string;
      network: string;
      chainId: number | null;
    }>) {
      expect(['evm', 'solana', 'bitcoin', 'cosmos']).toContain(chain.family);
      expect(['mainnet', 'testnet']).toContain(chain.network);
      expect(chain.family === 'evm' ? Number.isInteger(chain.chainId) : chain.chainId === null).toBe(true);
    }
    expect(res.body.meta).toEqual({ requestId: expect.any(String), timestamp: expect.any(String) });
  });

  it('answers a repeated GET /chains at the edge exactly as the full path does, counted once by the rate limit', async () => {
    const gatewayUrl = process.env.GATEWAY_URL as string;
    // The metrics of the same (first) gateway instance, on its METRICS_PORT.
    const metricsUrl = process.env.GATEWAY_METRICS_URL;
    if (!metricsUrl) throw new Error('GATEWAY_METRICS_URL is not set: run through the e2e project');
    const edgeAnswers = async (): Promise<number> => {
      const text = await (await fetch(metricsUrl)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('swapgw_http_edge_answers_total{route="/api/v1/chains"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    // A key of its own: its rate-limit count starts here and nobody else spends it.
    const caller = api(gatewayUrl, await createApiKey(`catalog-edge-${randomUUID().slice(0, 8)}`));
    const before = await edgeAnswers();
    // The full path answers first: it authenticates the key and leaves a fresh catalog answer at the
    // edge. An answer served stale (cached longer ago than the TTL, by an earlier read of the shared
    // stack) is not left there and is reloaded behind it: the read is repeated, a moment apart, until
    // the next one is answered at the edge.
    let first = await caller.get('/chains');
    let second = await caller.get('/chains', { headers: { 'X-Request-Id': 'edge-test-0001' } });
    for (let attempt = 1; (await edgeAnswers()) < before + 1 && attempt < 10; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = second;
      second = await caller.get('/chains', { headers: { 'X-Request-Id': 'edge-test-0001' } });
    }
    expect(await edgeAnswers()).toBeGreaterThanOrEqual(before + 1);

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.meta).toEqual({ requestId: 'edge-test-0001', timestamp: expect.any(String) });
    openApi.assertResponse('GET', '/chains', second.status, second.body);
    const headerNames = (res: typeof first) =>
      Object.keys(res.headers)
        .filter((h) => !['date', 'keep-alive', 'connection'].includes(h))
        .sort();
    expect(headerNames(second)).toEqual(headerNames(first));
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['x-request-id']).toBe('edge-test-0001');
    expect(Number(second.headers['ratelimit-remaining'])).toBe(
      Number(first.headers['ratelimit-remaining']) - 1,
    );
    expect(second.headers['ratelimit-limit']).toBe(first.headers['ratelimit-limit']);

    // A key it does not know goes the full path: 401 as always.
    const stranger = await api(gatewayUrl, 'sgw_' + 'A'.repeat(43)).get('/chains');
    expect(stranger.status).toBe(401);
    expect(stranger.body.error.code).toBe('UNAUTHORIZED');
  });

  it('GET /chains without an API key is 401', async () => {
    const res = await api(process.env.GATEWAY_URL as string).get('/chains');
    expect(res.status).toBe(401);
  });

  it('GET /tokens?chainRef=devnet-a lists the devnet tokens with the manifest addresses', async () => {
    const res = await client.get('/tokens', { query: { chainRef: 'devnet-a', supportedOnly: '1' } });
    expect(res.status).toBe(200);
    openApi.assertResponse('GET', '/tokens', res.status, res.body);
    const usdc = res.body.data.tokens.find((t: { symbol: string }) => t.symbol === 'USDC');
    expect(usdc).toMatchObject({
      chain: 'devnet-a',
      address: manifest.chains[0].tokens.USDC.address,
      decimals: 6,
    });
    expect(res.body.data.tokens.map((t: { symbol: string }) => t.symbol).sort()).toEqual([
      'DAI',
      'ETH',
      'TAX',
      'USDC',
      'WETH',
    ]);
    expect(res.body.data.nextCursor).toBeNull();
  });

  it('pages GET /tokens with the opaque cursor, each token once', async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await client.get('/tokens', {
        query: { chainRef: 'ethereum', sort: 'asc', limit: 1, cursor },
      });
      expect(res.status).toBe(200);
      for (const t of res.body.data.tokens) {
        const key = `${t.chain}:${t.address ?? 'native'}`;
        expect(seen.has(key)).toBe(false);
        seen.add(key);
      }
      cursor = res.body.data.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 20);
    // One token a page: the shipped catalog's Ethereum tokens (ETH, USDC, WETH), each on its own page.
    const all = await client.get('/tokens', { query: { chainRef: 'ethereum', sort: 'asc', limit: 100 } });
    expect(all.body.data.tokens.length).toBeGreaterThanOrEqual(3);
    expect(pages).toBe(all.body.data.tokens.length);
    expect(seen.size).toBe(all.body.data.tokens.length);
  });

  it.each([
    [{ limit: '0' }, 'VALIDATION_FAILED'],
    [{ limit: '50001' }, 'VALIDATION_FAILED'],
    [{ sort: 'popular' }, 'VALIDATION_FAILED'],
    [{ supportedOnly: 'yes' }, 'VALIDATION_FAILED'],
    [{ cursor: 'garbage' }, 'INVALID_CURSOR'],
    [{ chainRef: 'atlantis' }, 'UNKNOWN_CHAIN'],
  ])('GET /tokens with %j is 400 %s', async (query, code) => {
    const res = await client.get('/tokens', { query });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
  });

  it('GET /tokens rejects a cursor reused with other filters', async () => {
    const first = await client.get('/tokens', { query: { q: 'usd', limit: 1 } });
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const other = await client.get('/tokens', {
      query: { q: 'eth', limit: 1, cursor: first.body.data.nextCursor },
    });
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('INVALID_CURSOR');
  });

  it('GET /pairs?chainRef=devnet-a lists same-chain pairs only', async () => {
    const res = await client.get('/pairs', { query: { chainRef: 'devnet-a', tokenIn: 'USDC' } });
    expect(res.status).toBe(200);
    openApi.assertResponse('GET', '/pairs', res.status, res.body);
    expect(res.body.data.pairs).toEqual(
      expect.arrayContaining([
        { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI' },
      ]),
    );
    for (const pair of res.body.data.pairs)
      expect(pair).toMatchObject({ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC' });
  });

  it('GET /pairs pages with a cursor and rejects limit 10001', async () => {
    const first = await client.get('/pairs', { query: { limit: 3 } });
    expect(first.body.data.pairs).toHaveLength(3);
    const second = await client.get('/pairs', { query: { limit: 3, cursor: first.body.data.nextCursor } });
    expect(second.status).toBe(200);
    expect(second.body.data.pairs[0]).not.toEqual(first.body.data.pairs[2]);
    const tooMany = await client.get('/pairs', { query: { limit: 10001 } });
    expect(tooMany.status).toBe(400);
  });
});
