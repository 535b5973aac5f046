import type { ChainDescriptor } from '@swapgw/chains';
import { NoRouteError } from '../providers/no-route.error';
import type { CandidateRoute, QuoteContext, QuoteProvider } from '../providers/quote-provider';
import { gatherRoutes } from './provider-orchestrator';

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
        new FakeProvider('empty', async () => Promise.reject(new NoRouteError('no pool'))),
        new FakeProvider('elsewhere', async () => [route(100n)], false),
      ],
      context,
      50,
    );
    expect(result.asked).toBe(4);
    expect(result.routes.map((r) => r.expectedAmountOut)).toEqual([5n, 7n]);
    const byName = Object.fromEntries(result.outcomes.map((o) => [o.provider, o]));
    expect(byName.fast).toMatchObject({ status: 'ok', routes: 2 });
    expect(byName.broken).toMatchObject({ status: 'failed', reason: 'HTTP 500' });
    expect(byName.slow).toMatchObject({ status: 'timed-out' });
    expect(byName.empty).toMatchObject({ status: 'no-route', reason: 'no pool' });
    expect(byName.elsewhere).toBeUndefined();
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
