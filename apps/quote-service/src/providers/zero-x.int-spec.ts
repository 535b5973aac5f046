import type { ServerResponse } from 'node:http';
import { CodedError } from '@swapgw/contracts';
import { errorCodeOf, QuoteTestApp, planOf } from '../../test/support/quote-service-test-support';
import { ProviderTestBench } from '../../test/support/provider-test-bench';
import { json, LocalUpstream } from '../../test/support/local-upstream';
import { ZEROX_NATIVE_TOKEN } from './zero-x.provider';

const API_KEY = 'test-0x-key-5f2c';
const ETHEREUM_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const ETHEREUM_WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
/** 0x's AllowanceHolder (Cancun chains): the spender the wallet approves and the AllowanceHolder quote's call target. */
const ALLOWANCE_HOLDER = '0x0000000000001fF3684f28c67538d4D072C22734';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const CALLDATA = '0x2213bc0b000000000000000000000000df31a70a21a1931e02033dbba7deace6c45cfd0f';

/**
 * A firm quote (liquidityAvailable: true) as 0x's "Get Started with Swap API" guide shows it, for
 * the request's tokens and amount: minBuyAmount is buyAmount less slippageBps.
 */
function zeroXQuote(url: URL, buyAmount: bigint) {
  const q = (name: string) => url.searchParams.get(name)!;
  const sellToken = q('sellToken').toLowerCase();
  const buyToken = q('buyToken').toLowerCase();
  const integratorFees = swapFeesOf(url);
  const nativeIn = sellToken === ZEROX_NATIVE_TOKEN.toLowerCase();
  const spender = ALLOWANCE_HOLDER.toLowerCase();
  return {
    allowanceTarget: nativeIn ? null : spender,
    blockNumber: '23234770',
    buyAmount: buyAmount.toString(),
    buyToken,
    fees: {
      integratorFee: integratorFees.length === 1 ? integratorFees[0] : null,
      integratorFees: integratorFees.length > 0 ? integratorFees : null,
      zeroExFee: { amount: ((buyAmount * 15n) / 10_000n).toString(), token: buyToken, type: 'volume' },
      gasFee: null,
    },
    issues: {
      allowance: nativeIn ? null : { actual: '0', spender },
      balance: { token: sellToken, actual: '0', expected: q('sellAmount') },
      simulationIncomplete: false,
      invalidSourcesPassed: [],
    },
    liquidityAvailable: true,
    minBuyAmount: ((buyAmount * BigInt(10_000 - Number(q('slippageBps')))) / 10_000n).toString(),
    mode: 'exact-in',
    route: {
      fills: [
        { from: sellToken, to: buyToken, source: 'Uniswap_V3', proportionBps: '6000' },
        { from: sellToken, to: buyToken, source: '0x_RFQ', proportionBps: '4000' },
      ],
      tokens: [
        { address: sellToken, symbol: 'SELL' },
        { address: buyToken, symbol: 'BUY' },
      ],
    },
    sellAmount: q('sellAmount'),
    sellToken,
    tokenMetadata: {
      buyToken: { buyTaxBps: '0', sellTaxBps: '0' },
      sellToken: { buyTaxBps: '0', sellTaxBps: '0' },
    },
    totalNetworkFee: '1394929353342525',
    transaction: {
      to: spender,
      data: CALLDATA,
      gas: '832055',
      gasPrice: '1676486955',
      value: nativeIn ? q('sellAmount') : '0',
    },
    zid: '0x9c2d3156ecfc7dd6b4acc463',
  };
}

/**
 * The integrator fees 0x reports for swapFeeRecipient / swapFeeBps (comma-separated, matched by
 * position: Multi-Fee Support), collected in swapFeeToken: a share of sellAmount when it is the
 * sellToken, of buyAmount otherwise (here only the sellToken is asked). [] without them.
 */
