import type { ChainDescriptor, ChainRegistry, CosmosChainTraits } from '@swapgw/chains';
import { ics20EscrowAddress } from '@swapgw/chains/families';
import type { RouteLeg, TokenRef } from '@swapgw/contracts';
import { applySlippage } from '../../quote/amounts';
import { aggregatorAutoSlippageBps } from '../../quote/slippage';
import { cosmosDenomOf } from '../cosmos/cosmos-denom';
import { NoRouteError } from '../no-route.error';
import { ProviderNames } from '../provider-names';
import {
  CandidateRoute,
  QuoteContext,
  QuoteProvider,
  RouteWarnings,
  RouteWarningThresholds,
} from '../quote-provider';
import { SkipGoApi, SkipOperation, SkipRoute, SkipRouteRequest } from './skip-go-api';

/** The operation kinds the gateway can sign in one Cosmos transaction: ICS-20 hops and swaps. */
const SIGNED_OPERATIONS = new Set(['transfer', 'swap']);

/** Skip's warning that the output is worth much less than the input (its price safety check). */
const SKIP_BAD_PRICE_WARNING = 'BAD_PRICE_WARNING';

/** Cosmos chains as the route's answer names them (`chain.cosmos.chainId`) and the registry lists them. */
export interface SkipChains {
  /** The registry's chain whose `cosmos.chainId` is Skip's chain id; undefined when none is. */
  byCosmosChainId(chainId: string): ChainDescriptor | undefined;
}

export function registrySkipChains(registry: ChainRegistry): SkipChains {
  return { byCosmosChainId: (chainId) => registry.list().find((c) => c.cosmos?.chainId === chainId) };
}

/**
 * Routes between Cosmos chains from the Skip Go API (POST /v2/fungible/route): ICS-20 transfers,
 * multi-hop through packet-forward-middleware, and swaps on a venue Skip aggregates (Osmosis's
 * poolmanager) reached by an ibc-hooks memo, all in one transaction on the source chain signed by
 * the wallet (allow_multi_tx false: a route needing a second signature is not asked for). Skip's
 * chain ids are the descriptors' `cosmos.chainId`, its denoms the tokens'. Skip's affiliate fee is
 * taken out of the last swap's output on that swap's chain, never out of the input before the
 * route as the gateway's integrator fee is: a quote with integratorFee gets no Skip route.
 */
export class SkipGoProvider implements QuoteProvider {
  readonly name = ProviderNames.skipGo;

  constructor(
    private readonly api: SkipGoApi,
    private readonly chains: SkipChains,
    private readonly thresholds: RouteWarningThresholds,
  ) {}

  applies(context: QuoteContext): boolean {
    return (
      Boolean(context.fromChain.family === 'cosmos' && context.fromChain.cosmos) &&
      Boolean(context.toChain.family === 'cosmos' && context.toChain.cosmos)
    );
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    if ((context.integratorFee?.charges.length ?? 0) > 0)
      throw new NoRouteError(
        'INTEGRATOR_FEE_NOT_SUPPORTED',
        "Skip Go takes an affiliate fee out of the last swap's output, not the gateway's integrator fee out of the input",
      );
    const route = await this.api.route(skipRouteRequest(context), signal);
    return [skipGoRoute(context, route, this.chains, this.thresholds)];
  }
}

/** The /v2/fungible/route request of a quote: one transaction, IBC only, no affiliate fee. */
export function skipRouteRequest(context: QuoteContext): SkipRouteRequest {
  const from = cosmosTraits(context.fromChain);
  const to = cosmosTraits(context.toChain);
  return {
    amount_in: context.amountIn.toString(),
    source_asset_denom: denomOrRefuse(context.tokenIn),
    source_asset_chain_id: from.chainId,
    dest_asset_denom: denomOrRefuse(context.tokenOut),
    dest_asset_chain_id: to.chainId,
    cumulative_affiliate_fee_bps: '0',
    // One signature on the source chain: the rest runs from the IBC memos (PFM, ibc-hooks).
    allow_multi_tx: false,
    // Skip's price safety check refuses a route whose output is worth far less than its input.
    allow_unsafe: false,
    bridges: ['IBC'],
    // Smart Relay is paid for by an extra transfer of the wallet's; plain IBC relayers need none.
    smart_relay: false,
  };
}

