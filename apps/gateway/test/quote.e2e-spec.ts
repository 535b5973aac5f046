import { Keypair } from '@solana/web3.js';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import { ApiClient } from '@swapgw/testing';
import { devnetManifest } from './support/devnet-evm';
import { connectE2eApi } from './support/e2e-api';
import { OpenApiValidator } from './support/openapi-validator';

// POST /quote through the running stack (gateway → quote-service → devnet pools).
const manifest = devnetManifest();
const devnetA = manifest.chains.find((c) => c.id === 'devnet-a')!;

interface GasCoverageChain {
  chain: string;
  nativeSymbol: string;
  nativeDecimals: number;
  estimatedGasUnits: string;
  feePerGasBaseUnits: string;
  feeSource: string;
  estimatedCostBaseUnits: string;
  estimatedCostFormatted: string;
  breakdown: Array<{ kind: string; leg: number; estimatedGasUnits: string; estimatedCostBaseUnits: string }>;
}

/**
 * Every route says the service pays its gas, with one entry per chain its legs touch (in that
 * order), priced from the devnet node (feeSource node), positive, and adding up.
 */
function expectGasCoverage(
  route: { gasCoverage: { paidBy: string; userPays: string; chains: GasCoverageChain[] } },
  chains: string[],
): GasCoverageChain[] {
  const { gasCoverage } = route;
  expect(gasCoverage).toMatchObject({ paidBy: 'service', userPays: '0' });
  expect(gasCoverage.chains.map((c) => c.chain)).toEqual(chains);
  for (const entry of gasCoverage.chains) {
    expect(entry.feeSource).toBe('node');
    expect(BigInt(entry.estimatedCostBaseUnits)).toBeGreaterThan(0n);
    expect(BigInt(entry.feePerGasBaseUnits)).toBeGreaterThan(0n);
    expect(entry.breakdown.reduce((sum, item) => sum + BigInt(item.estimatedCostBaseUnits), 0n)).toBe(
      BigInt(entry.estimatedCostBaseUnits),
    );
    expect(entry.breakdown.reduce((sum, item) => sum + BigInt(item.estimatedGasUnits), 0n)).toBe(
      BigInt(entry.estimatedGasUnits),
    );
    // Whole native units to 3 significant digits.
    const exact = Number(entry.estimatedCostBaseUnits) / 10 ** entry.nativeDecimals;
    expect(Math.abs(Number(entry.estimatedCostFormatted) - exact)).toBeLessThanOrEqual(exact * 0.005);
  }
  return gasCoverage.chains;
}

