import type { ChainDescriptor, ChainRegistry } from '@swapgw/chains';
import { CodedError, RouteLeg, RoutePlan } from '@swapgw/contracts';
import type { CandidateRoute, QuoteContext, QuoteProvider } from '../providers/quote-provider';
import { RouteRepricer } from './route-repricer';

const CHAIN = { id: 'devnet-a', family: 'evm', devnet: true } as ChainDescriptor;
const registry = {
  find: (id: string) => (id === 'devnet-a' ? CHAIN : undefined),
} as unknown as ChainRegistry;
const USDC = {
  chain: 'devnet-a',
  symbol: 'USDC',
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  decimals: 6,
};
const WETH = {
  chain: 'devnet-a',
  symbol: 'WETH',
  address: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
  decimals: 18,
};
const DAI = {
  chain: 'devnet-a',
  symbol: 'DAI',
  address: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
  decimals: 18,
};

const swapLeg = (out: bigint, path = [USDC.address, WETH.address]): RouteLeg => ({
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: USDC,
  tokenOut: WETH,
  amountIn: '3000000000',
  expectedAmountOut: out.toString(),
  minAmountOut: ((out * 99n) / 100n).toString(),
  slippageBps: 100,
  spender: '0x0000000000000000000000000000000000000001',
  path,
  estimatedDurationSeconds: 5,
});
const plan = (legs: RouteLeg[], expected = legs[legs.length - 1].expectedAmountOut): RoutePlan => ({
  quoteId: 'qt_1',
  routeId: 'rt_1',
  expiresAtMs: 1,
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: USDC,
  tokenOut: legs[legs.length - 1].tokenOut,
  amountIn: '3000000000',
  expectedAmountOut: expected,
  slippageBps: 100,
  providers: ['uniswap-v2'],
  legs,
});

/** A provider that prices as the chain is now: one route per path given. */
class FakeProvider implements QuoteProvider {
  readonly name = 'uniswap-v2';
  asked: QuoteContext[] = [];
  constructor(private readonly answer: (context: QuoteContext) => Promise<CandidateRoute[]>) {}
  applies(context: QuoteContext) {
    return context.fromChain.id === 'devnet-a';
  }
  quote(context: QuoteContext) {
    this.asked.push(context);
    return this.answer(context);
  }
}
const routeOf = (leg: RouteLeg): CandidateRoute => ({
  providers: [leg.provider],
  legs: [leg],
  expectedAmountOut: BigInt(leg.expectedAmountOut),
  estimatedDurationSeconds: 5,
  warnings: [],
});
const ONE = 10n ** 18n;

