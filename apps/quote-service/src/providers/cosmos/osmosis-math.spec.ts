import {
  balancerOutGivenIn,
  osmosisRoute,
  routeOutGivenIn,
  routePoolShareBps,
  routePriceImpactBps,
} from './osmosis-math';
import { balancerPoolsOf, BALANCER_POOL_TYPE, OsmosisBalancerPool, parseSdkDec } from './osmosis-pools';

/** A pool as Osmosis's poolmanager `all-pools` answers it (x/gamm balancer, JSON). */
function poolJson(
  id: number,
  [a, b]: [string, string],
  [ra, rb]: [string, string],
  swapFee = '0.002000000000000000',
) {
  return {
    '@type': BALANCER_POOL_TYPE,
    address: `osmo1pool${id}`,
    id: String(id),
    pool_params: { swap_fee: swapFee, exit_fee: '0.000000000000000000', smooth_weight_change_params: null },
    future_pool_governor: '',
    total_shares: { denom: `gamm/pool/${id}`, amount: '100000000000000000000' },
    pool_assets: [
      { token: { denom: a, amount: ra }, weight: '1073741824' },
      { token: { denom: b, amount: rb }, weight: '1073741824' },
    ],
    total_weight: '2147483648',
  };
}

const ATOM = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
const USDC = 'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4';

describe('Osmosis pools as the poolmanager answers them', () => {
  it('reads two-asset equal-weight balancer pools, sorted by id, and leaves other pool types out', () => {
    const pools = balancerPoolsOf({
      pools: [
        poolJson(3, ['uosmo', USDC], ['2000000000000', '1000000000000']),
        poolJson(1, [ATOM, 'uosmo'], ['200000000000', '2000000000000']),
        { '@type': '/osmosis.concentratedliquidity.v1beta1.Pool', id: '1066', address: 'osmo1cl' },
        {
          ...poolJson(7, [ATOM, USDC], ['1', '1']),
          pool_assets: [
            { token: { denom: ATOM, amount: '1' }, weight: '1' },
            { token: { denom: USDC, amount: '1' }, weight: '3' },
          ],
        },
      ],
    });
    expect(pools.map((p) => p.id)).toEqual([1n, 3n]);
    expect(pools[0]).toEqual({
      id: 1n,
      address: 'osmo1pool1',
      spreadFactor: 2n * 10n ** 15n,
      assets: [
        { denom: ATOM, amount: 200_000_000_000n },
        { denom: 'uosmo', amount: 2_000_000_000_000n },
      ],
    });
    expect(() => balancerPoolsOf({})).toThrow('pools array');
  });

  it('parses sdk.Dec strings to 18 decimals', () => {
    expect(parseSdkDec('0.002000000000000000')).toBe(2_000_000_000_000_000n);
    expect(parseSdkDec('1')).toBe(10n ** 18n);
    expect(parseSdkDec('0.2.1')).toBeUndefined();
  });
});

describe('constant-product out-given-in (x/gamm CalcOutAmtGivenIn, equal weights)', () => {
  const pools = balancerPoolsOf({
    pools: [
      poolJson(1, [ATOM, 'uosmo'], ['200000000000', '2000000000000']),
      poolJson(2, [ATOM, USDC], ['200000000000', '1000000000000']),
      poolJson(3, ['uosmo', USDC], ['2000000000000', '1000000000000']),
    ],
  });

  it('pays reserveOut × in·(1−fee) / (reserveIn + in·(1−fee)), truncated', () => {
    // 1 ATOM into 200,000 ATOM / 2,000,000 OSMO at 0.2%: 2,000,000,000,000 × 998,000 / 200,000,998,000.
    expect(balancerOutGivenIn(200_000_000_000n, 2_000_000_000_000n, 1_000_000n, 2n * 10n ** 15n)).toBe(
      (2_000_000_000_000n * 998_000n) / 200_000_998_000n,
    );
    expect(balancerOutGivenIn(0n, 1n, 1n, 0n)).toBe(0n);
  });

  it('routes through the pool holding both denoms, else through one middle denom', () => {
    expect(osmosisRoute(pools, ATOM, 'uosmo')?.map((h) => [h.pool.id, h.tokenOutDenom])).toEqual([
      [1n, 'uosmo'],
    ]);
    const twoHops = osmosisRoute(
      pools.filter((p) => p.id !== 3n),
      'uosmo',
      USDC,
    );
    expect(twoHops?.map((h) => [h.pool.id, h.tokenOutDenom])).toEqual([
      [1n, ATOM],
      [2n, USDC],
    ]);
    expect(osmosisRoute(pools, 'uosmo', 'uatom')).toBeUndefined();
  });

  it('chains the hops, and measures price impact and pool share', () => {
    const route = osmosisRoute(
      pools.filter((p) => p.id !== 3n),
      'uosmo',
      USDC,
    ) as { pool: OsmosisBalancerPool; tokenOutDenom: string }[];
    const amounts = routeOutGivenIn(route, 'uosmo', 10_000_000n);
    expect(amounts[1]).toBe(
      balancerOutGivenIn(2_000_000_000_000n, 200_000_000_000n, 10_000_000n, 2n * 10n ** 15n),
    );
    expect(amounts[2]).toBe(
      balancerOutGivenIn(200_000_000_000n, 1_000_000_000_000n, amounts[1], 2n * 10n ** 15n),
    );
    expect(routePriceImpactBps(route, 'uosmo', amounts)).toBe(0);
    const big = routeOutGivenIn(route, 'uosmo', 200_000_000_000n);
    expect(routePriceImpactBps(route, 'uosmo', big)).toBeGreaterThan(900);
    expect(routePoolShareBps(route, big)).toBeGreaterThan(800);
  });
});
