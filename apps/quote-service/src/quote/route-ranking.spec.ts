import { rankRoutes, RankableRoute } from './route-ranking';

const route = (out: bigint, steps = 1, duration = 10, providers = ['uniswap-v2']): RankableRoute => ({
  expectedAmountOut: out,
  stepCount: steps,
  estimatedDurationSeconds: duration,
  providers,
});

describe('route ranking', () => {
  it('puts the best output first, comparing as bigints not strings', () => {
    const ranked = rankRoutes([route(9n), route(10n ** 30n), route(100n)]);
    expect(ranked.map((r) => r.expectedAmountOut)).toEqual([10n ** 30n, 100n, 9n]);
  });

  it('breaks ties by fewer steps, then by speed, then by provider name', () => {
    const ranked = rankRoutes([
      route(5n, 3, 10, ['b']),
      route(5n, 1, 60, ['z']),
      route(5n, 1, 20, ['y']),
      route(5n, 1, 20, ['a']),
    ]);
    expect(ranked.map((r) => r.providers[0])).toEqual(['a', 'y', 'z', 'b']);
  });

  it('does not mutate its input', () => {
    const input = [route(1n), route(2n)];
    rankRoutes(input);
    expect(input[0].expectedAmountOut).toBe(1n);
  });
});