describe('RouteRepricer', () => {
  it('prices the leg again with its provider, for its chain, tokens, amount and slippage, and keeps the same path', async () => {
    const viaWeth = swapLeg(ONE, [USDC.address, WETH.address, DAI.address]);
    const provider = new FakeProvider(async () => [
      routeOf(swapLeg(2n * ONE)),
      routeOf({ ...viaWeth, expectedAmountOut: '950000000000000000', minAmountOut: '940500000000000000' }),
    ]);
    const result = await new RouteRepricer(registry, [provider], 1000).reprice({
      plan: plan([viaWeth]),
      legIndex: 0,
    });
    expect(provider.asked[0]).toMatchObject({
      amountIn: 3_000_000_000n,
      slippageBps: 100,
      tokenIn: USDC,
      tokenOut: WETH,
    });
    expect(result).toEqual({
      legIndex: 0,
      repriced: true,
      leg: expect.objectContaining({ path: viaWeth.path, expectedAmountOut: '950000000000000000' }),
      expectedAmountOut: '950000000000000000',
      minAmountOut: '940500000000000000',
      quotedExpectedAmountOut: ONE.toString(),
      quotedMinAmountOut: '990000000000000000',
      movedBeyondSlippage: true,
    });
  });

  it('asks an aggregator leg that takes the integrator fee again with the same fee, on its amountIn and the fee', async () => {
    const recipient = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    // The leg swaps what is left after the fee its transaction takes out of the plan's whole input.
    const leg = { ...swapLeg(ONE), amountIn: '2985000000' };
    const provider = new FakeProvider(async (context) => [
      routeOf({ ...swapLeg(ONE - 1n), amountIn: context.amountIn.toString() }),
    ]);
    const feePlan: RoutePlan = {
      ...plan([leg]),
      integratorFees: [{ token: USDC, recipient, bps: 50, amount: '15000000', collectedBy: 'aggregator' }],
    };
    const result = await new RouteRepricer(registry, [provider], 1000).reprice({
      plan: feePlan,
      legIndex: 0,
    });
    expect(provider.asked[0]).toMatchObject({
      amountIn: 2_985_000_000n,
      integratorFee: {
        grossAmountIn: 3_000_000_000n,
        charges: [{ recipient, bps: 50, amount: 15_000_000n }],
      },
    });
    // Its fresh leg (the same amountIn) is the same leg.
    expect(result).toMatchObject({ repriced: true, expectedAmountOut: (ONE - 1n).toString() });

    // A fee the gateway's router pays is not the provider's to take: the leg is asked as quoted.
    const routerPaid = new FakeProvider(async () => [routeOf(leg)]);
    await new RouteRepricer(registry, [routerPaid], 1000).reprice({
      plan: { ...feePlan, integratorFees: [{ token: USDC, recipient, bps: 50, amount: '15000000' }] },
      legIndex: 0,
    });
    expect(routerPaid.asked[0].amountIn).toBe(2_985_000_000n);
    expect(routerPaid.asked[0].integratorFee).toBeUndefined();
  });

  it('says within slippage while the leg pays at least its quoted minimum', async () => {
    const provider = new FakeProvider(async () => [routeOf(swapLeg(995n * 10n ** 15n))]);
    const result = await new RouteRepricer(registry, [provider], 1000).reprice({
      plan: plan([swapLeg(ONE)]),
      legIndex: 0,
    });
    expect(result).toMatchObject({
      repriced: true,
      expectedAmountOut: '995000000000000000',
      movedBeyondSlippage: false,
    });
  });

  it('scales a longer route’s output with the first leg and computes its minimum with the fresh leg', async () => {
    const bridge: RouteLeg = {
      ...swapLeg(ONE),
      kind: 'bridge',
      provider: 'devnet-bridge',
      tokenIn: WETH,
      amountIn: ONE.toString(),
      expectedAmountOut: ONE.toString(),
      minAmountOut: ONE.toString(),
      slippageBps: 0,
      destinationChain: 'devnet-b',
    };
    const provider = new FakeProvider(async () => [routeOf(swapLeg(ONE / 2n))]);
    const result = await new RouteRepricer(registry, [provider], 1000).reprice({
      plan: plan([swapLeg(ONE), bridge], ONE.toString()),
      legIndex: 0,
    });
    expect(result).toMatchObject({
      expectedAmountOut: (ONE / 2n).toString(),
      minAmountOut: '495000000000000000',
    });
    expect(result.quotedMinAmountOut).toBe('990000000000000000');
    expect(result.movedBeyondSlippage).toBe(true);
  });

  it('does not re-price a bridge leg (a fixed amount)', async () => {
    const provider = new FakeProvider(async () => {
      throw new Error('must not be asked');
    });
    const bridge: RouteLeg = { ...swapLeg(ONE), kind: 'bridge', destinationChain: 'devnet-b' };
    const result = await new RouteRepricer(registry, [provider], 1000).reprice({
      plan: plan([bridge]),
      legIndex: 0,
    });
    expect(result).toMatchObject({
      repriced: false,
      movedBeyondSlippage: false,
      expectedAmountOut: ONE.toString(),
    });
    expect(provider.asked).toEqual([]);
  });

  it('reads a path with no output left as no route (expectedAmountOut 0, beyond slippage)', async () => {
    const provider = new FakeProvider(async () => []);
    const result = await new RouteRepricer(registry, [provider], 1000).reprice({
      plan: plan([swapLeg(ONE)]),
      legIndex: 0,
    });
    expect(result).toMatchObject({
      repriced: true,
      expectedAmountOut: '0',
      minAmountOut: '0',
      movedBeyondSlippage: true,
    });
    expect(result.leg).toBeUndefined();
  });

  it('answers 502 QUOTE_UPSTREAM_FAILED when the provider fails, times out or is not there', async () => {
    const failing = new FakeProvider(async () => {
      throw new Error('rpc down');
    });
    const slow = new FakeProvider(() => new Promise(() => undefined));
    for (const providers of [[failing], [slow], []]) {
      const error = await new RouteRepricer(registry, providers, 50)
        .reprice({ plan: plan([swapLeg(ONE)]), legIndex: 0 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CodedError);
      expect((error as CodedError).code).toBe('QUOTE_UPSTREAM_FAILED');
    }
  });
});
