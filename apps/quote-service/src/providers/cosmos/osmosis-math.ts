import { DEC, OsmosisBalancerPool } from './osmosis-pools';

/** One hop of a poolmanager route: the pool and the denom it pays out (SwapAmountInRoute). */
export interface OsmosisRouteHop {
  pool: OsmosisBalancerPool;
  tokenOutDenom: string;
}

/**
 * Osmosis's balancer out-given-in for two equal weights (x/gamm `CalcOutAmtGivenIn`):
 *   out = balanceOut × (1 − balanceIn / (balanceIn + amountIn × (1 − spreadFactor)))
 * computed exactly in integers and truncated, as the chain pays it: the 18-decimal spread factor is
 * applied to the input, the constant product to what remains.
 */
export function balancerOutGivenIn(
  balanceIn: bigint,
  balanceOut: bigint,
  amountIn: bigint,
  spreadFactor: bigint,
): bigint {
  if (balanceIn <= 0n || balanceOut <= 0n || amountIn <= 0n) return 0n;
  const inAfterFee = amountIn * (DEC - spreadFactor);
  return (balanceOut * inAfterFee) / (balanceIn * DEC + inAfterFee);
}

/** What a route pays for `amountIn` of `denomIn` (EstimateSwapExactAmountIn), hop by hop. */
export function routeOutGivenIn(
  route: readonly OsmosisRouteHop[],
  denomIn: string,
  amountIn: bigint,
): bigint[] {
  const amounts = [amountIn];
  let denom = denomIn;
  for (const hop of route) {
    const reserveIn = hop.pool.assets.find((a) => a.denom === denom)?.amount ?? 0n;
    const reserveOut = hop.pool.assets.find((a) => a.denom === hop.tokenOutDenom)?.amount ?? 0n;
    amounts.push(
      balancerOutGivenIn(reserveIn, reserveOut, amounts[amounts.length - 1], hop.pool.spreadFactor),
    );
    denom = hop.tokenOutDenom;
  }
  return amounts;
}

/**
 * The route from `denomIn` to `denomOut`, chosen as Osmosis's crosschain-swaps swaprouter does on
 * the devnet (docs/chains.md): the pool holding both with the lowest id; else two pools through one
 * middle denom, the lowest first pool id, then the lowest second. A same-chain swap takes the same
 * route, so a quote is priced on the pools the swap will use whichever way it is sent.
 */
export function osmosisRoute(
  pools: readonly OsmosisBalancerPool[],
  denomIn: string,
  denomOut: string,
): OsmosisRouteHop[] | undefined {
  const holds = (pool: OsmosisBalancerPool, denom: string) => pool.assets.some((a) => a.denom === denom);
  const direct = pools.find((p) => holds(p, denomIn) && holds(p, denomOut));
  if (direct) return [{ pool: direct, tokenOutDenom: denomOut }];
  for (const first of pools.filter((p) => holds(p, denomIn))) {
    const middle = first.assets[0].denom === denomIn ? first.assets[1].denom : first.assets[0].denom;
    const second = pools.find((p) => p !== first && holds(p, middle) && holds(p, denomOut));
    if (second)
      return [
        { pool: first, tokenOutDenom: middle },
        { pool: second, tokenOutDenom: denomOut },
      ];
  }
  return undefined;
}

/**
 * Price impact of a route in bps: how far the amount out falls short of the amount at the pools'
 * spot prices (fee excluded), the same measure the Uniswap providers give.
 */
export function routePriceImpactBps(
  route: readonly OsmosisRouteHop[],
  denomIn: string,
  amounts: bigint[],
): number {
  let spotOut = amounts[0] * DEC;
  let denom = denomIn;
  for (const hop of route) {
    const reserveIn = hop.pool.assets.find((a) => a.denom === denom)?.amount ?? 0n;
    const reserveOut = hop.pool.assets.find((a) => a.denom === hop.tokenOutDenom)?.amount ?? 0n;
    if (reserveIn === 0n) return 10_000;
    spotOut = (spotOut * reserveOut * (DEC - hop.pool.spreadFactor)) / (reserveIn * DEC);
    denom = hop.tokenOutDenom;
  }
  const out = amounts[amounts.length - 1] * DEC;
  if (spotOut <= 0n) return 10_000;
  return Math.max(0, Number(((spotOut - out) * 10_000n) / spotOut));
}

/** The largest share (bps) of a pool's output side that one hop of the route takes. */
export function routePoolShareBps(route: readonly OsmosisRouteHop[], amounts: bigint[]): number {
  return Math.max(
    0,
    ...route.map((hop, i) => {
      const reserveOut = hop.pool.assets.find((a) => a.denom === hop.tokenOutDenom)?.amount ?? 0n;
      return reserveOut === 0n ? 10_000 : Number((amounts[i + 1] * 10_000n) / reserveOut);
    }),
  );
}
