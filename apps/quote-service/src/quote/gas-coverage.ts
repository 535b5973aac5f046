import { Logger } from '@nestjs/common';
import {
  ChainDescriptor,
  ChainRegistry,
  formatNativeAmount,
  NATIVE_COIN_FALLBACKS,
  sponsoredFeeFallbackOf,
  SponsoredFeeRates,
  SponsoredLegView,
  sponsoredTotalsOfRoute,
  swapFamilyOf,
} from '@swapgw/chains';
import { type ChainFamilies, cosmosFeeRatesOf, cosmosGasPriceText } from '@swapgw/chains/families';
import type { GasFeeSource, RouteGasCoverage, RouteLeg } from '@swapgw/contracts';
import { Clock, withTimeout } from '@swapgw/runtime';
import { cosmosLegCoverageOf } from '../providers/cosmos/cosmos-gas-coverage';
import { ProviderNames } from '../providers/provider-names';

/** The price of a unit on one chain and where it came from. */
export interface ChainFeeQuote extends SponsoredFeeRates {
  source: GasFeeSource;
  /** Why the fallback is used (no RPC, the node's error); for `debug` and the log. */
  reason?: string;
}

/** How a chain's node is asked for its fee figures (the family client's `fees()`). */
export interface ChainFeeReaders {
  feesOf(chain: ChainDescriptor): Promise<SponsoredFeeRates>;
}

export interface ChainFeeOracleOptions {
  /** How long a chain's answer (node figure or fallback) is reused. */
  ttlMs: number;
  /** A node slower than this counts as unreachable: the fallback is used (and kept for ttlMs). */
  timeoutMs: number;
}

export const CHAIN_FEE_ORACLE_DEFAULTS: ChainFeeOracleOptions = { ttlMs: 10_000, timeoutMs: 1_500 };

/** The readers over the chains' family clients (ChainFamilies: every RPC call bounded by RPC_TIMEOUT_MS). */
export function familyFeeReaders(families: ChainFamilies): ChainFeeReaders {
  return {
    feesOf: async (chain) => {
      const lookup = families.signing(chain.id);
      if (!lookup.ok) throw new Error(lookup.reason);
      return lookup.client.fees();
    },
  };
}

/**
 * The price of gas on each chain for the quotes' gas coverage, read from the chain's node and kept
 * `ttlMs` (10 s): a burst of quotes costs one read per chain. It never fails a quote: a chain with
 * no RPC configured (real networks without RPC_URL_*), a node that errs or does not answer within
 * `timeoutMs` gets the per-family fallback (SPONSORED_FEE_FALLBACKS), marked `fallback`, also kept
 * `ttlMs` so that a dead node does not slow every quote. Solana's fee per signature is the
 * protocol's base fee (no priority fee); its node gives the rent of a token account.
 */
export class ChainFeeOracle {
  private readonly logger = new Logger(ChainFeeOracle.name);
  private readonly cache = new Map<string, { atMs: number; quote: Promise<ChainFeeQuote> }>();

  constructor(
    private readonly readers: ChainFeeReaders,
    private readonly options: ChainFeeOracleOptions,
    private readonly clock: Clock,
  ) {}

  /** The chain's current figures; never rejects. Concurrent calls share one read. */
  ratesOf(chain: ChainDescriptor): Promise<ChainFeeQuote> {
    const now = this.clock.nowMs();
    const cached = this.cache.get(chain.id);
    if (cached && now - cached.atMs < this.options.ttlMs) return cached.quote;
    const quote = this.read(chain);
    this.cache.set(chain.id, { atMs: now, quote });
    return quote;
  }

  private async read(chain: ChainDescriptor): Promise<ChainFeeQuote> {
    const family = swapFamilyOf(chain.family);
    if (!family)
      return {
        feePerGas: 0n,
        tokenAccountRent: 0n,
        source: 'fallback',
        reason: `${chain.family} chains carry no swaps`,
      };
    const fallback = feeFallbackOf(chain);
    if (!chain.rpcUrl)
      return {
        ...fallback,
        source: 'fallback',
        reason: `no RPC configured (${chain.rpcEnv ?? 'devnet manifest'})`,
      };
    try {
      const rates = await withTimeout(
        this.readers.feesOf(chain),
        this.options.timeoutMs,
        `${chain.family} fees: no answer within ${this.options.timeoutMs} ms`,
      );
      return { ...rates, source: 'node' };
    } catch (error) {
      const reason = (error as Error)?.message ?? String(error);
      this.logger.warn({
        msg: 'gas price not read from the node; quoting gas coverage with the fallback',
        chain: chain.id,
        reason,
      });
      return { ...fallback, source: 'fallback', reason };
    }
  }
}

/**
 * The price of a unit when the chain's figures were not read: its family's fallback; a Cosmos
 * chain's own minimum gas price (its registry figure, which the chain's nodes take).
 */
