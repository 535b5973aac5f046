import { ChainDescriptor, ChainRegistry, CosmosChainTraits, sameTokenAddress } from '@swapgw/chains';
import { ibcVoucherDenom } from '@swapgw/chains/families';
import type { RouteLeg } from '@swapgw/contracts';
import { bridgedAmount, bridgeLeg, smallestBridgedInput } from '../devnet-bridge.provider';
import { devnetBridgeBetween, devnetBridgeEnd, DevnetBridgeEnd } from '../devnet-bridge-ends';
import { NoRouteError } from '../no-route.error';
import { ProviderNames } from '../provider-names';
import type { CandidateRoute, QuoteContext, QuoteProvider, RouteWarningThresholds } from '../quote-provider';
import { cosmosDenomOf } from './cosmos-denom';
import { refuseCosmosIntegratorFee } from './cosmos-integrator-fee';
import { ibcTransferLeg, priceOsmosisSwap } from './osmosis.provider';

/**
 * Where a route through a Noble forwarding account goes: USDC from an EVM devnet chain's or Solana's
 * bridge end to Noble's (the devnet bridge's CCTP end), over Noble's channel to Osmosis, swapped on arrival by
 * the crosschain-swaps contract, and, for a destination other than Osmosis, sent home over Osmosis's
 * channel there.
 */
export interface NobleForwardingPath {
  from: DevnetBridgeEnd;
  noble: DevnetBridgeEnd;
  nobleChain: ChainDescriptor;
  nobleTraits: CosmosChainTraits;
  /** The denom Noble's end mints (`uusdc`). */
  nobleDenom: string;
  osmosis: ChainDescriptor;
  osmosisTraits: CosmosChainTraits & { crosschainSwapsContract: string };
  /** The destination when it is not Osmosis: the chain, and Osmosis's channel to it. */
  home?: { chain: ChainDescriptor; traits: CosmosChainTraits; osmosisChannel: string };
}

/**
 * The path from `fromChain` to `toChain` through Noble's forwarding accounts, or undefined: the
 * source an EVM devnet chain or Solana whose bridge end links to Noble's (a Solana deposit's memo
 * names the forwarding account as it names any `noble1…` account), the destination Osmosis (a Cosmos
 * chain with a crosschain-swaps contract) or a Cosmos chain other than Noble with channels to and
 * from Osmosis, Noble with channels to and from Osmosis.
 */
export function nobleForwardingPathOf(
  registry: ChainRegistry,
  fromChain: string,
  toChain: string,
): NobleForwardingPath | undefined {
  const from = devnetBridgeEnd(registry, fromChain);
  if (from?.family !== 'evm' && from?.family !== 'solana') return undefined;
  const noble = registry
    .list()
    .map((chain) => devnetBridgeEnd(registry, chain.id))
    .find((end) => end?.family === 'cosmos');
  if (!noble || noble.chain === toChain || !devnetBridgeBetween(registry, fromChain, noble.chain))
    return undefined;
  const nobleChain = registry.find(noble.chain);
  const nobleTraits = nobleChain?.cosmos;
  const nobleDenom = noble.token.address;
  const osmosis = registry.list().find((chain) => chain.cosmos?.crosschainSwapsContract && chain.rpcUrl);
  const osmosisTraits = osmosis?.cosmos;
  if (!nobleChain || !nobleTraits || !nobleDenom || !osmosis || !osmosisTraits?.crosschainSwapsContract)
    return undefined;
  if (!nobleTraits.ibcChannels[osmosis.id] || !osmosisTraits.ibcChannels[noble.chain]) return undefined;
  const path = {
    from,
    noble,
    nobleChain,
    nobleTraits,
    nobleDenom,
    osmosis,
    osmosisTraits: { ...osmosisTraits, crosschainSwapsContract: osmosisTraits.crosschainSwapsContract },
  };
  if (toChain === osmosis.id) return path;
  const home = registry.find(toChain);
  const osmosisChannel = osmosisTraits.ibcChannels[toChain];
  if (!home?.cosmos || !osmosisChannel || !home.cosmos.ibcChannels[osmosis.id]) return undefined;
  return { ...path, home: { chain: home, traits: home.cosmos, osmosisChannel } };
}

/** Whether the noble-forwarding provider quotes from `fromChain` to `toChain` (the catalog's support policy). */
export function nobleForwardingTrades(registry: ChainRegistry, fromChain: string, toChain: string): boolean {
  return nobleForwardingPathOf(registry, fromChain, toChain) !== undefined;
}

/**
 * The tokens the path takes and gives (the catalog's pairs): in, the source end's bridged USDC; out,
 * on Osmosis any of its tokens but that USDC's voucher, elsewhere the destination's native coin
 * (what Osmosis's pools hold a voucher of, sent home as itself).
 */
export function nobleForwardingCarries(
  path: NobleForwardingPath,
  tokenIn: string,
  tokenOut: string,
): boolean {
  const usdc = path.from.token.symbol.toUpperCase();
  if (tokenIn.toUpperCase() !== usdc) return false;
  if (path.home) return tokenOut === path.home.chain.nativeSymbol;
  return tokenOut.toUpperCase() !== usdc;
}

