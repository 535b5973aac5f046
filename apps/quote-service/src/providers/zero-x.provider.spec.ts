import { ChainDescriptor, REAL_NETWORKS } from '@swapgw/chains';
import { NoRouteError } from './no-route.error';
import type { QuoteContext } from './quote-provider';
import { ZEROX_NATIVE_TOKEN, zeroXFailure, zeroXRoute } from './zero-x.provider';

const ethereum = REAL_NETWORKS.find((chain) => chain.id === 'ethereum') as ChainDescriptor;
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const ALLOWANCE_HOLDER = '0x0000000000001ff3684f28c67538d4d072c22734';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const usdcToWeth: QuoteContext = {
  fromChain: ethereum,
  toChain: ethereum,
  tokenIn: { chain: 'ethereum', symbol: 'USDC', address: USDC, decimals: 6 },
  tokenOut: { chain: 'ethereum', symbol: 'WETH', address: WETH, decimals: 18 },
  amountIn: 1_000_000_000n,
  slippageBps: 50,
};
const ethToUsdc: QuoteContext = {
  ...usdcToWeth,
  tokenIn: { chain: 'ethereum', symbol: 'ETH', address: null, decimals: 18 },
  tokenOut: usdcToWeth.tokenIn,
  amountIn: 10n ** 18n,
};

/** The fields of a firm quote (0x API reference, getQuote (Allowance Holder), 200) the route reads. */
function answer(context: QuoteContext, patch: Record<string, unknown> = {}) {
  const nativeIn = context.tokenIn.address === null;
  return {
    liquidityAvailable: true,
    allowanceTarget: nativeIn ? null : ALLOWANCE_HOLDER,
    blockNumber: '23234770',
    sellToken: (context.tokenIn.address ?? ZEROX_NATIVE_TOKEN).toLowerCase(),
    buyToken: (context.tokenOut.address ?? ZEROX_NATIVE_TOKEN).toLowerCase(),
    sellAmount: context.amountIn.toString(),
    buyAmount: '1000',
    minBuyAmount: '995',
    issues: {
      allowance: nativeIn ? null : { actual: '0', spender: ALLOWANCE_HOLDER },
      balance: null,
      simulationIncomplete: false,
      invalidSourcesPassed: [],
    },
    route: { fills: [], tokens: [] },
    fees: { integratorFee: null, integratorFees: null, zeroExFee: null, gasFee: null },
    totalNetworkFee: null,
    transaction: {
      to: ALLOWANCE_HOLDER,
      data: '0x2213bc0b',
      gas: null,
      gasPrice: '1676486955',
      value: nativeIn ? context.amountIn.toString() : '0',
    },
    zid: '0x9c2d3156ecfc7dd6b4acc463',
    ...patch,
  };
}

describe('zeroXRoute: a 0x quote answer as a route', () => {
  it('carries the call only when the quote was made for the wallet', () => {
    expect(zeroXRoute(usdcToWeth, answer(usdcToWeth), WALLET).legs[0].call).toEqual({
      to: ALLOWANCE_HOLDER,
      data: '0x2213bc0b',
      value: '0',
      from: WALLET,
    });
    expect(zeroXRoute(usdcToWeth, answer(usdcToWeth)).legs[0].call).toBeUndefined();
  });

  it('approves allowanceTarget when the taker already has its allowance (issues.allowance null)', () => {
    const route = zeroXRoute(
      usdcToWeth,
      answer(usdcToWeth, { issues: { allowance: null, balance: null, simulationIncomplete: false } }),
    );
    expect(route.legs[0].spender).toBe(ALLOWANCE_HOLDER);
  });

  it('is no route, not a failure, when liquidityAvailable is false', () => {
    expect(() => zeroXRoute(usdcToWeth, { liquidityAvailable: false, zid: '0xabc' })).toThrow(NoRouteError);
    expect(() => zeroXRoute(usdcToWeth, { liquidityAvailable: false, zid: '0xabc' })).toThrow(
      expect.objectContaining({ reason: 'NO_LIQUIDITY' }),
    );
  });

  it.each([
    ['minBuyAmount above buyAmount', usdcToWeth, { minBuyAmount: '1001' }, 'minBuyAmount exceeds buyAmount'],
    ['a buyAmount of 0', usdcToWeth, { buyAmount: '0', minBuyAmount: '0' }, 'buyAmount is 0'],
    ['a decimal buyAmount', usdcToWeth, { buyAmount: '1000.5' }, 'is not an integer'],
    ['another sellAmount', usdcToWeth, { sellAmount: '999999999' }, 'sellAmount differs'],
    ['another buyToken', usdcToWeth, { buyToken: USDC.toLowerCase() }, 'buyToken differs'],
    [
      'ETH sent along an ERC-20 sale',
      usdcToWeth,
      { transaction: { to: ALLOWANCE_HOLDER, data: '0x', gas: null, gasPrice: '1', value: '1' } },
      'does not fit the input',
    ],
    [
      'less ETH than a native sale sells',
      ethToUsdc,
      { transaction: { to: ALLOWANCE_HOLDER, data: '0x', gas: null, gasPrice: '1', value: '1' } },
      'does not fit the input',
    ],
    [
      'calldata that is not hex',
      usdcToWeth,
      { transaction: { to: ALLOWANCE_HOLDER, data: 'swap()', gas: null, gasPrice: '1', value: '0' } },
      'transaction lacks to, data or value',
    ],
    [
      'an ERC-20 sale with no contract to approve',
      usdcToWeth,
      { allowanceTarget: null, issues: { allowance: null } },
      'names the contract to approve',
    ],
  ])('rejects an answer with %s', (_what, context, patch, problem) => {
    const attempt = () => zeroXRoute(context, answer(context, patch), WALLET);
    expect(attempt).toThrow(problem);
    expect(attempt).not.toThrow(NoRouteError);
  });

  it('rejects a body that is not a quote at all', () => {
    expect(() => zeroXRoute(usdcToWeth, undefined)).toThrow('0x quote answer rejected');
  });
});

