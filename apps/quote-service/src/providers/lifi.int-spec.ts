import type { ServerResponse } from 'node:http';
import { freePort } from '@swapgw/testing';
import { getAddress } from 'ethers';
import {
  createQuoteTestDatabase,
  errorCodeOf,
  QuoteTestApp,
  buildQuoteTestApp,
  planOf,
} from '../../test/support/quote-service-test-support';
import { ProviderTestBench } from '../../test/support/provider-test-bench';
import { json, LocalUpstream } from '../../test/support/local-upstream';

const ETHEREUM_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const ARBITRUM_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const LIFI_DIAMOND = '0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE';

/** A LiFiStep as GET /v1/quote documents it (fields trimmed to the documented core). */
function lifiQuote(url: URL, toAmount: string, toAmountMin: string) {
  const fromChainId = Number(url.searchParams.get('fromChain'));
  const toChainId = Number(url.searchParams.get('toChain'));
  const cross = fromChainId !== toChainId;
  const token = (chainId: number, address: string) => ({
    address,
    chainId,
    symbol: 'USDC',
    decimals: 6,
    name: 'USD Coin',
    priceUSD: '1.00',
  });
  return {
    id: 'a0b1c2d3-quote',
    type: 'lifi',
    tool: cross ? 'stargate' : 'uniswap',
    toolDetails: {
      key: cross ? 'stargate' : 'uniswap',
      name: cross ? 'Stargate' : 'Uniswap',
      logoURI: 'https://example.invalid/logo.svg',
    },
    action: {
      fromChainId,
      toChainId,
      fromToken: token(fromChainId, url.searchParams.get('fromToken')!),
      toToken: token(toChainId, url.searchParams.get('toToken')!),
      fromAmount: url.searchParams.get('fromAmount'),
      slippage: Number(url.searchParams.get('slippage')),
      fromAddress: url.searchParams.get('fromAddress'),
      toAddress: url.searchParams.get('toAddress') ?? url.searchParams.get('fromAddress'),
    },
    estimate: {
      tool: cross ? 'stargate' : 'uniswap',
      fromAmount: url.searchParams.get('fromAmount'),
      toAmount,
      toAmountMin,
      approvalAddress: LIFI_DIAMOND,
      executionDuration: cross ? 64 : 30,
      fromAmountUSD: '1000.00',
      toAmountUSD: '998.70',
      feeCosts: integratorFeeCostsOf(url, token(fromChainId, url.searchParams.get('fromToken')!)),
      gasCosts: [],
    },
    includedSteps: cross
      ? [{ id: 'step-1', type: 'cross', tool: 'stargate', action: {}, estimate: { executionDuration: 64 } }]
      : [{ id: 'step-1', type: 'swap', tool: 'uniswap', action: {}, estimate: { executionDuration: 30 } }],
    transactionRequest: {
      to: LIFI_DIAMOND,
      data: '0x4630a0d8',
      value: '0x0',
      chainId: fromChainId,
      gasLimit: '0x55730',
      gasPrice: '0x5d21dba00',
    },
  };
}

/**
 * The feeCosts entry of the integrator's fee, as LI.FI reports it when asked `fee` (a fraction of
 * fromAmount) for an `integrator`: in the sent token, included in the amounts. [] without a fee.
 */
function integratorFeeCostsOf(url: URL, fromToken: { address: string; priceUSD: string }) {
  const fee = url.searchParams.get('fee');
  if (fee === null) return [];
  if (!url.searchParams.get('integrator')) throw new Error('LI.FI takes a fee only for an integrator');
  const bps = BigInt(Math.round(Number(fee) * 10_000));
  const amount = (BigInt(url.searchParams.get('fromAmount')!) * bps) / 10_000n;
  return [
    {
      name: 'Integrator Fee',
      description: 'Fee paid to the integrator',
      token: fromToken,
      amount: amount.toString(),
      amountUSD: (Number(amount) / 1e6).toFixed(2),
      percentage: fee,
      included: true,
    },
  ];
}

