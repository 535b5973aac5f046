import type { ChainDescriptor } from '@swapgw/chains';
import { mostTellingNoRoute, NoRouteError } from '../providers/no-route.error';
import type { CandidateRoute, QuoteContext, QuoteProvider } from '../providers/quote-provider';
import { gatherRoutes, noRouteDetails } from './provider-orchestrator';

const chain: ChainDescriptor = {
  id: 'devnet-a',
  name: 'A',
  family: 'evm',
  network: 'testnet',
  caip2: 'eip155:31337',
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  devnet: true,
};
const context: QuoteContext = {
  fromChain: chain,
  toChain: chain,
  tokenIn: { chain: 'devnet-a', symbol: 'USDC', address: '0x1', decimals: 6 },
  tokenOut: { chain: 'devnet-a', symbol: 'DAI', address: '0x2', decimals: 18 },
  amountIn: 1n,
  slippageBps: 50,
};
const route = (out: bigint): CandidateRoute => ({
  providers: ['p'],
  legs: [],
  expectedAmountOut: out,
  estimatedDurationSeconds: 1,
  warnings: [],
});

class FakeProvider implements QuoteProvider {
  constructor(
    readonly name: string,
    private readonly behaviour: (signal: AbortSignal) => Promise<CandidateRoute[]>,
    private readonly covers = true,
  ) {}
  applies(): boolean {
    return this.covers;
  }
  quote(_: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    return this.behaviour(signal);
  }
}

const never = (signal: AbortSignal) =>
  new Promise<CandidateRoute[]>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

describe('gatherRoutes', () => {
  it('collects routes of every provider that answers and reports each outcome', async () => {
    const result = await gatherRoutes(
      [
        new FakeProvider('fast', async () => [route(5n), route(7n)]),
        new FakeProvider('broken', async () => Promise.reject(new Error('HTTP 500'))),
        new FakeProvider('slow', never),
        new FakeProvider('empty', async () => Promise.reject(new NoRouteError('NO_LIQUIDITY', 'no pool'))),
        new FakeProvider('nothing', async () => []),
        new FakeProvider('elsewhere', async () => [route(100n)], false),
      ],
      context,
      50,
    );
    expect(result.asked).toBe(5);
    expect(result.notApplicable).toEqual(['elsewhere']);
    expect(result.routes.map((r) => r.expectedAmountOut)).toEqual([5n, 7n]);
    const byName = Object.fromEntries(result.outcomes.map((o) => [o.provider, o]));
    expect(byName.fast).toMatchObject({ status: 'ok', routes: 2 });
    expect(byName.broken).toMatchObject({ status: 'failed', reason: 'HTTP 500' });
    expect(byName.slow).toMatchObject({ status: 'timed-out' });
    expect(byName.empty).toMatchObject({ status: 'no-route', reason: 'no pool' });
    expect(byName.elsewhere).toBeUndefined();
    // What the quote's unavailableRoutes says of each: typed reasons, failures without their internals.
    expect(byName.fast.unavailable).toBeUndefined();
    expect(byName.empty.unavailable).toEqual({
      provider: 'empty',
      reason: 'NO_LIQUIDITY',
      details: { message: 'no pool' },
    });
    expect(byName.nothing.unavailable).toMatchObject({ provider: 'nothing', reason: 'NO_LIQUIDITY' });
    expect(byName.broken.unavailable).toEqual({
      provider: 'broken',
      reason: 'PROVIDER_UNAVAILABLE',
      details: { message: 'the provider failed' },
    });
    expect(byName.slow.unavailable).toEqual({
      provider: 'slow',
      reason: 'PROVIDER_UNAVAILABLE',
      details: { message: 'no answer within 50 ms' },
    });
  });

  it('asks only a provider that pays THORChain affiliates a quote whose fee names one; the others say INTEGRATOR_FEE_NOT_SUPPORTED', async () => {
    const asked: string[] = [];
    const answering = (name: string) =>
      new FakeProvider(name, async () => {
        asked.push(name);
        return [route(5n)];
      });
    const thorchain = Object.assign(answering('thorchain'), { paysThorchainAffiliates: true });
    const charges = [{ recipient: 'wallet', bps: 30, amount: 3n, thorchainAffiliate: true as const }];
    const result = await gatherRoutes(
      [answering('uniswap-v2'), thorchain],
      { ...context, integratorFee: { grossAmountIn: 1_000n, charges } },
      50,
    );
    expect(asked).toEqual(['thorchain']);
    expect(result.asked).toBe(2);
    const refused = result.outcomes.find((outcome) => outcome.provider === 'uniswap-v2');
    expect(refused).toMatchObject({
      status: 'no-route',
      unavailable: { provider: 'uniswap-v2', reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' },
    });
    expect(refused?.unavailable?.details?.message).toContain('THORChain affiliate');
  });

  it('aborts the signal of a provider that misses the deadline', async () => {
    let aborted = false;
    await gatherRoutes(
      [
        new FakeProvider('slow', (signal) => {
          signal.addEventListener('abort', () => (aborted = true));
          return never(signal);
        }),
      ],
      context,
      20,
    );
    expect(aborted).toBe(true);
  });
});

describe('noRouteDetails', () => {
  const usdc = { chain: 'devnet-a', symbol: 'USDC', decimals: 6 };

  it('states a bound in human units of the token it applies to, with its chain', () => {
    expect(
      noRouteDetails(new NoRouteError('AMOUNT_TOO_LOW', 'too low', { token: usdc, minAmount: 900_451n })),
    ).toEqual({ message: 'too low', minAmount: '0.900451', token: 'USDC', chain: 'devnet-a' });
    expect(
      noRouteDetails(new NoRouteError('AMOUNT_TOO_HIGH', 'too high', { token: usdc, maxAmount: 10n ** 12n })),
    ).toEqual({ message: 'too high', maxAmount: '1000000', token: 'USDC', chain: 'devnet-a' });
  });

  it('names no token when the provider stated no bound', () => {
    expect(noRouteDetails(new NoRouteError('AMOUNT_TOO_LOW', 'too low', { token: usdc }))).toEqual({
      message: 'too low',
    });
  });
});

describe('mostTellingNoRoute', () => {
  it('keeps the reason a wallet can act on, with its bounds, and every message', () => {
    const token = { chain: 'base', symbol: 'USDC', decimals: 6 };
    const merged = mostTellingNoRoute([
      new NoRouteError('PAIR_NOT_SUPPORTED', 'WETH: not enabled'),
      new NoRouteError('AMOUNT_TOO_LOW', 'USDC: too low', { token, minAmount: 5n }),
      new NoRouteError('NO_LIQUIDITY', 'DAI: no pool'),
    ]);
    expect(merged).toMatchObject({ reason: 'AMOUNT_TOO_LOW', bounds: { token, minAmount: 5n } });
    expect(merged.message).toBe('WETH: not enabled; USDC: too low; DAI: no pool');
  });
});
