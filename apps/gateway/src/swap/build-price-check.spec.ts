import { SystemClock } from '@swapgw/runtime';
import { CodedError, RepriceRouteLegResult, RouteLeg, RoutePlan } from '@swapgw/contracts';
import type { ServiceClient } from '../messaging/service-client';
import { BuildPriceChecker, priceVerdictOf } from './build-price-check';

const USDC = {
  chain: 'devnet-a',
  symbol: 'USDC',
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  decimals: 6,
};
const WETH = { chain: 'devnet-a', symbol: 'WETH', address: null, decimals: 18 };
const LEG = {
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: USDC,
  tokenOut: WETH,
  amountIn: '3000000000',
  expectedAmountOut: '1000000000000000000',
  minAmountOut: '990000000000000000',
  slippageBps: 100,
  spender: '0x0000000000000000000000000000000000000001',
  path: ['0xa', '0xb'],
} as RouteLeg;
const PLAN = {
  quoteId: 'qt_1',
  routeId: 'rt_1',
  expiresAtMs: 1,
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: USDC,
  tokenOut: WETH,
  amountIn: '3000000000',
  expectedAmountOut: '1000000000000000000',
  slippageBps: 100,
  providers: ['uniswap-v2'],
  legs: [LEG],
} as RoutePlan;

const freshLeg = (out: bigint): RouteLeg => ({
  ...LEG,
  expectedAmountOut: out.toString(),
  minAmountOut: ((out * 99n) / 100n).toString(),
});
const result = (out: bigint, overrides: Partial<RepriceRouteLegResult> = {}): RepriceRouteLegResult => ({
  legIndex: 0,
  repriced: true,
  leg: freshLeg(out),
  expectedAmountOut: out.toString(),
  minAmountOut: ((out * 99n) / 100n).toString(),
  quotedExpectedAmountOut: PLAN.expectedAmountOut,
  quotedMinAmountOut: LEG.minAmountOut,
  movedBeyondSlippage: out < BigInt(LEG.minAmountOut),
  ...overrides,
});
const refusal = (fn: () => unknown): CodedError => {
  try {
    fn();
  } catch (error) {
    return error as CodedError;
  }
  throw new Error('no refusal');
};

describe('priceVerdictOf (the build’s decision on a re-priced first leg)', () => {
  it('builds the quoted plan when nothing was re-priced (a bridge first), with no priceCheck', () => {
    const verdict = priceVerdictOf(
      PLAN,
      { ...result(1n), repriced: false, movedBeyondSlippage: false },
      undefined,
      5,
    );
    expect(verdict).toEqual({ plan: PLAN });
  });

  it('builds the quoted plan, bound to the quoted minimum, when the price moved within slippage', () => {
    const verdict = priceVerdictOf(PLAN, result(995_000_000_000_000_000n), undefined, 5);
    expect(verdict.plan).toBe(PLAN);
    expect(verdict.priceCheck).toEqual({
      outcome: 'within-slippage',
      expectedAmountOut: '0.995',
      minAmountOut: '0.99',
      quotedExpectedAmountOut: '1',
      quotedMinAmountOut: '0.99',
      checkedAtMs: 5,
    });
  });

  it('still builds the quoted plan at exactly the quoted minimum, and when the price went up', () => {
    expect(priceVerdictOf(PLAN, result(990_000_000_000_000_000n), undefined, 5).plan).toBe(PLAN);
    expect(
      priceVerdictOf(PLAN, result(1_100_000_000_000_000_000n), undefined, 5).priceCheck?.expectedAmountOut,
    ).toBe('1.1');
  });

  it('refuses 409 QUOTE_PRICE_CHANGED with the new and quoted figures in human units when it moved beyond slippage', () => {
    const error = refusal(() => priceVerdictOf(PLAN, result(900_000_000_000_000_000n), undefined, 5));
    expect(error).toBeInstanceOf(CodedError);
    expect(error.code).toBe('QUOTE_PRICE_CHANGED');
    expect(error.details).toEqual({
      routeId: 'rt_1',
      expectedAmountOut: '0.9',
      minAmountOut: '0.891',
      quotedExpectedAmountOut: '1',
      quotedMinAmountOut: '0.99',
    });
  });

  it('builds the fresh leg, bound to the new minimum, when the client accepted a minimum the new price meets', () => {
    const verdict = priceVerdictOf(PLAN, result(900_000_000_000_000_000n), 891_000_000_000_000_000n, 5);
    expect(verdict.plan).toEqual({
      ...PLAN,
      expectedAmountOut: '900000000000000000',
      legs: [freshLeg(900_000_000_000_000_000n)],
    });
    expect(verdict.priceCheck).toMatchObject({
      outcome: 'accepted',
      expectedAmountOut: '0.9',
      minAmountOut: '0.891',
    });
  });

  it('refuses again when the price moved further than the minimum the client accepted', () => {
    const error = refusal(() =>
      priceVerdictOf(PLAN, result(800_000_000_000_000_000n), 891_000_000_000_000_000n, 5),
    );
    expect(error.code).toBe('QUOTE_PRICE_CHANGED');
    expect(error.details).toMatchObject({
      expectedAmountOut: '0.8',
      minAmountOut: '0.792',
      acceptedMinAmountOut: '0.891',
    });
  });

  it('cannot accept a route with no liquidity left', () => {
    const gone = result(0n, { leg: undefined, minAmountOut: '0', expectedAmountOut: '0' });
    const error = refusal(() => priceVerdictOf(PLAN, gone, 1n, 5));
    expect(error.code).toBe('QUOTE_PRICE_CHANGED');
    expect(error.details).toMatchObject({ expectedAmountOut: '0', minAmountOut: '0' });
  });
});

describe('BuildPriceChecker when quote-service does not answer', () => {
  const silent = {
    unordered: async () => {
      throw new CodedError('SERVICE_UNAVAILABLE', 'No answer to quote.reprice within 6000 ms');
    },
  } as unknown as ServiceClient;

  it('builds the quoted plan unchecked (a busy quote-service slows nothing into a 503)', async () => {
    await expect(new BuildPriceChecker(silent, new SystemClock()).check(PLAN, undefined)).resolves.toEqual({
      plan: PLAN,
    });
  });

  it('answers 503 when the build accepts a new price, which it cannot bind without the fresh one', async () => {
    await expect(new BuildPriceChecker(silent, new SystemClock()).check(PLAN, '0.5')).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
  });
});