/**
 * USDC on an EVM devnet chain or Solana to a Cosmos coin, one signature on the source (docs/chains.md,
 * "Multi-leg routes"): the devnet bridge's deposit pays Noble's forwarding account (a
 * `devnet-bridge` leg to Noble, its fee kept on deposit), which forwards the mint to Osmosis's
 * crosschain-swaps contract (an `ibc` leg) whose `wasm` memo swaps it on arrival (an `osmosis` leg,
 * priced from the pools as the osmosis provider prices it) and, towards the Hub, sends the output
 * home (an `ibc` leg from Osmosis, carrying the swap's output, at least its minimum). The account is
 * registered by signer-surface when the step is issued; the legs after the bridge have no steps.
 * Only the bridged USDC leaves the source (no Uniswap swap before it); no integrator fee.
 */
export class NobleForwardingProvider implements QuoteProvider {
  readonly name = ProviderNames.nobleForwarding;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly thresholds: RouteWarningThresholds,
    private readonly timeoutMs: number,
  ) {}

  applies(context: QuoteContext): boolean {
    return nobleForwardingTrades(this.registry, context.fromChain.id, context.toChain.id);
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const bridge = this.registry.manifest?.bridge;
    const path = nobleForwardingPathOf(this.registry, context.fromChain.id, context.toChain.id);
    if (!bridge || !path) return [];
    refuseCosmosIntegratorFee(context);
    const { from, noble, nobleChain, nobleTraits, nobleDenom, osmosis, osmosisTraits, home } = path;
    const tokenIn = context.tokenIn;
    if (
      tokenIn.chain !== from.chain ||
      !sameTokenAddress(from.family, tokenIn.mint ?? tokenIn.address, from.token.address)
    )
      throw new NoRouteError(
        'PAIR_NOT_SUPPORTED',
        `Through Noble only ${from.token.symbol} leaves ${from.chain} (the bridged token)`,
      );
    const usdcOnOsmosis = ibcVoucherDenom(`transfer/${osmosisTraits.ibcChannels[noble.chain]}/${nobleDenom}`);
    const denomOut = this.denomOnOsmosis(context, path);
    if (denomOut === usdcOnOsmosis)
      throw new NoRouteError('PAIR_NOT_SUPPORTED', 'USDC to USDC is a bridge transfer, not a swap');

    const bridged = bridgedAmount(context.amountIn, bridge.feeBps);
    if (bridged <= 0n)
      throw new NoRouteError(
        'AMOUNT_TOO_LOW',
        `devnet bridge: ${from.token.symbol} from ${from.chain} to ${noble.chain} pays nothing for this amount after its fees`,
        { token: from.token, minAmount: smallestBridgedInput(bridge.feeBps) },
      );
    const usdc = { symbol: noble.token.symbol, decimals: noble.token.decimals };
    const toOsmosis = ibcTransferLeg({
      from: nobleChain,
      fromPrefix: nobleTraits.bech32Prefix,
      sourceChannel: nobleTraits.ibcChannels[osmosis.id],
      to: osmosis.id,
      token: usdc,
      denomIn: nobleDenom,
      denomOut: usdcOnOsmosis,
      amount: bridged,
      minAmount: bridged,
    });
    const priced = await priceOsmosisSwap(
      {
        osmosis,
        restUrl: osmosisTraits.restUrl,
        onArrivalContract: osmosisTraits.crosschainSwapsContract,
        tokenIn: usdc,
        tokenOut: context.tokenOut,
        denomIn: usdcOnOsmosis,
        denomOut,
        amountIn: bridged,
        slippageBps: context.slippageBps,
      },
      this.thresholds,
      this.timeoutMs,
      signal,
    );
    const legs: RouteLeg[] = [
      bridgeLeg(bridge.provider, from, noble, context.amountIn, bridged),
      toOsmosis,
      priced.swap,
    ];
    if (home)
      legs.push(
        ibcTransferLeg({
          from: osmosis,
          fromPrefix: osmosisTraits.bech32Prefix,
          sourceChannel: home.osmosisChannel,
          to: home.chain.id,
          token: context.tokenOut,
          denomIn: denomOut,
          denomOut: home.traits.nativeDenom,
          amount: priced.out,
          minAmount: BigInt(priced.swap.minAmountOut),
        }),
      );
    return [
      {
        providers: legs.map((leg) => leg.provider),
        bridgeProvider: bridge.provider,
        legs,
        expectedAmountOut: priced.out,
        estimatedDurationSeconds: legs.reduce((total, leg) => total + leg.estimatedDurationSeconds, 0),
        warnings: priced.warnings,
        debug: {
          ...priced.debug,
          bridgeFeeBps: bridge.feeBps,
          bridged: bridged.toString(),
          nobleChannel: nobleTraits.ibcChannels[osmosis.id],
          ...(home ? { homeChannel: home.osmosisChannel } : {}),
        },
      },
    ];
  }

  /** The denom the swap gives on Osmosis: the token itself there, or the voucher of the destination's native coin. */
  private denomOnOsmosis(context: QuoteContext, path: NobleForwardingPath): string {
    const denom = cosmosDenomOf(context.tokenOut);
    if (!denom) throw new NoRouteError('PAIR_NOT_SUPPORTED', 'Cosmos tokens are named by their denom');
    if (!path.home) return denom;
    // Sent home over one hop: only the destination's own coin, whose voucher Osmosis's pools hold.
    if (denom !== path.home.traits.nativeDenom)
      throw new NoRouteError(
        'PAIR_NOT_SUPPORTED',
        `Through Noble and Osmosis only ${path.home.chain.nativeSymbol} reaches ${path.home.chain.id}`,
      );
    return ibcVoucherDenom(`transfer/${path.home.osmosisChannel}/${denom}`);
  }
}
