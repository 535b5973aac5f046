import type { ServerResponse } from 'node:http';
import { ACROSS_SWAP_MESSAGE_ABI_TYPE } from '@swapgw/chains';
import { CodedError } from '@swapgw/contracts';
import { freePort } from '@swapgw/testing';
import { AbiCoder, getAddress, solidityPacked, toQuantity } from 'ethers';
import { errorCodeOf, planOf, QuoteTestApp } from '../../test/support/quote-service-test-support';
import { ProviderTestBench } from '../../test/support/provider-test-bench';
import { json, jsonRpc, LocalUpstream } from '../../test/support/local-upstream';
import { QUOTER_V2_INTERFACE, V3_POOL_INTERFACE } from './uniswap-v3-quoter';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const ARBITRUM_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const BASE_SPOKE_POOL = '0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64';
const RELAYER = '0x394311A6Aaa0D8E3411D8b62DE4578D41322d1bD';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ARBITRUM_WETH = '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1';
const ARBITRUM_QUOTER_V2 = '0x61fFE014bA17989E743c5F6cB21bF9697530B21e';
const ARBITRUM_SWAP_ROUTER_02 = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45';
const SWAP_GATEWAY_ROUTER = '0xaF6a9937da6E97b4eB02C30E44221B81DdBB9F8b';

/** WETH (token0 on arbitrum) at 3000 USDC: sqrt(3000e6 / 1e18) × 2^96. */
const SQRT_PRICE_3000 = 4339505179874779489431521n;
/** What arbitrum's QuoterV2 answers below: USDC → WETH at 3000 USDC per WETH, less the pool's fee. */
const wethFor = (usdc: bigint, fee: bigint) => (usdc * 10n ** 12n * (1_000_000n - fee)) / 3000n / 1_000_000n;

/** The block the node below is at: quote-service reads pools at the head block. */
const ARBITRUM_HEAD = 280_000_000;

/**
 * Arbitrum's node, as the destination swap of a bridge-swap reads it (its head, then eth_call at
 * that block): every pool is a live USDC/WETH pool at 3000 USDC per WETH, and QuoterV2 answers
 * wethFor its amount and tier.
 */
function arbitrumNode(method: string, params: unknown[]): unknown {
  if (method === 'eth_blockNumber') return toQuantity(ARBITRUM_HEAD);
  if (method !== 'eth_call') return { error: { code: -32601, message: `${method} is not served` } };
  if (params[1] !== toQuantity(ARBITRUM_HEAD))
    return { error: { code: -32000, message: `read at ${String(params[1])}, not at the head` } };
  const { to, data } = params[0] as { to: string; data: string };
  if (getAddress(to) === ARBITRUM_QUOTER_V2) {
    const [[, , amountIn, fee]] = QUOTER_V2_INTERFACE.decodeFunctionData(
      'quoteExactInputSingle',
      data,
    ) as unknown as [[string, string, bigint, bigint]];
    return QUOTER_V2_INTERFACE.encodeFunctionResult('quoteExactInputSingle', [
      wethFor(amountIn, fee),
      SQRT_PRICE_3000,
      1,
      90_000,
    ]);
  }
  return V3_POOL_INTERFACE.parseTransaction({ data })!.name === 'slot0'
    ? V3_POOL_INTERFACE.encodeFunctionResult('slot0', [SQRT_PRICE_3000, 0, 0, 1, 1, 0, true])
    : V3_POOL_INTERFACE.encodeFunctionResult('liquidity', [10n ** 24n]);
}

/**
 * GET /suggested-fees as Across's API answers it (across-protocol/frontend api/suggested-fees.ts):
 * fees per component as {pct (1e18 = 100%), total}, the quote timestamp and block, the SpokePool
 * to deposit into, exclusivity, the fill deadline, the limits, and outputAmount.
 */