/**
 * Skip's route as a candidate route: one leg per operation, each naming the chain it runs on (a
 * `transfer` is a bridge leg from its sending chain, `swap` a swap leg on its venue's chain), with
 * the amounts Skip gives each operation; expectedAmountOut is `amount_out`. The route's slippage
 * (the request's, else the aggregators' automatic one from Skip's price impact) is the swap legs';
 * a transfer moves its amount unchanged. Refused as upstream failure: an answer for another pair or
 * amount, or not in the shape documented. Refused as no route: a route of several transactions,
 * through a chain the registry does not list, or with operations other than IBC transfers and swaps.
 */
export function skipGoRoute(
  context: QuoteContext,
  route: SkipRoute,
  chains: SkipChains,
  thresholds: RouteWarningThresholds,
): CandidateRoute {
  const asked = skipRouteRequest(context);
  if (
    route.source_asset_chain_id !== asked.source_asset_chain_id ||
    route.dest_asset_chain_id !== asked.dest_asset_chain_id ||
    route.source_asset_denom !== asked.source_asset_denom ||
    route.dest_asset_denom !== asked.dest_asset_denom ||
    route.amount_in !== asked.amount_in
  )
    throw new Error(
      `Skip Go answered a route of ${route.amount_in} ${route.source_asset_denom} on ${route.source_asset_chain_id} ` +
        `to ${route.dest_asset_denom} on ${route.dest_asset_chain_id}, not the one asked`,
    );
  if (route.txs_required !== 1)
    throw new NoRouteError(
      'PAIR_NOT_SUPPORTED',
      `Skip Go's route needs ${route.txs_required} transactions; the gateway serves routes of one`,
    );
  if (route.operations.length === 0) throw new Error('Skip Go answered a route without operations');
  const unsigned = route.operations.map(operationKind).find((kind) => !SIGNED_OPERATIONS.has(kind));
  if (unsigned !== undefined)
    throw new NoRouteError(
      'PAIR_NOT_SUPPORTED',
      `Skip Go's route uses ${unsigned}, which the gateway does not sign`,
    );
  const swaps = route.operations.filter((op) => op.swap !== undefined);
  if (swaps.length > 1)
    throw new NoRouteError('PAIR_NOT_SUPPORTED', 'Skip Go routes through several swap venues are not served');

  const expected = BigInt(route.amount_out);
  const impactBps = priceImpactBps(route);
  const slippageBps = context.slippageBps ?? aggregatorAutoSlippageBps(impactBps);
  const chainOf = (chainId: string): ChainDescriptor & { cosmos: CosmosChainTraits } => {
    const chain = chains.byCosmosChainId(chainId);
    if (!chain?.cosmos)
      throw new NoRouteError(
        'PAIR_NOT_SUPPORTED',
        `Skip Go's route passes through ${chainId}, a chain this gateway does not list`,
      );
    return { ...chain, cosmos: chain.cosmos };
  };
  const durations = splitDuration(route.estimated_route_duration_seconds ?? 0, route.operations.length);

  let swapped = false;
  let carried = BigInt(route.amount_in);
  const legs = route.operations.map((op, index): RouteLeg => {
    const isLast = index === route.operations.length - 1;
    const amountIn = amountOrCarried(op.amount_in, carried);
    // The swap sets the price; a transfer delivers what it is sent.
    const amountOut = op.swap
      ? isLast
        ? expected
        : amountOrCarried(op.amount_out, expected)
      : amountOrCarried(op.amount_out, amountIn);
    carried = amountOut;
    const token = (chain: string, denom: string, after: boolean): TokenRef => {
      const known = after ? context.tokenOut : context.tokenIn;
      return { chain, symbol: known.symbol, address: denom, decimals: known.decimals };
    };
    if (op.transfer) {
      const transfer = op.transfer;
      const sender = chainOf(transfer.from_chain_id);
      const from = sender.id;
      const to = chainOf(transfer.to_chain_id).id;
      const prefix = sender.cosmos.bech32Prefix;
      return {
        kind: 'bridge',
        chain: from,
        provider: ProviderNames.skipGo,
        tokenIn: token(from, transfer.denom_in, swapped),
        tokenOut: token(to, transfer.denom_out, swapped),
        amountIn: amountIn.toString(),
        expectedAmountOut: amountOut.toString(),
        minAmountOut: amountOut.toString(),
        slippageBps: 0,
        // ICS-20 escrows the sent coin in the channel's escrow account (burns a voucher going home).
        spender: ics20EscrowAddress(prefix, transfer.channel, transfer.port ?? 'transfer'),
        destinationChain: to,
        estimatedDurationSeconds: durations[index],
      };
    }
    const swap = op.swap;
    const venue = swap?.swap_in?.swap_venue;
    const venueChain = swap?.chain_id ?? venue?.chain_id;
    if (!swap?.swap_in || !venue || !venueChain)
      throw new Error("Skip Go answered a swap without swap_in's venue (exact-out swaps are not asked for)");
    const chain = chainOf(venueChain).id;
    const leg: RouteLeg = {
      kind: 'swap',
      chain,
      provider: ProviderNames.skipGo,
      tokenIn: token(chain, swap.denom_in, false),
      tokenOut: token(chain, swap.denom_out, true),
      amountIn: amountIn.toString(),
      expectedAmountOut: amountOut.toString(),
      minAmountOut: applySlippage(amountOut, slippageBps).toString(),
      slippageBps,
      // Bank balances need no approval: the venue Skip swaps on (`osmosis-poolmanager`) names who takes the coin.
      spender: venue.name,
      path: [swap.denom_in, ...swap.swap_in.swap_operations.map((hop) => hop.denom_out)],
      estimatedDurationSeconds: durations[index],
    };
    swapped = true;
    return leg;
  });

  const warnings: string[] = [];
  if (
    route.warning?.type === SKIP_BAD_PRICE_WARNING ||
    (impactBps !== undefined && impactBps > thresholds.priceImpactBps)
  )
    warnings.push(RouteWarnings.highPriceImpact);
  const bridged = legs.some((leg) => leg.kind === 'bridge');
  return {
    providers: [ProviderNames.skipGo],
    ...(bridged ? { bridgeProvider: ProviderNames.skipGo } : {}),
    legs,
    expectedAmountOut: expected,
    estimatedDurationSeconds: Math.max(0, Math.round(route.estimated_route_duration_seconds ?? 0)),
    warnings,
    debug: {
      chainIds: route.chain_ids,
      requiredChainAddresses: route.required_chain_addresses,
      operations: route.operations.map(operationKind),
      ...(route.estimated_amount_out ? { estimatedAmountOut: route.estimated_amount_out } : {}),
      ...(impactBps !== undefined ? { priceImpactBps: impactBps } : {}),
      ...(route.warning ? { skipWarning: route.warning } : {}),
    },
  };
}