function feeFallbackOf(chain: ChainDescriptor | undefined): SponsoredFeeRates {
  const minGasPrice = chain?.cosmos?.minGasPrice;
  return minGasPrice ? cosmosFeeRatesOf(minGasPrice) : sponsoredFeeFallbackOf(chain?.family);
}

/** A chain's fee figures for `debug` (JSON: decimal strings). */
export function feeQuoteDebug(rate: ChainFeeQuote): Record<string, string> {
  const debug: Record<string, string> = {
    source: rate.source,
    feePerGas: rate.feePerGas.toString(),
    tokenAccountRent: rate.tokenAccountRent.toString(),
  };
  if (rate.reason) debug.reason = rate.reason;
  return debug;
}

/** Every chain a leg touches: its own, and a bridge's destination. */
export function chainsOfLegs(legs: readonly RouteLeg[]): string[] {
  const chains = new Set<string>();
  for (const leg of legs) {
    chains.add(leg.chain);
    if (leg.kind === 'bridge' && leg.destinationChain) chains.add(leg.destinationChain);
  }
  return [...chains];
}

/**
 * What the relayer pays for a leg depends on: its chain's family, whether the input is native, and
 * whether the ERC-20 input has EIP-2612 (the chain's deployments: catalog or devnet manifest; a
 * token not listed there counts as without: approve + top-up, the dearer); a bridge's release is ours only for the devnet
 * bridge (an aggregator's bridge delivers by itself).
 */
export function sponsoredLegViewOf(registry: ChainRegistry, leg: RouteLeg): SponsoredLegView | undefined {
  const family = swapFamilyOf(registry.find(leg.chain)?.family);
  if (!family) return undefined;
  const input = leg.tokenIn.address;
  const view: SponsoredLegView = {
    kind: leg.kind,
    chain: leg.chain,
    family,
    tokenIn: { address: leg.tokenIn.address },
    tokenOut: { address: leg.tokenOut.address },
    inputHasEip2612: input !== null && registry.tokenPermitOf(leg.chain, input) !== undefined,
  };
  if (leg.kind === 'bridge' && leg.destinationChain) {
    view.destinationChain = leg.destinationChain;
    view.destinationFamily = swapFamilyOf(registry.find(leg.destinationChain)?.family);
    view.releasedByRelayer = leg.provider === registry.manifest?.bridge?.provider;
    // Across's own relayers fill on the destination: nothing of ours is paid there.
    if (leg.provider === ProviderNames.across) view.across = true;
  }
  return view;
}

/**
 * The route's `gasCoverage`: the sponsored steps of its legs (libs/chains sponsored-gas: upper
 * bound, the permit / approve step always counted), priced per chain with `rates`. A chain missing
 * from `rates` is priced with its family's fallback. The integrator fees' recipients are paid by
 * the first leg's transaction: each adds its transfer (or output, or token account) there. A Cosmos
 * chain also says its exact (fractional) gas price, `gasPrice`.
 */
export function gasCoverageOf(
  registry: ChainRegistry,
  legs: readonly RouteLeg[],
  rates: ReadonlyMap<string, ChainFeeQuote>,
  integratorFeeRecipients: readonly string[] = [],
): RouteGasCoverage {
  const cosmos = cosmosLegCoverageOf(registry, legs);
  const views = legs
    .map((leg, index) => {
      const view = sponsoredLegViewOf(registry, leg);
      const withCosmos = view && cosmos.has(index) ? { ...view, ...cosmos.get(index) } : view;
      return withCosmos && index === 0 ? { ...withCosmos, integratorFeeRecipients } : withCosmos;
    })
    .filter((view): view is SponsoredLegView => view !== undefined);
  const quoteOf = (chain: string): ChainFeeQuote => {
    const known = rates.get(chain);
    if (known) return known;
    return { ...feeFallbackOf(registry.find(chain)), source: 'fallback', reason: 'not read' };
  };
  const totals = sponsoredTotalsOfRoute(views, quoteOf);
  return {
    paidBy: 'service',
    userPays: '0',
    chains: totals.map((total) => {
      const descriptor = registry.find(total.chain);
      const native = descriptor ?? NATIVE_COIN_FALLBACKS[total.family];
      const nativeDecimals = native.nativeDecimals;
      const rate = quoteOf(total.chain);
      return {
        chain: total.chain,
        nativeSymbol: native.nativeSymbol,
        nativeDecimals,
        estimatedGasUnits: total.gasUnits.toString(),
        feePerGasBaseUnits: rate.feePerGas.toString(),
        ...(rate.gasPrice ? { gasPrice: cosmosGasPriceText(rate.gasPrice) } : {}),
        feeSource: rate.source,
        estimatedCostBaseUnits: total.cost.toString(),
        estimatedCostFormatted: formatNativeAmount(total.cost, nativeDecimals),
        breakdown: total.steps.map((step) => ({
          kind: step.kind,
          leg: step.leg,
          estimatedGasUnits: step.gasUnits.toString(),
          estimatedCostBaseUnits: step.cost.toString(),
        })),
      };
    }),
  };
}