function suggestedFees(url: URL, feeTotal: bigint, overrides: Record<string, unknown> = {}) {
  const amount = BigInt(url.searchParams.get('amount')!);
  const pct = (part: bigint) => ((part * 10n ** 18n) / amount).toString();
  const gas = feeTotal / 2n;
  return {
    estimatedFillTimeSec: 4,
    expectedFillTimeSec: 4,
    capitalFeePct: pct(feeTotal - gas),
    capitalFeeTotal: (feeTotal - gas).toString(),
    relayGasFeePct: pct(gas),
    relayGasFeeTotal: gas.toString(),
    relayFeePct: pct(feeTotal),
    relayFeeTotal: feeTotal.toString(),
    lpFeePct: '0',
    timestamp: '1795000000',
    isAmountTooLow: false,
    quoteBlock: '23874123',
    exclusiveRelayer: RELAYER,
    exclusivityDeadline: 10,
    spokePoolAddress: BASE_SPOKE_POOL,
    destinationSpokePoolAddress: '0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A',
    totalRelayFee: { pct: pct(feeTotal), total: feeTotal.toString() },
    relayerCapitalFee: { pct: pct(feeTotal - gas), total: (feeTotal - gas).toString() },
    relayerGasFee: { pct: pct(gas), total: gas.toString() },
    lpFee: { pct: '0', total: '0' },
    limits: {
      minDeposit: '1000000',
      maxDeposit: '5000000000000',
      maxDepositInstant: '1000000000000',
      maxDepositShortDelay: '2000000000000',
      recommendedDepositInstant: '500000000000',
    },
    fillDeadline: '1795007200',
    outputAmount: (amount - feeTotal).toString(),
    ...overrides,
  };
}

const usdcBaseToArbitrum = { fromChain: 'base', toChain: 'arbitrum', tokenIn: 'USDC', tokenOut: 'USDC' };