const LIFI_FEE_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

describe('LI.FI provider against a local server speaking its API (real PostgreSQL)', () => {
  const lifi = new LocalUpstream();
  const bench = ProviderTestBench.forSuite(lifi);
  const withEnv = (env: Record<string, string>) => bench.app(env);
  let service: QuoteTestApp;

  beforeAll(async () => {
    service = await withEnv({
      LIFI_API_URL: lifi.url,
      LIFI_API_KEY: 'test-key',
      // Generous for a busy CI machine; the slow-LI.FI case takes an app of its own.
      QUOTE_PROVIDER_TIMEOUT_MS: '10000',
    });
  });

  it('marks real-network tokens supported once the aggregator is configured', async () => {
    const { tokens } = await service.catalog.listTokens({
      chainRef: 'base',
      supportedOnly: true,
      limit: 50,
      debug: true,
    });
    const all = await service.catalog.listTokens({ chainRef: 'base', limit: 50 });
    expect(tokens.length).toBeGreaterThanOrEqual(3); // ETH, USDC, WETH of the shipped catalog
    expect(tokens.map((t) => t.symbol)).toEqual(all.tokens.map((t) => t.symbol));
    for (const token of tokens) expect(token.debug!.providers).toContain('lifi');
  });

  it('quotes Ethereum USDC → Arbitrum USDC with LI.FI as the documented request and maps its answer', async () => {
    lifi.handler = ({ url, headers }, res) => {
      expect(headers['x-lifi-api-key']).toBe('test-key');
      json(res, 200, lifiQuote(url, '998700000', '993706500'));
    };
    const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const quote = await service.quotes.create({
      fromChain: 'ethereum',
      toChain: 'arbitrum',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '1000',
      recipient,
    });

    expect(lifi.requests).toHaveLength(1);
    const sent = Object.fromEntries(lifi.requests[0].url.searchParams);
    expect(lifi.requests[0].url.pathname).toBe('/v1/quote');
    expect(sent).toEqual({
      fromChain: '1',
      toChain: '42161',
      fromToken: ETHEREUM_USDC,
      toToken: ARBITRUM_USDC,
      fromAmount: '1000000000',
      fromAddress: recipient,
      toAddress: recipient,
      slippage: '0.005',
    });
    expect(quote.routes).toHaveLength(1);
    expect(quote.routes[0]).toMatchObject({
      provider: 'lifi',
      providers: ['lifi'],
      bridgeProvider: 'stargate',
      family: 'cross-chain',
      stepCount: 1,
      // In units of USDC (6 decimals): LI.FI's toAmount and toAmountMin are base units.
      amountIn: '1000',
      expectedAmountOut: '998.7',
      minAmountOut: '993.7065',
      tokenInDecimals: 6,
      tokenOutDecimals: 6,
      estimatedDurationSeconds: 64,
      warnings: [],
    });
    const plan = planOf(quote, quote.routes[0].routeId);
    expect(plan.legs[0]).toMatchObject({
      kind: 'bridge',
      chain: 'ethereum',
      destinationChain: 'arbitrum',
      provider: 'lifi',
      spender: LIFI_DIAMOND,
      minAmountOut: '993706500',
      call: { to: LIFI_DIAMOND, data: '0x4630a0d8', value: '0', from: recipient },
    });
  });

  it('prices without a wallet but carries no call: LI.FI built it for the placeholder sender, who would be paid', async () => {
    lifi.handler = ({ url }, res) => json(res, 200, lifiQuote(url, '998700000', '993706500'));
    const quote = await service.quotes.create({
      fromChain: 'ethereum',
      toChain: 'arbitrum',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '1000',
    });
    expect(lifi.requests[0].url.searchParams.get('fromAddress')).toBe(
      '0x0000000000000000000000000000000000000001',
    );
    // Automatic slippage: a 13 bps impact (998.70 for 1000 USD) keeps the 50 bps floor, asked once.
    expect(lifi.requests).toHaveLength(1);
    expect(quote.routes[0]).toMatchObject({ slippageBps: 50, slippageSource: 'auto' });
    const leg = planOf(quote, quote.routes[0].routeId).legs[0];
    expect(leg).toMatchObject({ provider: 'lifi', expectedAmountOut: '998700000' });
    expect(leg.call).toBeUndefined();
  });

  it('sends native coins as LI.FI native addresses and warns on a large USD loss', async () => {
    lifi.handler = ({ url }, res) => {
      const body = lifiQuote(url, '2900000000', '2885500000');
      body.estimate.toAmountUSD = '950.00'; // 5% below fromAmountUSD
      json(res, 200, body);
    };
    const quote = await service.quotes.create({
      fromChain: 'base',
      toChain: 'base',
      tokenIn: 'ETH',
      tokenOut: 'USDC',
      amount: '1',
    });
    expect(lifi.requests[0].url.searchParams.get('fromToken')).toBe(
      '0x0000000000000000000000000000000000000000',
    );
    expect(lifi.requests[0].url.searchParams.get('fromAddress')).toBe(
      '0x0000000000000000000000000000000000000001',
    );
    expect(quote.routes[0]).toMatchObject({
      provider: 'lifi',
      family: 'same-chain',
      warnings: ['HIGH_PRICE_IMPACT'],
      // Automatic: 30 + ceil(500 / 2) from the 5% impact; LI.FI was asked again with it, since its
      // transaction's minimum comes from the slippage it is sent.
      slippageBps: 280,
      slippageSource: 'auto',
    });
    expect(lifi.requests.map((r) => r.url.searchParams.get('slippage'))).toEqual(['0.005', '0.028']);
    expect(quote.routes[0].bridgeProvider).toBeUndefined();
  });

  describe('with an integrator fee', () => {
    let withFees: QuoteTestApp;
    const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const request = {
      fromChain: 'ethereum',
      toChain: 'arbitrum',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '1000',
      slippageBps: 50,
      recipient,
    };
    beforeAll(async () => {
      withFees = await withEnv({
        LIFI_API_URL: lifi.url,
        LIFI_INTEGRATOR: 'swapgw-test',
        LIFI_FEE_WALLET_EVM: LIFI_FEE_WALLET,
        QUOTE_PROVIDER_TIMEOUT_MS: '10000',
      });
    });

    it('asks `fee` and `integrator` on the whole input and reports the fee LI.FI says its call takes', async () => {
      lifi.handler = ({ url }, res) => json(res, 200, lifiQuote(url, '995700000', '990721500'));
      const quote = await withFees.quotes.create({
        ...request,
        integratorFee: [{ bps: 30, recipient: LIFI_FEE_WALLET }],
      });
      const sent = Object.fromEntries(lifi.requests[0].url.searchParams);
      expect(sent).toMatchObject({ fromAmount: '1000000000', fee: '0.003', integrator: 'swapgw-test' });
      expect(quote.routes).toHaveLength(1);
      expect(quote.routes[0].integratorFee).toEqual([
        { bps: 30, amount: '3', token: 'USDC', chain: 'ethereum', recipient: LIFI_FEE_WALLET },
      ]);
      const plan = planOf(quote, quote.routes[0].routeId);
      // LI.FI's call spends the whole input and takes the fee out of it: the leg swaps what is left.
      expect(plan.legs[0].amountIn).toBe('997000000');
      expect(plan.integratorFees).toEqual([
        expect.objectContaining({ recipient: LIFI_FEE_WALLET, amount: '3000000', collectedBy: 'aggregator' }),
      ]);
    });

    it.each([
      ['a recipient that is not the registered fee wallet', [{ bps: 30, recipient }]],
      [
        'several recipients',
        [
          { bps: 30, recipient: LIFI_FEE_WALLET },
          { bps: 10, recipient },
        ],
      ],
    ])('gives no route, INTEGRATOR_FEE_NOT_SUPPORTED, for %s, without asking LI.FI', async (_what, fee) => {
      lifi.handler = ({ url }, res) => json(res, 200, lifiQuote(url, '995700000', '990721500'));
      const quote = await withFees.quotes.create({ ...request, integratorFee: fee });
      expect(lifi.requests).toHaveLength(0);
      expect(quote.routes).toEqual([]);
      expect(quote.unavailableRoutes).toEqual([
        expect.objectContaining({ provider: 'lifi', reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' }),
      ]);
    });

    it('gives no route, INTEGRATOR_FEE_NOT_SUPPORTED, when the answer does not carry the fee asked', async () => {
      lifi.handler = ({ url }, res) => {
        const body = lifiQuote(url, '995700000', '990721500');
        json(res, 200, { ...body, estimate: { ...body.estimate, feeCosts: [] } });
      };
      const quote = await withFees.quotes.create({
        ...request,
        integratorFee: [{ bps: 30, recipient: LIFI_FEE_WALLET }],
      });
      expect(quote.routes).toEqual([]);
      expect(quote.unavailableRoutes).toEqual([
        expect.objectContaining({ provider: 'lifi', reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' }),
      ]);
    });
  });

  it('answers routes: [] when LI.FI finds no route (404, code 1002)', async () => {
    lifi.handler = (_request, res) =>
      json(res, 404, {
        message: 'No available quotes for the requested transfer',
        code: 1002,
        errors: [
          {
            errorType: 'NO_QUOTE',
            code: 'NO_POSSIBLE_ROUTE',
            tool: 'stargate',
            message: 'No route was found for this action.',
          },
        ],
      });
    const quote = await service.quotes.create({
      fromChain: 'ethereum',
      toChain: 'solana',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '5',
      debug: true,
    });
    expect(quote.routes).toEqual([]);
    expect(lifi.requests[0].url.searchParams.get('toChain')).toBe('1151111081099710');
    expect(lifi.requests[0].url.searchParams.get('toToken')).toBe(
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    );
    expect(quote.debug!.providers).toEqual([
      expect.objectContaining({ provider: 'lifi', status: 'no-route' }),
    ]);
  });

  it.each([
    [
      'a server error',
      (res: ServerResponse) => json(res, 500, { message: 'Internal server error', code: 1006 }),
    ],
    ['rate limiting', (res: ServerResponse) => json(res, 429, { message: 'Too many requests', code: 1005 })],
    [
      'an answer without an estimate',
      (res: ServerResponse) => json(res, 200, { id: 'x', type: 'lifi', tool: 'stargate' }),
    ],
  ])('answers QUOTE_UPSTREAM_FAILED when its only provider fails with %s', async (_what, answer) => {
    lifi.handler = (_request, res) => answer(res);
    await expect(
      errorCodeOf(
        service.quotes.create({
          fromChain: 'ethereum',
          toChain: 'arbitrum',
          tokenIn: 'USDC',
          tokenOut: 'USDC',
          amount: '1',
        }),
      ),
    ).resolves.toBe('QUOTE_UPSTREAM_FAILED');
  });

  it('answers QUOTE_UPSTREAM_FAILED when LI.FI is slower than the provider deadline', async () => {
    const impatient = await withEnv({
      LIFI_API_URL: lifi.url,
      LIFI_API_KEY: 'test-key',
      QUOTE_PROVIDER_TIMEOUT_MS: '500',
    });
    let closedEarly = false;
    lifi.handler = ({ url }, res) => {
      const timer = setTimeout(() => json(res, 200, lifiQuote(url, '1', '1')), 5_000);
      res.on('close', () => {
        closedEarly = !res.writableEnded;
        clearTimeout(timer);
      });
    };
    await expect(
      errorCodeOf(
        impatient.quotes.create({
          fromChain: 'ethereum',
          toChain: 'arbitrum',
          tokenIn: 'USDC',
          tokenOut: 'USDC',
          amount: '1',
        }),
      ),
    ).resolves.toBe('QUOTE_UPSTREAM_FAILED');
    // The provider's fetch honoured the AbortSignal: the connection closed before LI.FI answered.
    for (const deadline = Date.now() + 1_000; !closedEarly && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedEarly).toBe(true);
  });

  it('answers QUOTE_UPSTREAM_FAILED when the LI.FI server is down and no other provider covers the route', async () => {
    const down = await withEnv({ LIFI_API_URL: `http://127.0.0.1:${await freePort()}` });
    await expect(
      errorCodeOf(
        down.quotes.create({
          fromChain: 'ethereum',
          toChain: 'arbitrum',
          tokenIn: 'USDC',
          tokenOut: 'USDC',
          amount: '1',
        }),
      ),
    ).resolves.toBe('QUOTE_UPSTREAM_FAILED');
  });

  it('skips a failing provider when another answers (Uniswap V2 on an unreachable Ethereum RPC, LI.FI up)', async () => {
    lifi.handler = ({ url }, res) => json(res, 200, lifiQuote(url, '330000000000000', '328350000000000'));
    const both = await withEnv({
      LIFI_API_URL: lifi.url,
      RPC_URL_ETHEREUM: `http://127.0.0.1:${await freePort()}`,
      QUOTE_PROVIDER_TIMEOUT_MS: '10000',
    });
    const quote = await both.quotes.create({
      fromChain: 'ethereum',
      toChain: 'ethereum',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '1',
      debug: true,
    });
    expect(quote.routes).toHaveLength(1);
    expect(quote.routes[0].provider).toBe('lifi');
    const outcomes = quote.debug!.providers as { provider: string; status: string }[];
    expect(outcomes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          provider: 'uniswap-v2',
          status: expect.stringMatching(/failed|timed-out/),
        }),
        expect.objectContaining({ provider: 'lifi', status: 'ok' }),
      ]),
    );
  });
});