function swapFeesOf(url: URL): { amount: string; token: string; type: 'volume' }[] {
  const recipients = url.searchParams.get('swapFeeRecipient')?.split(',') ?? [];
  const bps = url.searchParams.get('swapFeeBps')?.split(',') ?? [];
  if (recipients.length !== bps.length) throw new Error('swapFeeRecipient and swapFeeBps differ in length');
  if (bps.length === 0) return [];
  const token = (url.searchParams.get('swapFeeToken') ?? url.searchParams.get('buyToken')!).toLowerCase();
  if (token !== url.searchParams.get('sellToken')!.toLowerCase())
    throw new Error('this server collects fees in the sellToken only');
  const sellAmount = BigInt(url.searchParams.get('sellAmount')!);
  return bps.map((share) => ({
    amount: ((sellAmount * BigInt(share)) / 10_000n).toString(),
    token,
    type: 'volume' as const,
  }));
}

const FEE_RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SECOND_FEE_RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

const usdcToWeth = { fromChain: 'ethereum', toChain: 'ethereum', tokenIn: 'USDC', tokenOut: 'WETH' };
/** 1000 USDC for the wallet at 30 bps: a quote 0x builds the transaction of. */
const walletUsdcToWeth = { ...usdcToWeth, amount: '1000', slippageBps: 30, recipient: RECIPIENT };