describe('across provider against a local server speaking Across’s suggested-fees API (real PostgreSQL)', () => {
  const across = new LocalUpstream();
  const arbitrum = new LocalUpstream();
  arbitrum.handler = (request, res) => jsonRpc(request, res, arbitrumNode);
  beforeAll(() => arbitrum.start());
  afterAll(() => arbitrum.stop());
  // Both ends need an RPC URL to be routed through (nothing listens on base's: a route starting with
  // USDC reads no chain there; arbitrum's answers the destination swap's reads).
  const bench = ProviderTestBench.forSuite(across, async () => ({
    RPC_URL_BASE: `http://127.0.0.1:${await freePort()}`,
    RPC_URL_ARBITRUM: arbitrum.url,
    // Generous: a bridge-swap's destination pool reads share a busy CI machine with other lanes (1.5 s
    // was once not enough). The slow-Across case takes an app of its own with a short deadline.
    QUOTE_PROVIDER_TIMEOUT_MS: '10000',
  }));
  const withEnv = (env: Record<string, string>) => bench.app(env);
  let service: QuoteTestApp;

  beforeAll(async () => {
    service = await withEnv({ ACROSS_API_URL: `${across.url}/api` });
  });

  it('asks GET /suggested-fees as Across documents it and carries the deposit terms on the bridge leg', async () => {
    across.handler = ({ url }, res) => json(res, 200, suggestedFees(url, 1_250_000n));
    const quote = await service.quotes.create({
      ...usdcBaseToArbitrum,
      amount: '1000',
      recipient: RECIPIENT,
    });

    expect(across.requests).toHaveLength(1);
    expect(across.requests[0].url.pathname).toBe('/api/suggested-fees');
    // A plain transfer: the wallet as recipient, no message.
    expect(Object.fromEntries(across.requests[0].url.searchParams)).toEqual({
      inputToken: BASE_USDC,
      outputToken: ARBITRUM_USDC,
      originChainId: '8453',
      destinationChainId: '42161',
      amount: '1000000000',
      skipAmountLimit: 'true',
      recipient: RECIPIENT,
    });
    expect(quote.routes[0]).toMatchObject({
      provider: 'across',
      providers: ['across'],
      bridgeProvider: 'across',
      family: 'cross-chain',
      amountIn: '1000',
      expectedAmountOut: '998.75',
      estimatedDurationSeconds: 4,
      // A bridge paying a fixed amount has no slippage, automatic or not.
      minAmountOut: '998.75',
      slippageBps: 0,
    });
    const [leg] = planOf(quote, quote.routes[0].routeId).legs;
    expect(leg).toEqual({
      kind: 'bridge',
      chain: 'base',
      provider: 'across',
      tokenIn: { chain: 'base', symbol: 'USDC', address: BASE_USDC, decimals: 6 },
      tokenOut: { chain: 'arbitrum', symbol: 'USDC', address: ARBITRUM_USDC, decimals: 6 },
      amountIn: '1000000000',
      expectedAmountOut: '998750000',
      // The relayer pays exactly outputAmount or nothing: the leg has no price risk.
      minAmountOut: '998750000',
      slippageBps: 0,
      spender: BASE_SPOKE_POOL,
      destinationChain: 'arbitrum',
      destinationBridgeChainId: 42161,
      across: {
        spokePool: BASE_SPOKE_POOL,
        outputToken: ARBITRUM_USDC,
        outputAmount: '998750000',
        quoteTimestamp: 1795000000,
        fillDeadline: 1795007200,
        exclusiveRelayer: RELAYER,
        exclusivityDeadline: 10,
      },
      estimatedDurationSeconds: 4,
    });
  });

  it('asks the fee of a bridge-swap with the destination router as recipient and a message of the shape its deposit carries', async () => {
    // As Across does, a message's fill costs more gas: a higher relay fee.
    across.handler = ({ url }, res) =>
      json(res, 200, suggestedFees(url, url.searchParams.has('message') ? 1_500_000n : 1_250_000n));
    const quote = await service.quotes.create({
      fromChain: 'base',
      toChain: 'arbitrum',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '1000',
      slippageBps: 50,
      recipient: RECIPIENT,
    });

    expect(across.requests).toHaveLength(1);
    const { message, ...query } = Object.fromEntries(across.requests[0].url.searchParams);
    expect(query).toEqual({
      inputToken: BASE_USDC,
      outputToken: ARBITRUM_USDC,
      originChainId: '8453',
      destinationChainId: '42161',
      amount: '1000000000',
      skipAmountLimit: 'true',
      recipient: SWAP_GATEWAY_ROUTER,
    });
    // AcrossSwapMessage as handleV3AcrossMessage decodes it: the swap priced on the amount before the
    // fee (its minimum at the request's slippage), the deadline a placeholder of the same size.
    const [decoded] = AbiCoder.defaultAbiCoder().decode(
      [ACROSS_SWAP_MESSAGE_ABI_TYPE],
      message,
    ) as unknown as [[string, string, string, bigint, string, boolean, bigint]];
    expect(decoded.slice(0, 6)).toEqual([
      RECIPIENT,
      ARBITRUM_SWAP_ROUTER_02,
      solidityPacked(['address', 'uint24', 'address'], [ARBITRUM_USDC, 100, ARBITRUM_WETH]).toLowerCase(),
      (wethFor(1_000_000_000n, 100n) * 9950n) / 10_000n,
      RECIPIENT,
      false,
    ]);
    expect(decoded[6]).toBeGreaterThan(BigInt(Math.floor(Date.now() / 1000)));

    const route = quote.routes.find((r) => r.bridgeProvider === 'across')!;
    expect(route.providers).toEqual(['across', 'uniswap-v3']);
    const [bridge, swap] = planOf(quote, route.routeId).legs;
    expect(bridge.across!.outputAmount).toBe('998500000');
    expect(swap).toMatchObject({
      chain: 'arbitrum',
      amountIn: '998500000',
      expectedAmountOut: wethFor(998_500_000n, 100n).toString(),
      path: [ARBITRUM_USDC, ARBITRUM_WETH],
      poolFees: [100],
      spender: ARBITRUM_SWAP_ROUTER_02,
    });
  });

  it.each([
    [
      'isAmountTooLow in a 200 answer',
      (res: ServerResponse, url: URL) => json(res, 200, suggestedFees(url, 0n, { isAmountTooLow: true })),
      {
        reason: 'AMOUNT_TOO_LOW',
        details: expect.objectContaining({ minAmount: '1', token: 'USDC', chain: 'base' }),
      },
    ],
    [
      'an amount over limits.maxDeposit in a 200 answer',
      (res: ServerResponse, url: URL) =>
        json(res, 200, suggestedFees(url, 0n, { limits: { minDeposit: '1', maxDeposit: '100000' } })),
      {
        reason: 'AMOUNT_TOO_HIGH',
        details: expect.objectContaining({ maxAmount: '0.1', token: 'USDC', chain: 'base' }),
      },
    ],
    [
      'AMOUNT_TOO_LOW (400)',
      (res: ServerResponse) =>
        json(res, 400, {
          type: 'AcrossApiError',
          code: 'AMOUNT_TOO_LOW',
          status: 400,
          message: 'Sent amount is too low relative to fees',
          param: 'amount',
        }),
      { reason: 'AMOUNT_TOO_LOW', details: { message: expect.stringContaining('AMOUNT_TOO_LOW') } },
    ],
    [
      'ROUTE_NOT_ENABLED (400)',
      (res: ServerResponse) =>
        json(res, 400, {
          type: 'AcrossApiError',
          code: 'ROUTE_NOT_ENABLED',
          status: 400,
          message: 'Route is not enabled',
        }),
      { reason: 'PAIR_NOT_SUPPORTED', details: { message: expect.stringContaining('ROUTE_NOT_ENABLED') } },
    ],
  ])('answers routes: [] (no route, not a failure) on %s, saying why', async (_what, answer, unavailable) => {
    across.handler = ({ url }, res) => answer(res, url);
    const quote = await service.quotes.create({ ...usdcBaseToArbitrum, amount: '0.5', debug: true });
    expect(quote.routes).toEqual([]);
    expect(quote.unavailableRoutes).toEqual([{ provider: 'across', ...unavailable }]);
    expect(quote.debug!.providers).toEqual([
      expect.objectContaining({
        provider: 'across',
        status: 'no-route',
        reason: expect.stringContaining('Across'),
      }),
    ]);
  });

  it.each([
    [
      'a server error (500)',
      (res: ServerResponse) => json(res, 500, { message: 'Internal server error' }),
      'HTTP 500',
    ],
    [
      'a quote for another SpokePool than the catalog’s',
      (res: ServerResponse, url: URL) =>
        json(
          res,
          200,
          suggestedFees(url, 1n, { spokePoolAddress: '0x1111111111111111111111111111111111111111' }),
        ),
      'SpokePool',
    ],
    [
      'a body without outputAmount',
      (res: ServerResponse, url: URL) => json(res, 200, suggestedFees(url, 1n, { outputAmount: undefined })),
      'without outputAmount',
    ],
  ])(
    'answers QUOTE_UPSTREAM_FAILED when Across, the only provider, answers %s',
    async (_what, answer, reason) => {
      across.handler = ({ url }, res) => answer(res, url);
      const error = await service.quotes.create({ ...usdcBaseToArbitrum, amount: '10' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CodedError);
      expect((error as CodedError).code).toBe('QUOTE_UPSTREAM_FAILED');
      expect((error as CodedError).details).toEqual({
        providers: [
          expect.objectContaining({
            provider: 'across',
            status: 'failed',
            reason: expect.stringContaining(reason),
          }),
        ],
      });
    },
  );

  it('aborts the request when Across is slower than the provider deadline', async () => {
    // A plain transfer reads no chain: only Across's answer can be late.
    const impatient = await withEnv({
      ACROSS_API_URL: `${across.url}/api`,
      QUOTE_PROVIDER_TIMEOUT_MS: '500',
    });
    let closedEarly = false;
    across.handler = ({ url }, res) => {
      const timer = setTimeout(() => json(res, 200, suggestedFees(url, 1n)), 5_000);
      res.on('close', () => {
        closedEarly = !res.writableEnded;
        clearTimeout(timer);
      });
    };
    await expect(errorCodeOf(impatient.quotes.create({ ...usdcBaseToArbitrum, amount: '10' }))).resolves.toBe(
      'QUOTE_UPSTREAM_FAILED',
    );
    for (const deadline = Date.now() + 1_000; !closedEarly && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedEarly).toBe(true);
  });

  it('is off with ACROSS_API_URL=off, and never asked between chains without an RPC', async () => {
    const off = await withEnv({ ACROSS_API_URL: 'off' });
    expect((await off.quotes.create({ ...usdcBaseToArbitrum, amount: '10' })).routes).toEqual([]);
    const noRpc = await withEnv({ ACROSS_API_URL: `${across.url}/api`, RPC_URL_ARBITRUM: '' });
    expect((await noRpc.quotes.create({ ...usdcBaseToArbitrum, amount: '10' })).routes).toEqual([]);
    expect(across.requests).toEqual([]);
  });
});
