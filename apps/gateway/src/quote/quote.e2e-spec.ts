import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Contract, JsonRpcProvider } from 'ethers';
import { api, ApiClient, createApiKey, testEnv } from '@swapgw/testing';
import { OpenApiValidator } from '../../test/support/openapi-validator';

// POST /quote through the running stack (gateway → quote-service → devnet pools).
const manifest = JSON.parse(fs.readFileSync(testEnv().devnetManifest, 'utf8')) as {
  chains: Array<{ id: string; chainId: number; rpcUrl: string; uniswapV2: { router: string }; tokens: Record<string, { address: string }> }>;
  bridge: { feeBps: number };
};
const devnetA = manifest.chains.find((c) => c.id === 'devnet-a')!;

describe('POST /quote', () => {
  let client: ApiClient;
  let openApi: OpenApiValidator;

  beforeAll(async () => {
    const gatewayUrl = process.env.GATEWAY_URL;
    if (!gatewayUrl) throw new Error('GATEWAY_URL is not set: run through the e2e project (global setup starts the stack)');
    client = api(gatewayUrl, await createApiKey(`quote-e2e-${randomUUID().slice(0, 8)}`));
    openApi = await OpenApiValidator.fetch(gatewayUrl);
  });

  it('quotes a same-chain swap with routes best first, the best equal to the router on chain', async () => {
    const provider = new JsonRpcProvider(devnetA.rpcUrl, devnetA.chainId, { staticNetwork: true });
    try {
      const router = new Contract(devnetA.uniswapV2.router, ['function getAmountsOut(uint, address[]) view returns (uint[])'], provider);
      const res = await client.post('/quote', { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'WETH', tokenOut: 'USDC', amount: '1' });
      const direct = (await router.getAmountsOut(10n ** 18n, [devnetA.tokens.WETH.address, devnetA.tokens.USDC.address])) as bigint[];
      expect(res.status).toBe(200);
      openApi.assertResponse('POST', '/quote', res.status, res.body);
      const { quoteId, expiresAtMs, routes } = res.body.data;
      expect(quoteId).toEqual(expect.any(String));
      expect(expiresAtMs).toBeGreaterThan(Date.now());
      expect(routes.length).toBeGreaterThanOrEqual(1);
      expect(routes[0]).toMatchObject({ provider: 'uniswap-v2', providers: ['uniswap-v2'], stepCount: 1, family: 'same-chain' });
      // Other suites may trade on the shared devnet between the two reads: allow only a tiny drift.
      const quoted = BigInt(routes[0].expectedAmountOut);
      const diff = quoted > direct[1] ? quoted - direct[1] : direct[1] - quoted;
      expect(diff * 1000n).toBeLessThanOrEqual(direct[1]);
      for (let i = 1; i < routes.length; i++) expect(BigInt(routes[i - 1].expectedAmountOut) >= BigInt(routes[i].expectedAmountOut)).toBe(true);
    } finally {
      provider.destroy();
    }
  });

  it('quotes a cross-chain route through the devnet bridge', async () => {
    const res = await client.post('/quote', { fromChain: 'devnet-a', toChain: 'devnet-b', tokenIn: 'USDC', tokenOut: 'WETH', amount: '3000', slippageBps: 100 });
    expect(res.status).toBe(200);
    expect(res.body.data.routes[0]).toMatchObject({
      providers: ['devnet-bridge', 'uniswap-v2'],
      bridgeProvider: 'devnet-bridge',
      stepCount: 2,
      family: 'cross-chain',
    });
    expect(res.body.data.routes[0].provider).toBeUndefined();
  });

  it('answers 200 with routes: [] when no route exists', async () => {
    const res = await client.post('/quote', { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'ETH', tokenOut: 'WETH', amount: '1' });
    expect(res.status).toBe(200);
    expect(res.body.data.routes).toEqual([]);
  });

  it('includes provider outcomes with ?debug=1', async () => {
    const res = await client.post('/quote', { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'DAI', tokenOut: 'USDC', amount: '10' }, { query: { debug: '1' } });
    expect(res.status).toBe(200);
    expect(res.body.data.debug.providers).toEqual([expect.objectContaining({ provider: 'uniswap-v2', status: 'ok' })]);
  });

  it.each([
    [{ fromChain: 'atlantis', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1' }, 'UNKNOWN_CHAIN'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'NOPE', tokenOut: 'DAI', amount: '1' }, 'UNKNOWN_TOKEN'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'USDC', amount: '1' }, 'SAME_TOKEN'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1.1234567' }, 'INVALID_AMOUNT'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1e6' }, 'VALIDATION_FAILED'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: 1 }, 'VALIDATION_FAILED'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1', network: 'regtest' }, 'VALIDATION_FAILED'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1', network: 'mainnet' }, 'UNKNOWN_CHAIN'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1', tokenRefFromOverride: 'usdc' }, 'VALIDATION_FAILED'],
    [{ fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1', recipient: 'not-an-address' }, 'VALIDATION_FAILED'],
  ])('answers 400 for %j with %s', async (body, code) => {
    const res = await client.post('/quote', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
  });
});