describe('POST /quote', () => {
  let client: ApiClient;
  let openApi: OpenApiValidator;

  beforeAll(async () => {
    ({ client, openApi } = await connectE2eApi('quote-e2e'));
  });

  /** POST /quote that must answer 200 with no route: the unavailable routes it lists instead. */
  async function unavailableRoutesOf(
    request: Record<string, string>,
  ): Promise<Array<{ provider: string; reason: string }>> {
    const res = await client.post('/quote', request);
    expect(res.status).toBe(200);
    openApi.assertResponse('POST', '/quote', res.status, res.body);
    expect(res.body.data.routes).toEqual([]);
    return res.body.data.unavailableRoutes;
  }

  it('quotes a same-chain swap with routes best first, the best equal to the router on chain', async () => {
    const provider = new JsonRpcProvider(devnetA.rpcUrl, devnetA.chainId, { staticNetwork: true });
    try {
      const router = new Contract(
        devnetA.uniswapV2.router,
        ['function getAmountsOut(uint, address[]) view returns (uint[])'],
        provider,
      );
      const res = await client.post('/quote', {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '1',
      });
      const direct = (await router.getAmountsOut(10n ** 18n, [
        devnetA.tokens.WETH.address,
        devnetA.tokens.USDC.address,
      ])) as bigint[];
      expect(res.status).toBe(200);
      openApi.assertResponse('POST', '/quote', res.status, res.body);
      const { quoteId, expiresAtMs, routes } = res.body.data;
      expect(quoteId).toEqual(expect.any(String));
      expect(expiresAtMs).toBeGreaterThan(Date.now());
      expect(routes.length).toBeGreaterThanOrEqual(1);
      expect(routes[0]).toMatchObject({
        provider: 'uniswap-v2',
        providers: ['uniswap-v2'],
        stepCount: 1,
        family: 'same-chain',
      });
      // Other suites may trade on the shared devnet between the two reads: allow only a tiny drift.
      // Amounts in units of each token (WETH 18 decimals in, USDC 6 out), the decimals beside them.
      expect(routes[0]).toMatchObject({ amountIn: '1', tokenInDecimals: 18, tokenOutDecimals: 6 });
      expect(routes[0].expectedAmountOut).toMatch(/^[0-9]+(\.[0-9]{1,6})?$/);
      const quoted = parseUnits(routes[0].expectedAmountOut, 6);
      // No slippageBps asked: each route says the slippage it computed, and its minimum uses it.
      for (const route of routes) {
        expect(route.slippageSource).toBe('auto');
        expect(route.slippageBps).toBeGreaterThanOrEqual(30);
        expect(route.slippageBps).toBeLessThanOrEqual(300);
        const expected = parseUnits(route.expectedAmountOut, 6);
        expect(parseUnits(route.minAmountOut, 6)).toBe(
          (expected * BigInt(10_000 - route.slippageBps)) / 10_000n,
        );
      }
      expect(res.body.data.unavailableRoutes).toEqual([]);
      const diff = quoted > direct[1] ? quoted - direct[1] : direct[1] - quoted;
      expect(diff * 1000n).toBeLessThanOrEqual(direct[1]);
      for (let i = 1; i < routes.length; i++)
        expect(
          parseUnits(routes[i - 1].expectedAmountOut, 6) >= parseUnits(routes[i].expectedAmountOut, 6),
        ).toBe(true);

      // Gas: WETH has no EIP-2612 permit, so the upper bound counts the user's approve paid by a
      // top-up (50k + 21k), then the relayer's swapWithIntent (240k), at the node's gas price.
      const gasPrice = BigInt((await provider.send('eth_gasPrice', [])) as string);
      for (const route of routes) {
        const [entry] = expectGasCoverage(route, ['devnet-a']);
        expect(entry).toMatchObject({ nativeSymbol: 'ETH', nativeDecimals: 18, estimatedGasUnits: '311000' });
        expect(entry.breakdown.map((item) => item.kind)).toEqual(['approve-top-up', 'swap-intent']);
        expect(BigInt(entry.estimatedCostBaseUnits)).toBe(311_000n * BigInt(entry.feePerGasBaseUnits));
        // Read up to 10 s earlier (cached): the devnet's price moves little in between.
        expect(BigInt(entry.feePerGasBaseUnits) * 2n).toBeGreaterThan(gasPrice);
        expect(BigInt(entry.feePerGasBaseUnits)).toBeLessThan(gasPrice * 2n);
      }
    } finally {
      provider.destroy();
    }
  });

  it('quotes a cross-chain route through the devnet bridge', async () => {
    const res = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'devnet-b',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '3000',
      slippageBps: 100,
    });
    expect(res.status).toBe(200);
    openApi.assertResponse('POST', '/quote', res.status, res.body);
    expect(res.body.data.routes[0]).toMatchObject({
      providers: ['devnet-bridge', 'uniswap-v2'],
      bridgeProvider: 'devnet-bridge',
      stepCount: 2,
      family: 'cross-chain',
    });
    expect(res.body.data.routes[0].provider).toBeUndefined();
    // The service pays on both chains: USDC's permit and the bridge intent on devnet-a; the
    // relayer's release, then USDC's permit and the swap intent on devnet-b.
    const [source, destination] = expectGasCoverage(res.body.data.routes[0], ['devnet-a', 'devnet-b']);
    expect(source.breakdown.map((item) => `${item.leg}:${item.kind}`)).toEqual([
      '0:permit',
      '0:bridge-intent',
    ]);
    expect(destination.breakdown.map((item) => `${item.leg}:${item.kind}`)).toEqual([
      '0:bridge-release',
      '1:permit',
      '1:swap-intent',
    ]);
  });

  it('states the gas of a bridge to Solana in lamports: the release signature and the recipient token account rent', async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const res = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'solana-devnet',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '5',
      recipient,
    });
    expect(res.status).toBe(200);
    openApi.assertResponse('POST', '/quote', res.status, res.body);
    expect(res.body.data.routes).toHaveLength(1);
    const [, solana] = expectGasCoverage(res.body.data.routes[0], ['devnet-a', 'solana-devnet']);
    expect(solana).toMatchObject({
      nativeSymbol: 'SOL',
      nativeDecimals: 9,
      estimatedGasUnits: '1',
      feePerGasBaseUnits: '5000',
      estimatedCostBaseUnits: '2044280',
      estimatedCostFormatted: '0.00204',
    });
    expect(solana.breakdown.map((item) => item.kind)).toEqual(['bridge-release', 'solana-ata-rent']);
  });

  it('documents gasCoverage as a required part of every route', () => {
    const schemas = openApi.document.components?.schemas as Record<
      string,
      { required?: string[]; description?: string }
    >;
    expect(schemas.QuoteRouteSummaryDto.required).toContain('gasCoverage');
    expect(schemas.QuoteRouteSummaryDto.description).toContain(
      'Gas is covered by the service on every route',
    );
    expect(schemas.RouteGasCoverageDto.required).toEqual(
      expect.arrayContaining(['paidBy', 'userPays', 'chains']),
    );
    expect(schemas.RouteGasCoverageChainDto.required).toEqual(
      expect.arrayContaining([
        'chain',
        'nativeSymbol',
        'nativeDecimals',
        'estimatedGasUnits',
        'feePerGasBaseUnits',
        'feeSource',
        'estimatedCostBaseUnits',
        'estimatedCostFormatted',
        'breakdown',
      ]),
    );
  });

  it('still quotes base units sent as the amount, with AMOUNT_LOOKS_LIKE_BASE_UNITS and AMOUNT_EXCEEDS_LIQUIDITY', async () => {
    // "25000000" meant as 25 USDC in base units asks for 25 million USDC: more than the pools hold.
    const res = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '25000000',
    });
    expect(res.status).toBe(200);
    openApi.assertResponse('POST', '/quote', res.status, res.body);
    const [route] = res.body.data.routes;
    expect(route.amountIn).toBe('25000000');
    expect(route.warnings).toEqual(
      expect.arrayContaining(['AMOUNT_LOOKS_LIKE_BASE_UNITS', 'AMOUNT_EXCEEDS_LIQUIDITY']),
    );
  });

  it('answers 200 with routes: [] when no route exists, saying why', async () => {
    const unavailable = await unavailableRoutesOf({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'ETH',
      tokenOut: 'WETH',
      amount: '1',
    });
    expect(unavailable).toEqual([
      { provider: 'uniswap-v2', reason: 'PAIR_NOT_SUPPORTED', details: { message: expect.any(String) } },
    ]);
  });

  it('says AMOUNT_TOO_LOW with the minimum when USDC under the Bitcoin payout minimum is quoted to BTC', async () => {
    const below = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'bitcoin-devnet',
      tokenIn: 'USDC',
      tokenOut: 'BTC',
      amount: '0.5',
    });
    expect(below.status).toBe(200);
    openApi.assertResponse('POST', '/quote', below.status, below.body);
    expect(below.body.data.routes).toEqual([]);
    // USDC into Bitcoin goes through THORChain on the devnet: THORNode's recommended minimum.
    expect(below.body.data.unavailableRoutes).toEqual([
      {
        provider: 'thorchain',
        reason: 'AMOUNT_TOO_LOW',
        details: expect.objectContaining({ token: 'USDC', chain: 'devnet-a', minAmount: expect.any(String) }),
      },
    ]);
    // The minimum is the bound a wallet can act on: quoted at it, THORChain has a route.
    const { minAmount } = below.body.data.unavailableRoutes[0].details;
    // 10,000 sats of Bitcoin dust plus 1,000 sats of outbound fee at 90,000 USDC per BTC.
    expect(Number(minAmount)).toBeGreaterThan(9.9);
    const at = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'bitcoin-devnet',
      tokenIn: 'USDC',
      tokenOut: 'BTC',
      amount: minAmount,
    });
    expect(at.status).toBe(200);
    expect(at.body.data.routes).toHaveLength(1);
    expect(at.body.data.routes[0]).toMatchObject({ bridgeProvider: 'thorchain' });
    expect(at.body.data.unavailableRoutes).toEqual([]);
  });

  it('offers BTC only where THORChain serves it: none to Solana, none from or into WETH', async () => {
    // The devnet bridge's Bitcoin end reaches Noble only, THORChain serves no Solana: no provider covers the pair.
    const toSolana = await unavailableRoutesOf({
      fromChain: 'bitcoin-devnet',
      toChain: 'solana-devnet',
      tokenIn: 'BTC',
      tokenOut: 'USDC',
      amount: '0.01',
    });
    for (const entry of toSolana) expect(entry).toMatchObject({ reason: 'PAIR_NOT_SUPPORTED' });
    expect(toSolana.map((e) => e.provider)).toEqual(expect.arrayContaining(['devnet-bridge', 'thorchain']));
    // THORChain covers devnet-a ⇄ Bitcoin, but its pools hold USDC there, not WETH: its own no-route answer.
    for (const [fromChain, toChain, tokenIn, tokenOut, amount] of [
      ['devnet-a', 'bitcoin-devnet', 'WETH', 'BTC', '1'],
      ['bitcoin-devnet', 'devnet-a', 'BTC', 'WETH', '0.01'],
    ])
      expect(await unavailableRoutesOf({ fromChain, toChain, tokenIn, tokenOut, amount })).toEqual([
        { provider: 'thorchain', reason: 'PAIR_NOT_SUPPORTED', details: { message: expect.any(String) } },
      ]);
  });

  it('lists every provider as PAIR_NOT_SUPPORTED when none serves the two chains', async () => {
    const res = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'ethereum',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '10',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.routes).toEqual([]);
    expect(res.body.data.unavailableRoutes.length).toBeGreaterThan(0);
    for (const entry of res.body.data.unavailableRoutes)
      expect(entry).toMatchObject({ reason: 'PAIR_NOT_SUPPORTED' });
    expect(res.body.data.unavailableRoutes.map((e: { provider: string }) => e.provider)).toEqual(
      expect.arrayContaining(['uniswap-v2', 'devnet-bridge']),
    );
  });

  it("keeps the request's slippage on every leg; a swap → bridge → swap route compounds it", async () => {
    const res = await client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'devnet-b',
      tokenIn: 'WETH',
      tokenOut: 'DAI',
      amount: '1',
      slippageBps: 50,
    });
    expect(res.status).toBe(200);
    const route = res.body.data.routes.find(
      (r: { bridgeProvider?: string }) => r.bridgeProvider === 'devnet-bridge',
    );
    expect(route).toMatchObject({ slippageSource: 'request', slippageBps: 100, stepCount: 3 });
    const expected = parseUnits(route.expectedAmountOut, 18);
    const min = parseUnits(route.minAmountOut, 18);
    // 1 − 0.995² = 0.9975 %, rounded up to 100 bps: the minimum is at most a few base units off.
    expect(min).toBeGreaterThanOrEqual((expected * 9_900n) / 10_000n);
    expect(min).toBeLessThanOrEqual((expected * 9_901n) / 10_000n);
  });

  it('includes provider outcomes with ?debug=1', async () => {
    const res = await client.post(
      '/quote',
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'DAI', tokenOut: 'USDC', amount: '10' },
      { query: { debug: '1' } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.debug.providers).toEqual([
      expect.objectContaining({ provider: 'uniswap-v2', status: 'ok' }),
    ]);
  });

  it.each([
    [
      { fromChain: 'atlantis', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1' },
      'UNKNOWN_CHAIN',
    ],
    [
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'NOPE', tokenOut: 'DAI', amount: '1' },
      'UNKNOWN_TOKEN',
    ],
    [
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'USDC', amount: '1' },
      'SAME_TOKEN',
    ],
    [
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1.1234567' },
      'INVALID_AMOUNT',
    ],
    [
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1e6' },
      'VALIDATION_FAILED',
    ],
    [
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: 1 },
      'VALIDATION_FAILED',
    ],
    [
      {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'DAI',
        amount: '1',
        network: 'regtest',
      },
      'VALIDATION_FAILED',
    ],
    [
      {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'DAI',
        amount: '1',
        network: 'mainnet',
      },
      'UNKNOWN_CHAIN',
    ],
    [
      {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'DAI',
        amount: '1',
        tokenRefFromOverride: 'usdc',
      },
      'VALIDATION_FAILED',
    ],
    [
      {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'DAI',
        amount: '1',
        recipient: 'not-an-address',
      },
      'VALIDATION_FAILED',
    ],
  ])('answers 400 for %j with %s', async (body, code) => {
    const res = await client.post('/quote', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
  });
});
