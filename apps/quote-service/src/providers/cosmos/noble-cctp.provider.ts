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
 * Where a route out of a Cosmos chain through Noble's CCTP goes: the source's native coin over its
 * channel to Osmosis, swapped on arrival into USDC by the crosschain-swaps contract, which sends the
 * USDC home to Noble (the wallet's own account there), where the wallet burns it with
 * MsgDepositForBurn towards the destination (the devnet bridge's Cosmos end).
 */
export interface NobleCctpPath {
  from: ChainDescriptor;
  fromTraits: CosmosChainTraits;
  osmosis: ChainDescriptor;
  osmosisTraits: CosmosChainTraits & { crosschainSwapsContract: string };
  noble: DevnetBridgeEnd;
  nobleChain: ChainDescriptor;
  /** The denom Noble's end burns (`uusdc`). */
  nobleDenom: string;
  to: DevnetBridgeEnd;
}

/**
 * The path from `fromChain` to `toChain`, or undefined: the source a Cosmos chain other than Osmosis
 * and Noble with channels to and from Osmosis (a chain with a crosschain-swaps contract and an RPC),
 * Noble the devnet bridge's Cosmos end with channels to and from Osmosis, the destination a Solana
 * chain Noble's end pays (decision: the EVM devnets are left out until the planner reads their
 * releases, see docs/chains.md).
 */
export function nobleCctpPathOf(
  registry: ChainRegistry,
  fromChain: string,
  toChain: string,
): NobleCctpPath | undefined {
  const from = registry.find(fromChain);
  const fromTraits = from?.cosmos;
  const to = devnetBridgeEnd(registry, toChain);
  if (!from || !fromTraits || !from.rpcUrl || to?.family !== 'solana') return undefined;
  const noble = registry
    .list()
    .map((chain) => devnetBridgeEnd(registry, chain.id))
    .find((end) => end?.family === 'cosmos');
  const nobleChain = noble && registry.find(noble.chain);
  const nobleDenom = noble?.token.address;
  if (!noble || !nobleChain?.cosmos || !nobleDenom || noble.chain === fromChain) return undefined;
  if (!devnetBridgeBetween(registry, noble.chain, toChain)) return undefined;
  const osmosis = registry.list().find((chain) => chain.cosmos?.crosschainSwapsContract && chain.rpcUrl);
  const osmosisTraits = osmosis?.cosmos;
  const contract = osmosisTraits?.crosschainSwapsContract;
  if (!osmosis || !osmosisTraits || !contract || osmosis.id === fromChain) return undefined;
  const linked = (a: CosmosChainTraits, aId: string, b: CosmosChainTraits, bId: string) =>
    Boolean(a.ibcChannels[bId] && b.ibcChannels[aId]);
  if (!linked(fromTraits, from.id, osmosisTraits, osmosis.id)) return undefined;
  if (!linked(nobleChain.cosmos, noble.chain, osmosisTraits, osmosis.id)) return undefined;
  return {
    from,
    fromTraits,
    osmosis,
    osmosisTraits: { ...osmosisTraits, crosschainSwapsContract: contract },
    noble,
    nobleChain,
    nobleDenom,
    to,
  };
}

/** Whether the noble-cctp provider quotes from `fromChain` to `toChain` (the catalog's support policy). */
export function nobleCctpTrades(registry: ChainRegistry, fromChain: string, toChain: string): boolean {
  return nobleCctpPathOf(registry, fromChain, toChain) !== undefined;
}

/** The tokens the path takes and gives (the catalog's pairs): the source's native coin, the bridged USDC. */
export function nobleCctpCarries(path: NobleCctpPath, tokenIn: string, tokenOut: string): boolean {
  return tokenIn === path.from.nativeSymbol && tokenOut.toUpperCase() === path.to.token.symbol.toUpperCase();
}

/**
 * A Cosmos chain's native coin to USDC on Solana (ATOM on the Hub → USDC on Solana), two signatures
 * of the same wallet, both fee-granted (docs/chains.md, "Multi-leg routes"):
 *  1. on the source, one MsgTransfer to Osmosis's crosschain-swaps contract (an `ibc` leg) whose
 *     `wasm` memo swaps on arrival into Osmosis's USDC voucher (an `osmosis` leg, priced from the
 *     pools as the osmosis provider prices it) and sends it home to the wallet's own Noble account
 *     (an IBC leg from Osmosis that the contract runs, hence provider `osmosis`: no step of its own);
 *  2. on Noble, once that USDC arrived, Noble's CCTP MsgDepositForBurn of it towards Solana (the
 *     devnet bridge's `devnet-bridge` leg, its fee kept on the burn).
 * Why not one signature: Noble's own IBC-to-CCTP entry point (Orbiter) takes a memo whose only key
 * is `orbiter`, and the crosschain-swaps contract always adds its `ibc_callback` key to the memo of
 * the transfer it sends on, so a swap's output cannot be burnt on arrival. No integrator fee.
 */
export class NobleCctpProvider implements QuoteProvider {
  readonly name = ProviderNames.nobleCctp;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly thresholds: RouteWarningThresholds,
    private readonly timeoutMs: number,
  ) {}

  applies(context: QuoteContext): boolean {
    return nobleCctpTrades(this.registry, context.fromChain.id, context.toChain.id);
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const bridge = this.registry.manifest?.bridge;
    const path = nobleCctpPathOf(this.registry, context.fromChain.id, context.toChain.id);
    if (!bridge || !path) return [];
    refuseCosmosIntegratorFee(context);
    const { from, fromTraits, osmosis, osmosisTraits, noble, nobleChain, nobleDenom, to } = path;
    const sourceDenom = cosmosDenomOf(context.tokenIn);
    if (sourceDenom !== fromTraits.nativeDenom)
      throw new NoRouteError(
        'PAIR_NOT_SUPPORTED',
        `Through Osmosis and Noble only ${from.nativeSymbol} leaves ${from.id} (its own coin, one hop)`,
      );
    if (
      context.tokenOut.chain !== to.chain ||
      !sameTokenAddress('solana', context.tokenOut.mint ?? context.tokenOut.address, to.token.address)
    )
      throw new NoRouteError(
        'PAIR_NOT_SUPPORTED',
        `Through Noble's CCTP only ${to.token.symbol} reaches ${to.chain} (the bridged token)`,
      );
    const toOsmosis = fromTraits.ibcChannels[osmosis.id];
    const osmosisToNoble = osmosisTraits.ibcChannels[noble.chain];
    const denomIn = ibcVoucherDenom(`transfer/${osmosisTraits.ibcChannels[from.id]}/${sourceDenom}`);
    const usdcOnOsmosis = ibcVoucherDenom(`transfer/${osmosisToNoble}/${nobleDenom}`);
    const usdc = { symbol: noble.token.symbol, decimals: noble.token.decimals };

    const priced = await priceOsmosisSwap(
      {
        osmosis,
        restUrl: osmosisTraits.restUrl,
        onArrivalContract: osmosisTraits.crosschainSwapsContract,
        tokenIn: context.tokenIn,
        tokenOut: usdc,
        denomIn,
        denomOut: usdcOnOsmosis,
        amountIn: context.amountIn,
        slippageBps: context.slippageBps,
      },
      this.thresholds,
      this.timeoutMs,
      signal,
    );
    const bridged = bridgedAmount(priced.out, bridge.feeBps);
    if (bridged <= 0n)
      throw new NoRouteError(
        'AMOUNT_TOO_LOW',
        `devnet bridge: ${noble.token.symbol} from ${noble.chain} to ${to.chain} pays nothing for what the swap gives after its fees`,
        { token: context.tokenIn, minAmount: smallestBridgedInput(bridge.feeBps) },
      );
    const legs: RouteLeg[] = [
      ibcTransferLeg({
        from,
        fromPrefix: fromTraits.bech32Prefix,
        sourceChannel: toOsmosis,
        to: osmosis.id,
        token: context.tokenIn,
        denomIn: sourceDenom,
        denomOut: denomIn,
        amount: context.amountIn,
        minAmount: context.amountIn,
      }),
      priced.swap,
      // The contract sends the swap's output home (all of it: what a transfer carries is unchanged).
      {
        ...ibcTransferLeg({
          from: osmosis,
          fromPrefix: osmosisTraits.bech32Prefix,
          sourceChannel: osmosisToNoble,
          to: nobleChain.id,
          token: usdc,
          denomIn: usdcOnOsmosis,
          denomOut: nobleDenom,
          amount: priced.out,
          minAmount: priced.out,
        }),
        provider: ProviderNames.osmosis,
      },
      bridgeLeg(bridge.provider, noble, to, priced.out, bridged),
    ];
    return [
      {
        providers: legs.map((leg) => leg.provider),
        bridgeProvider: bridge.provider,
        legs,
        expectedAmountOut: bridged,
        estimatedDurationSeconds: legs.reduce((total, leg) => total + leg.estimatedDurationSeconds, 0),
        warnings: priced.warnings,
        debug: {
          ...priced.debug,
          bridgeFeeBps: bridge.feeBps,
          bridged: bridged.toString(),
          sourceChannel: toOsmosis,
          nobleChannel: osmosisToNoble,
        },
      },
    ];
  }
}
