import type { ChainDescriptor, ChainRegistry } from '@swapgw/chains';
import { ibcVoucherDenom, ics20EscrowAddress } from '@swapgw/chains/families';
import type { RouteLeg } from '@swapgw/contracts';
import { applySlippage } from '../../quote/amounts';
import { swapLegSlippageBps } from '../../quote/slippage';
import { NoRouteError } from '../no-route.error';
import { ProviderNames } from '../provider-names';
import {
  CandidateRoute,
  EXCEEDS_LIQUIDITY_SHARE_BPS,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  RouteWarnings,
  RouteWarningThresholds,
} from '../quote-provider';
import { cosmosDenomOf } from './cosmos-denom';
import { refuseCosmosIntegratorFee } from './cosmos-integrator-fee';
import { osmosisRoute, routeOutGivenIn, routePoolShareBps, routePriceImpactBps } from './osmosis-math';
import { readOsmosisPools } from './osmosis-pools';
import { OsmosisVenue, osmosisVenueOf } from './osmosis-venue';

/** Seconds an ICS-20 packet takes to be relayed and received (a few blocks each side). */
function ibcDurationSeconds(devnet: boolean): number {
  return devnet ? 10 : 60;
}

function swapDurationSeconds(devnet: boolean): number {
  return devnet ? 5 : 12;
}

/**
 * Osmosis's constant-product pools, priced from the chain's own state read through its REST API
 * (poolmanager `all-pools`), for two kinds of route:
 *  - a swap on Osmosis (one leg, `osmosis`): what poolmanager's `MsgSwapExactAmountIn` pays;
 *  - a Cosmos chain's native coin sent to Osmosis and swapped on arrival (two legs: an `ibc` bridge
 *    leg, a `MsgTransfer` over the source's channel to Osmosis, then the `osmosis` swap leg run by
 *    the crosschain-swaps contract its ibc-hooks `wasm` memo names), one signature on the source.
 * An ICS-20 transfer carries the amount unchanged (no fee), so the swap is quoted for all of it.
 */
export class OsmosisProvider implements QuoteProvider {
  readonly name = ProviderNames.osmosis;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly thresholds: RouteWarningThresholds,
    private readonly timeoutMs: number,
  ) {}

  applies(context: QuoteContext): boolean {
    return this.venueOf(context) !== undefined;
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const venue = this.venueOf(context);
    if (!venue) return [];
    refuseCosmosIntegratorFee(context);
    const sourceDenom = cosmosDenomOf(context.tokenIn);
    const denomOut = cosmosDenomOf(context.tokenOut);
    if (!sourceDenom || !denomOut)
      throw new NoRouteError('PAIR_NOT_SUPPORTED', 'Cosmos tokens are named by their denom');
    let denomIn = sourceDenom;
    if (venue.ibc) {
      // One hop carries a chain's own coin; a voucher would travel back along its own path instead.
      if (sourceDenom !== venue.fromTraits.nativeDenom)
        throw new NoRouteError(
          'PAIR_NOT_SUPPORTED',
          `Only ${venue.from.nativeSymbol} leaves ${venue.from.id} for a swap on ${venue.osmosis.id}`,
        );
      denomIn = ibcVoucherDenom(`transfer/${venue.ibc.osmosisChannel}/${sourceDenom}`);
    }
    if (denomIn === denomOut)
      throw new NoRouteError('PAIR_NOT_SUPPORTED', 'The same token on both ends is a transfer, not a swap');

    const priced = await priceOsmosisSwap(
      {
        osmosis: venue.osmosis,
        restUrl: venue.osmosisTraits.restUrl,
        // Who takes the input: on arrival the crosschain-swaps contract, else the first pool.
        onArrivalContract: venue.ibc ? venue.crosschainSwapsContract : undefined,
        tokenIn: context.tokenIn,
        tokenOut: context.tokenOut,
        denomIn,
        denomOut,
        amountIn: context.amountIn,
        slippageBps: context.slippageBps,
      },
      this.thresholds,
      this.timeoutMs,
      signal,
    );
    const { swap, out } = priced;
    const legs: RouteLeg[] = venue.ibc
      ? [this.ibcLeg(venue, venue.ibc.sourceChannel, context, sourceDenom, denomIn), swap]
      : [swap];
    return [
      {
        providers: venue.ibc ? [ProviderNames.ibc, ProviderNames.osmosis] : [ProviderNames.osmosis],
        ...(venue.ibc ? { bridgeProvider: ProviderNames.ibc } : {}),
        legs,
        expectedAmountOut: out,
        estimatedDurationSeconds: legs.reduce((total, leg) => total + leg.estimatedDurationSeconds, 0),
        warnings: priced.warnings,
        debug: {
          ...priced.debug,
          ...(venue.ibc
            ? { sourceChannel: venue.ibc.sourceChannel, osmosisChannel: venue.ibc.osmosisChannel }
            : {}),
        },
      },
    ];
  }

  /** The MsgTransfer leg: the source coin into the channel's escrow, its voucher out on Osmosis. */
  private ibcLeg(
    venue: OsmosisVenue,
    sourceChannel: string,
    context: QuoteContext,
    sourceDenom: string,
    voucher: string,
  ): RouteLeg {
    return ibcTransferLeg({
      from: venue.from,
      fromPrefix: venue.fromTraits.bech32Prefix,
      sourceChannel,
      to: venue.osmosis.id,
      token: context.tokenIn,
      denomIn: sourceDenom,
      denomOut: voucher,
      amount: context.amountIn,
      minAmount: context.amountIn,
    });
  }

  private venueOf(context: QuoteContext): OsmosisVenue | undefined {
    return osmosisVenueOf(this.registry, context.fromChain.id, context.toChain.id);
  }
}