/** The kind of an operation: its one key besides tx_index and its amounts. */
function operationKind(op: SkipOperation): string {
  const kinds = Object.keys(op).filter(
    (key) => !['tx_index', 'amount_in', 'amount_out'].includes(key) && op[key] !== undefined,
  );
  return kinds.length === 1 ? kinds[0] : `an operation of ${kinds.join(', ') || 'no kind'}`;
}

/** Skip's price impact of the route's swap (a percent string), in bps; undefined when it gives none. */
function priceImpactBps(route: SkipRoute): number | undefined {
  const swap = route.operations.find((op) => op.swap)?.swap;
  const percent = Number(route.swap_price_impact_percent ?? swap?.swap_in?.price_impact_percent ?? NaN);
  return Number.isFinite(percent) ? Math.max(0, Math.round(percent * 100)) : undefined;
}

function amountOrCarried(amount: string | undefined, carried: bigint): bigint {
  if (amount === undefined) return carried;
  if (!/^[0-9]+$/.test(amount)) throw new Error(`Skip Go answered an operation amount ${amount}`);
  return BigInt(amount);
}

/** The route's duration over its legs (whole seconds, the remainder on the last). */
function splitDuration(total: number, legs: number): number[] {
  const seconds = Math.max(0, Math.round(total));
  const each = Math.floor(seconds / legs);
  return Array.from({ length: legs }, (_, i) => (i === legs - 1 ? seconds - each * (legs - 1) : each));
}

function cosmosTraits(chain: ChainDescriptor) {
  if (!chain.cosmos) throw new NoRouteError('PAIR_NOT_SUPPORTED', `${chain.id} is not a Cosmos chain`);
  return chain.cosmos;
}

function denomOrRefuse(token: QuoteContext['tokenIn']): string {
  const denom = cosmosDenomOf(token);
  if (!denom) throw new NoRouteError('PAIR_NOT_SUPPORTED', 'Cosmos tokens are named by their denom');
  return denom;
}