describe('token discovery upstream (TOKEN_LIST_URL) against a local server', () => {
  const lists = new LocalUpstream();
  let database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  let service: QuoteTestApp;

  beforeAll(async () => {
    await lists.start();
    database = await createQuoteTestDatabase();
    service = await buildQuoteTestApp(database.dataSource, {
      DEVNET_MANIFEST: '/nonexistent/manifest.json',
      TOKEN_LIST_URL: `${lists.url}/tokens.json`,
    });
  });

  afterAll(async () => {
    await service?.close();
    await lists.stop();
    await database?.drop();
  });

  it('answers DISCOVERY_UPSTREAM_UNAVAILABLE while the list never loaded, and serves it once the upstream recovers', async () => {
    lists.handler = (_request, res) => json(res, 503, { message: 'maintenance' });
    await service.sync.seed(); // does not throw: the service starts and reports the outage per request
    await expect(errorCodeOf(service.catalog.listTokens({}))).resolves.toBe('DISCOVERY_UPSTREAM_UNAVAILABLE');
    await expect(errorCodeOf(service.catalog.listPairs({}))).resolves.toBe('DISCOVERY_UPSTREAM_UNAVAILABLE');

    lists.handler = (_request, res) =>
      json(res, 200, {
        name: 'Local list',
        timestamp: '2026-01-01T00:00:00Z',
        version: { major: 1, minor: 0, patch: 0 },
        tokens: [
          {
            chainId: 8453,
            address: '0x00000000000000000000000000000000000000aa',
            name: 'Local Token',
            symbol: 'LOCAL',
            decimals: 12,
            logoURI: 'https://example.invalid/local.png',
          },
        ],
      });
    const { tokens } = await service.catalog.listTokens({ chainRef: 'base', q: 'LOCAL' });
    expect(tokens).toEqual([
      {
        chain: 'base',
        symbol: 'LOCAL',
        name: 'Local Token',
        decimals: 12,
        address: getAddress('0x00000000000000000000000000000000000000aa'),
        logoUrl: 'https://example.invalid/local.png',
      },
    ]);
  });
});