/**
 * An ICS-20 transfer leg (provider `ibc`): `amount` of `denomIn` over `sourceChannel` (into its
 * escrow account), arriving as `denomOut` on `to`, unchanged (no fee, no price); `minAmount` what the
 * leg is guaranteed to carry (less than `amount` when what it sends is a swap's output).
 */
export function ibcTransferLeg(input: {
  from: ChainDescriptor;
  fromPrefix: string;
  sourceChannel: string;
  to: string;
  token: Pick<QuoteToken, 'symbol' | 'decimals'>;
  denomIn: string;
  denomOut: string;
  amount: bigint;
  minAmount: bigint;
}): RouteLeg {
  const { token } = input;
  return {
    kind: 'bridge',
    chain: input.from.id,
    provider: ProviderNames.ibc,
    tokenIn: { chain: input.from.id, symbol: token.symbol, address: input.denomIn, decimals: token.decimals },
    tokenOut: { chain: input.to, symbol: token.symbol, address: input.denomOut, decimals: token.decimals },
    amountIn: input.amount.toString(),
    // ICS-20 moves the amount as it is: no fee, no price.
    expectedAmountOut: input.amount.toString(),
    minAmountOut: input.minAmount.toString(),
    slippageBps: 0,
    spender: ics20EscrowAddress(input.fromPrefix, input.sourceChannel),
    destinationChain: input.to,
    estimatedDurationSeconds: ibcDurationSeconds(input.from.devnet),
  };
}

/** What priceOsmosisSwap prices: a swap of `amountIn` `denomIn` into `denomOut` on Osmosis. */
export interface OsmosisSwapRequest {
  osmosis: ChainDescriptor;
  /** Osmosis's REST API, where its pools are read. */
  restUrl: string;
  /** A swap on arrival of an IBC transfer: the crosschain-swaps contract that runs it (the leg's spender). */
  onArrivalContract: string | undefined;
  /** The tokens' symbols and decimals (their denoms on Osmosis are `denomIn`, `denomOut`). */
  tokenIn: Pick<QuoteToken, 'symbol' | 'decimals'>;
  tokenOut: Pick<QuoteToken, 'symbol' | 'decimals'>;
  denomIn: string;
  denomOut: string;
  amountIn: bigint;
  /** The request's slippage; undefined: the swap legs' automatic rule. */
  slippageBps: number | undefined;
}

/**
 * An `osmosis` swap leg priced from Osmosis's pools (poolmanager `all-pools`) over the route its
 * swaprouter takes, x/gamm's out-given-in computed exactly, its slippage the request's or the
 * automatic rule on the price impact and pool share; with its warnings and debug figures.
 * NO_LIQUIDITY without a pool route, AMOUNT_TOO_LOW when the amount buys nothing.
 */
export async function priceOsmosisSwap(
  request: OsmosisSwapRequest,
  thresholds: RouteWarningThresholds,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ swap: RouteLeg; out: bigint; warnings: string[]; debug: Record<string, unknown> }> {
  const { denomIn, denomOut, osmosis } = request;
  const pools = await readOsmosisPools(request.restUrl, timeoutMs, signal);
  const route = osmosisRoute(pools, denomIn, denomOut);
  if (!route) throw new NoRouteError('NO_LIQUIDITY', `No Osmosis pool route from ${denomIn} to ${denomOut}`);
  const amounts = routeOutGivenIn(route, denomIn, request.amountIn);
  const out = amounts[amounts.length - 1];
  if (out <= 0n) throw new NoRouteError('AMOUNT_TOO_LOW', 'The amount buys nothing from the pools');

  const priceImpactBps = routePriceImpactBps(route, denomIn, amounts);
  const poolShareBps = routePoolShareBps(route, amounts);
  const slippageBps = swapLegSlippageBps(request.slippageBps, { priceImpactBps, poolShareBps });
  const onOsmosis = (token: Pick<QuoteToken, 'symbol' | 'decimals'>, denom: string) => ({
    chain: osmosis.id,
    symbol: token.symbol,
    address: denom,
    decimals: token.decimals,
  });
  const swap: RouteLeg = {
    kind: 'swap',
    chain: osmosis.id,
    provider: ProviderNames.osmosis,
    tokenIn: onOsmosis(request.tokenIn, denomIn),
    tokenOut: onOsmosis(request.tokenOut, denomOut),
    amountIn: request.amountIn.toString(),
    expectedAmountOut: out.toString(),
    minAmountOut: applySlippage(out, slippageBps).toString(),
    slippageBps,
    spender: request.onArrivalContract ?? route[0].pool.address,
    // The denoms along the route (the pools are the route Osmosis's swaprouter takes over them).
    path: [denomIn, ...route.map((hop) => hop.tokenOutDenom)],
    // The pool of each hop: a same-chain swap's MsgSwapExactAmountIn names them.
    poolIds: route.map((hop) => hop.pool.id.toString()),
    estimatedDurationSeconds: swapDurationSeconds(osmosis.devnet),
  };
  const warnings: string[] = [];
  if (priceImpactBps > thresholds.priceImpactBps) warnings.push(RouteWarnings.highPriceImpact);
  if (poolShareBps > thresholds.thinLiquidityBps) warnings.push(RouteWarnings.thinLiquidity);
  if (poolShareBps >= EXCEEDS_LIQUIDITY_SHARE_BPS) warnings.push(RouteWarnings.exceedsLiquidity);
  return {
    swap,
    out,
    warnings,
    debug: { pools: route.map((hop) => hop.pool.id.toString()), priceImpactBps, poolShareBps },
  };
}