describe('0x provider against a local server speaking the Swap API v2 (real PostgreSQL)', () => {
  /** Answers GET /swap/allowance-holder/quote as the 0x API v2 documents it. */
  const zeroX = new LocalUpstream();
  const bench = ProviderTestBench.forSuite(zeroX);
  const withEnv = (env: Record<string, string>) => bench.app(env);
  let service: QuoteTestApp;

  /** The CodedError a quote fails with, and what it says of the providers. */
  const failureOf = async (request: Parameters<QuoteTestApp['quotes']['create']>[0]) => {
    const error = await service.quotes.create(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof CodedError)) throw new Error(`expected a CodedError, got ${String(error)}`);
    return error;
  };

  beforeAll(async () => {
    service = await withEnv({
      ZEROX_API_URL: zeroX.url,
      ZEROX_API_KEY: API_KEY,
      // Generous for a busy CI machine; the slow-0x case takes an app of its own.
      QUOTE_PROVIDER_TIMEOUT_MS: '10000',
    });
  });

  it('asks GET /swap/allowance-holder/quote as documented for the recipient and maps every field a route uses', async () => {
    zeroX.handler = ({ url }, res) => json(res, 200, zeroXQuote(url, 285_714_285_714_285_714n));
    const quote = await service.quotes.create({ ...walletUsdcToWeth, debug: true });

    expect(zeroX.requests).toHaveLength(1);
    const [sent] = zeroX.requests;
    expect(sent.url.pathname).toBe('/swap/allowance-holder/quote');
    expect(Object.fromEntries(sent.url.searchParams)).toEqual({
      chainId: '1',
      sellToken: ETHEREUM_USDC,
      buyToken: ETHEREUM_WETH,
      sellAmount: '1000000000',
      taker: RECIPIENT,
      slippageBps: '30',
    });
    expect(sent.headers['0x-api-key']).toBe(API_KEY);
    expect(sent.headers['0x-version']).toBe('v2');

    expect(quote.routes).toHaveLength(1);
    expect(quote.routes[0]).toMatchObject({
      provider: '0x',
      providers: ['0x'],
      family: 'same-chain',
      stepCount: 1,
      amountIn: '1000',
      // WETH has 18 decimals: buyAmount and minBuyAmount (buyAmount less 30 bps) are base units.
      expectedAmountOut: '0.285714285714285714',
      minAmountOut: '0.284857142857142856',
      estimatedDurationSeconds: 30,
      warnings: [],
    });
    expect(quote.routes[0].bridgeProvider).toBeUndefined();
    const plan = planOf(quote, quote.routes[0].routeId);
    expect(plan.legs).toEqual([
      {
        kind: 'swap',
        chain: 'ethereum',
        provider: '0x',
        tokenIn: { chain: 'ethereum', symbol: 'USDC', address: ETHEREUM_USDC, decimals: 6 },
        tokenOut: { chain: 'ethereum', symbol: 'WETH', address: ETHEREUM_WETH, decimals: 18 },
        amountIn: '1000000000',
        expectedAmountOut: '285714285714285714',
        minAmountOut: '284857142857142856',
        slippageBps: 30,
        spender: ALLOWANCE_HOLDER.toLowerCase(),
        call: { to: ALLOWANCE_HOLDER.toLowerCase(), data: CALLDATA, value: '0', from: RECIPIENT },
        estimatedDurationSeconds: 30,
      },
    ]);
    expect(quote.debug!.providers).toEqual([
      expect.objectContaining({ provider: '0x', status: 'ok', routes: 1 }),
    ]);
    expect(quote.debug!.routes).toEqual([
      expect.objectContaining({
        zid: '0x9c2d3156ecfc7dd6b4acc463',
        blockNumber: '23234770',
        fills: [
          {
            source: 'Uniswap_V3',
            proportionBps: 6000,
            from: ETHEREUM_USDC.toLowerCase(),
            to: ETHEREUM_WETH.toLowerCase(),
          },
          {
            source: '0x_RFQ',
            proportionBps: 4000,
            from: ETHEREUM_USDC.toLowerCase(),
            to: ETHEREUM_WETH.toLowerCase(),
          },
        ],
        fees: {
          integratorFee: null,
          integratorFees: null,
          zeroExFee: { amount: '428571428571428', token: ETHEREUM_WETH.toLowerCase(), type: 'volume' },
          gasFee: null,
        },
        totalNetworkFee: '1394929353342525',
        gas: '832055',
        gasPrice: '1676486955',
        simulationIncomplete: false,
        transactionBuilt: true,
      }),
    ]);
  });

  it("sells native ETH as 0x's native address; without a recipient the quote is for the configured taker and carries no call", async () => {
    zeroX.handler = ({ url }, res) => json(res, 200, zeroXQuote(url, 2_900_000_000n));
    const priced = await service.quotes.create({
      fromChain: 'base',
      toChain: 'base',
      tokenIn: 'ETH',
      tokenOut: 'USDC',
      amount: '1',
      debug: true,
    });
    expect(Object.fromEntries(zeroX.requests[0].url.searchParams)).toEqual({
      chainId: '8453',
      sellToken: ZEROX_NATIVE_TOKEN,
      buyToken: BASE_USDC,
      sellAmount: '1000000000000000000',
      taker: '0x0000000000000000000000000000000000000001',
      slippageBps: '50',
    });
    expect(priced.routes[0]).toMatchObject({
      provider: '0x',
      expectedAmountOut: '2900',
      minAmountOut: '2885.5',
    });
    const pricedLeg = planOf(priced, priced.routes[0].routeId).legs[0];
    expect(pricedLeg.tokenIn.address).toBeNull();
    // No approval for a native input: allowanceTarget is null and the call's target is named instead.
    expect(pricedLeg.spender).toBe(ALLOWANCE_HOLDER.toLowerCase());
    expect(pricedLeg.call).toBeUndefined();
    expect(priced.debug!.routes).toEqual([expect.objectContaining({ transactionBuilt: false })]);

    const built = await service.quotes.create({
      fromChain: 'base',
      toChain: 'base',
      tokenIn: 'ETH',
      tokenOut: 'USDC',
      amount: '1',
      recipient: RECIPIENT,
    });
    expect(zeroX.requests[1].url.searchParams.get('taker')).toBe(RECIPIENT);
    expect(planOf(built, built.routes[0].routeId).legs[0].call).toEqual({
      to: ALLOWANCE_HOLDER.toLowerCase(),
      data: CALLDATA,
      value: '1000000000000000000',
      from: RECIPIENT,
    });
  });

  it('asks 0x for the integrator fee (swapFeeRecipient, swapFeeBps, swapFeeToken = sellToken) on the whole input and reports the fee 0x says its call takes', async () => {
    zeroX.handler = ({ url }, res) => json(res, 200, zeroXQuote(url, 285_714_285_714_285_714n));
    const quote = await service.quotes.create({
      ...walletUsdcToWeth,
      integratorFee: [
        { bps: 50, recipient: FEE_RECIPIENT },
        { bps: 25, recipient: SECOND_FEE_RECIPIENT },
      ],
    });

    const [sent] = zeroX.requests;
    expect(Object.fromEntries(sent.url.searchParams)).toMatchObject({
      sellAmount: '1000000000',
      swapFeeRecipient: `${FEE_RECIPIENT},${SECOND_FEE_RECIPIENT}`,
      swapFeeBps: '50,25',
      swapFeeToken: ETHEREUM_USDC,
    });
    expect(quote.routes).toHaveLength(1);
    expect(quote.routes[0].amountIn).toBe('1000');
    expect(quote.routes[0].integratorFee).toEqual([
      { bps: 50, amount: '5', token: 'USDC', chain: 'ethereum', recipient: FEE_RECIPIENT },
      { bps: 25, amount: '2.5', token: 'USDC', chain: 'ethereum', recipient: SECOND_FEE_RECIPIENT },
    ]);
    const plan = planOf(quote, quote.routes[0].routeId);
    // The call spends the whole input and takes the fees out of it: the leg swaps what is left,
    // and the planner adds no transfer.
    expect(plan.legs[0].amountIn).toBe('992500000');
    expect(plan.legs[0].call).toBeDefined();
    expect(plan.integratorFees).toEqual([
      expect.objectContaining({
        recipient: FEE_RECIPIENT,
        bps: 50,
        amount: '5000000',
        collectedBy: 'aggregator',
      }),
      expect.objectContaining({
        recipient: SECOND_FEE_RECIPIENT,
        bps: 25,
        amount: '2500000',
        collectedBy: 'aggregator',
      }),
    ]);
  });

  it('gives no route, INTEGRATOR_FEE_NOT_SUPPORTED, when the answer does not carry the fee asked', async () => {
    zeroX.handler = ({ url }, res) => {
      const body = zeroXQuote(url, 285_714_285_714_285_714n);
      json(res, 200, { ...body, fees: { ...body.fees, integratorFee: null, integratorFees: null } });
    };
    const quote = await service.quotes.create({
      ...usdcToWeth,
      amount: '1000',
      recipient: RECIPIENT,
      integratorFee: [{ bps: 50, recipient: FEE_RECIPIENT }],
    });
    expect(quote.routes).toEqual([]);
    expect(quote.unavailableRoutes).toEqual([
      expect.objectContaining({ provider: '0x', reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' }),
    ]);
  });

  it('answers routes: [] when 0x has no liquidity for the pair (liquidityAvailable: false)', async () => {
    zeroX.handler = (_r, res) =>
      json(res, 200, { liquidityAvailable: false, zid: '0x111111111111111111111111' });
    const quote = await service.quotes.create({ ...usdcToWeth, amount: '5', debug: true });
    expect(quote.routes).toEqual([]);
    expect(quote.debug!.providers).toEqual([
      expect.objectContaining({
        provider: '0x',
        status: 'no-route',
        reason: expect.stringContaining('zid 0x111111111111111111111111'),
      }),
    ]);
  });

  it('answers routes: [] on INPUT_INVALID (400) and says which input 0x refused', async () => {
    zeroX.handler = (_r, res) =>
      json(res, 400, {
        name: 'INPUT_INVALID',
        message: 'The input is invalid',
        data: {
          zid: '0x222222222222222222222222',
          details: [{ field: 'sellAmount', reason: 'sellAmount is too small' }],
        },
      });
    const quote = await service.quotes.create({ ...usdcToWeth, amount: '0.000001', debug: true });
    expect(quote.routes).toEqual([]);
    expect(quote.debug!.providers).toEqual([
      expect.objectContaining({
        provider: '0x',
        status: 'no-route',
        reason:
          '0x: INPUT_INVALID: The input is invalid (sellAmount: sellAmount is too small) [zid 0x222222222222222222222222]',
      }),
    ]);
  });

  it.each([
    [
      'rate limiting (429)',
      (res: ServerResponse) => json(res, 429, { message: 'API rate limit exceeded' }),
      'HTTP 429',
    ],
    [
      'INTERNAL_SERVER_ERROR (500)',
      (res: ServerResponse) =>
        json(res, 500, {
          name: 'INTERNAL_SERVER_ERROR',
          message: 'An internal server error occurred',
          data: { zid: '0x333333333333333333333333' },
        }),
      'HTTP 500 INTERNAL_SERVER_ERROR',
    ],
    [
      'a refused key that the answer echoes (401)',
      (res: ServerResponse) => json(res, 401, { message: `Invalid API key ${API_KEY}` }),
      'HTTP 401',
    ],
    [
      'a gateway page that is not JSON (502)',
      (res: ServerResponse) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html><body>502 Bad Gateway</body></html>');
      },
      'HTTP 502',
    ],
    [
      'a quote whose minBuyAmount exceeds its buyAmount',
      (res: ServerResponse, url: URL) => json(res, 200, { ...zeroXQuote(url, 100n), minBuyAmount: '101' }),
      'minBuyAmount exceeds buyAmount',
    ],
  ])(
    'answers QUOTE_UPSTREAM_FAILED when 0x, the only provider, fails with %s, without leaking the key',
    async (_what, answer: (res: ServerResponse, url: URL) => void, reason) => {
      zeroX.handler = ({ url }, res) => answer(res, url);
      const error = await failureOf({ ...usdcToWeth, amount: '1' });
      expect(error.code).toBe('QUOTE_UPSTREAM_FAILED');
      expect(error.details).toEqual({
        providers: [
          expect.objectContaining({
            provider: '0x',
            status: 'failed',
            reason: expect.stringContaining(reason),
          }),
        ],
      });
      expect(JSON.stringify(error.details)).not.toContain(API_KEY);
    },
  );

  it('aborts the request and answers QUOTE_UPSTREAM_FAILED when 0x is slower than the provider deadline', async () => {
    const impatient = await withEnv({
      ZEROX_API_URL: zeroX.url,
      ZEROX_API_KEY: API_KEY,
      QUOTE_PROVIDER_TIMEOUT_MS: '500',
    });
    let closedEarly = false;
    zeroX.handler = ({ url }, res) => {
      const timer = setTimeout(() => json(res, 200, zeroXQuote(url, 1n)), 3_000);
      res.on('close', () => {
        closedEarly = !res.writableEnded;
        clearTimeout(timer);
      });
    };
    await expect(errorCodeOf(impatient.quotes.create({ ...usdcToWeth, amount: '1' }))).resolves.toBe(
      'QUOTE_UPSTREAM_FAILED',
    );
    // The provider's fetch honoured the AbortSignal: the connection closed before 0x answered.
    for (const deadline = Date.now() + 1_000; !closedEarly && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedEarly).toBe(true);
  });

  it('is off without ZEROX_API_KEY: 0x is never asked', async () => {
    zeroX.handler = ({ url }, res) => json(res, 200, zeroXQuote(url, 1_000n));
    const keyless = await withEnv({ ZEROX_API_URL: zeroX.url });
    const quote = await keyless.quotes.create({ ...usdcToWeth, amount: '1', debug: true });
    expect(zeroX.requests).toHaveLength(0);
    expect(quote.routes).toEqual([]);
    expect(quote.debug!.providers).toEqual([]);
  });
});