describe('zeroXFailure: a non-2xx answer as the error the orchestrator counts', () => {
  const body = (name: string) => JSON.stringify({ name, message: 'm', data: { zid: '0x1' } });

  it.each([
    [400, 'INPUT_INVALID', 'PAIR_NOT_SUPPORTED'],
    [400, 'TOKEN_NOT_SUPPORTED', 'PAIR_NOT_SUPPORTED'],
    [400, 'SWAP_VALIDATION_FAILED', 'NO_LIQUIDITY'],
    [422, 'BUY_TOKEN_NOT_AUTHORIZED_FOR_TRADE', 'PAIR_NOT_SUPPORTED'],
    [422, 'SELL_TOKEN_NOT_AUTHORIZED_FOR_TRADE', 'PAIR_NOT_SUPPORTED'],
  ])('%i %s is no route: %s', (status, name, reason) => {
    const error = zeroXFailure(status, body(name), 'key');
    expect(error).toBeInstanceOf(NoRouteError);
    expect((error as NoRouteError).reason).toBe(reason);
    expect(error.message).toBe(`0x: ${name}: m [zid 0x1]`);
  });

  it.each([
    [400, 'USER_NOT_AUTHORIZED'],
    [400, 'RECIPIENT_NOT_SUPPORTED'],
    [403, 'TAKER_NOT_AUTHORIZED_FOR_TRADE'],
    [500, 'INTERNAL_SERVER_ERROR'],
    [500, 'UNCATEGORIZED'],
    // A name that means no route on a 400 is still a failure on a status that says the upstream broke.
    [503, 'TOKEN_NOT_SUPPORTED'],
  ])('%i %s fails the provider', (status, name) => {
    const error = zeroXFailure(status, body(name), 'key');
    expect(error).not.toBeInstanceOf(NoRouteError);
    expect(error.message).toBe(`0x answered HTTP ${status} ${name}: m [zid 0x1]`);
  });

  it('names the status of an answer that is not JSON, and never prints the API key', () => {
    expect(zeroXFailure(429, 'Too Many Requests', 'key').message).toBe(
      '0x answered HTTP 429: Too Many Requests',
    );
    const echoed = zeroXFailure(401, JSON.stringify({ message: 'Invalid API key s3cr3t-key' }), 's3cr3t-key');
    expect(echoed.message).toBe('0x answered HTTP 401: Invalid API key [redacted]');
  });
});

describe('zeroXRoute with an integrator fee 0x takes in its call', () => {
  const FEE_RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
  // 1000 USDC in, 50 bps: 5 USDC to the recipient, 995 USDC left to swap.
  const withFee: QuoteContext = {
    ...usdcToWeth,
    amountIn: 995_000_000n,
    integratorFee: {
      grossAmountIn: 1_000_000_000n,
      charges: [{ recipient: FEE_RECIPIENT, bps: 50, amount: 5_000_000n }],
    },
  };
  const fee = (amount: string, token = USDC.toLowerCase()) => ({ amount, token, type: 'volume' });
  const answered = (fees: Record<string, unknown>) =>
    answer(withFee, {
      sellAmount: '1000000000',
      fees: { integratorFee: null, integratorFees: null, zeroExFee: null, gasFee: null, ...fees },
    });

  it('sells the gross amount, its leg swapping what is left after the fee 0x states (its rounding, within 1 base unit)', () => {
    const route = zeroXRoute(withFee, answered({ integratorFee: fee('4999999') }), WALLET);
    expect(route.legs[0].amountIn).toBe('995000001');
    expect(route.integratorFee).toEqual([{ recipient: FEE_RECIPIENT, bps: 50, amount: 4_999_999n }]);
  });

  it.each([
    ['no fee at all', {}],
    ['a fee in the buyToken', { integratorFee: fee('5000000', WETH.toLowerCase()) }],
    ['another amount', { integratorFee: fee('4000000') }],
    ['two fees for one asked', { integratorFees: [fee('5000000'), fee('1')] }],
  ])('is no route, INTEGRATOR_FEE_NOT_SUPPORTED, for an answer with %s', (_what, fees) => {
    const refusal = (() => {
      try {
        zeroXRoute(withFee, answered(fees), WALLET);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(NoRouteError);
    expect((refusal as NoRouteError).reason).toBe('INTEGRATOR_FEE_NOT_SUPPORTED');
  });

  it('refuses an answer that sold the net amount instead of the whole input', () => {
    expect(() => zeroXRoute(withFee, answer(withFee, { sellAmount: '995000000' }), WALLET)).toThrow(
      'sellAmount differs from the request',
    );
  });
});
