import { ChainRegistry, sameTokenAddress } from '@swapgw/chains';
import { satsForUsdc, usdcForSats } from '@swapgw/chains/bitcoin-bridge';
import type { RouteLeg } from '@swapgw/contracts';
import { afterFeeBps } from '../quote/amounts';
import { ProviderNames } from './provider-names';
import { bridgeDurationSeconds, devnetBridgeBetween, DevnetBridgeEnd } from './devnet-bridge-ends';
import { NoRouteError } from './no-route.error';
import {
  CandidateRoute,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  RouteWarningThresholds,
} from './quote-provider';
import { amountTooLow, pathDebug, pathWarnings, uniswapLeg } from './uniswap-v2.provider';
import type { UniswapV2Quoter } from './uniswap-v2-quoter';

/**
 * Cross-chain between devnet chains through the devnet bridge: an optional Uniswap V2 swap into
 * USDC on an EVM source chain, the bridge transfer (fee kept on deposit, as the contracts and the
 * Solana relayer do), and an optional swap out of USDC on an EVM destination chain. A Solana end
 * (`solana-devnet`) has no swap venue on the devnet, so there the token must be the bridged USDC
 * itself. Its Bitcoin end trades with Noble's only (devnetBridgeBetween), taking and paying native
 * BTC for the USDC it carries at the bridge's price (endToEndAmount); every other BTC route is
 * THORChain's (providers/thorchain/).
 */
export class DevnetBridgeProvider implements QuoteProvider {
  readonly name = ProviderNames.devnetBridge;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly quoter: Pick<UniswapV2Quoter, 'quotePaths' | 'smallestQuotableAmount'>,
    private readonly thresholds: RouteWarningThresholds,
  ) {}

  /** Between two chains it links (Bitcoin only with Noble: devnetBridgeBetween). */
  applies(context: QuoteContext): boolean {
    return devnetBridgeBetween(this.registry, context.fromChain.id, context.toChain.id) !== undefined;
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const bridge = this.registry.manifest?.bridge;
    const ends = devnetBridgeBetween(this.registry, context.fromChain.id, context.toChain.id);
    if (!bridge || !ends) return [];
    const { from, to } = ends;

    const legs: RouteLeg[] = [];
    const warnings = new Set<string>();
    const debug: Record<string, unknown>[] = [];
    let amount = context.amountIn;

    // An end without a swap venue (the devnet's Solana) takes only the bridged token (checked before any I/O).
    for (const [token, end] of [
      [context.tokenIn, from],
      [context.tokenOut, to],
    ] as const)
      if (!sameAsset(token, end) && !end.hasSwapVenue)
        throw new NoRouteError(
          'PAIR_NOT_SUPPORTED',
          `devnet bridge: ${end.chain} has no swap venue, only ${end.token.symbol} rides from or to it`,
        );

    if (!sameAsset(context.tokenIn, from)) {
      const [best] = await this.quoter.quotePaths(from.chain, context.tokenIn, from.token, amount, signal);
      if (!best) throw await this.noSourceSwap(context, from, to, bridge.feeBps, signal);
      legs.push(uniswapLeg(from.chain, true, context.tokenIn, from.token, best, context.slippageBps));
      pathWarnings(best, this.thresholds).forEach((w) => warnings.add(w));
      debug.push({ leg: 'source-swap', ...pathDebug(best) });
      amount = best.amounts[best.amounts.length - 1];
    }

    const bridged = endToEndAmount(from, to, amount, bridge.feeBps);
    // The bridge refuses deposits that its fee (or a Bitcoin payout's miner fee and dust) would eat,
    // and a Bitcoin deposit under the dust threshold would not relay.
    if (bridged < leastPayout(to) || amount < leastDeposit(from)) {
      const least = smallestEndToEndInput(from, to, bridge.feeBps, leastPayout(to));
      throw new NoRouteError(
        'AMOUNT_TOO_LOW',
        `devnet bridge: ${from.token.symbol} from ${from.chain} to ${to.chain} pays nothing for this amount after its fees`,
        { token: from.token, minAmount: least > leastDeposit(from) ? least : leastDeposit(from) },
      );
    }
    legs.push(bridgeLeg(bridge.provider, from, to, amount, bridged));
    debug.push({
      leg: 'bridge',
      feeBps: bridge.feeBps,
      amountIn: amount.toString(),
      amountOut: bridged.toString(),
    });
    amount = bridged;

    if (!sameAsset(context.tokenOut, to)) {
      const [best] = await this.quoter.quotePaths(to.chain, to.token, context.tokenOut, amount, signal);
      if (!best) throw await this.noDestinationSwap(context, from, to, bridge.feeBps, amount, signal);
      legs.push(uniswapLeg(to.chain, true, to.token, context.tokenOut, best, context.slippageBps));
      pathWarnings(best, this.thresholds).forEach((w) => warnings.add(w));
      debug.push({ leg: 'destination-swap', ...pathDebug(best) });
      amount = best.amounts[best.amounts.length - 1];
    }

    return [
      {
        providers: legs.map((leg) => leg.provider),
        bridgeProvider: bridge.provider,
        legs,
        expectedAmountOut: amount,
        estimatedDurationSeconds: legs.reduce((sum, leg) => sum + leg.estimatedDurationSeconds, 0),
        warnings: [...warnings],
        debug: { legs: debug },
      },
    ];
  }

  /**
   * Why the source swap has no path: its pools exist but the amount buys too little of the bridged
   * token for the bridge to pay anything (AMOUNT_TOO_LOW with the least input that buys enough,
   * Router02's getAmountsIn of smallestBridgedInput), or no pool gives the bridged token at all
   * (NO_LIQUIDITY).
   */
  private async noSourceSwap(
    context: QuoteContext,
    from: DevnetBridgeEnd,
    to: DevnetBridgeEnd,
    feeBps: number,
    signal: AbortSignal,
  ): Promise<NoRouteError> {
    const least = await this.leastInputPaying(context, from, to, feeBps, 1n, signal);
    if (least !== undefined && least > context.amountIn) return amountTooLow('devnet bridge', context, least);
    return noSwapInto(from.chain, context.tokenIn, from.token);
  }

  /**
   * Why the destination swap has no path: its pools exist but what the bridge pays buys less than one
   * base unit of tokenOut (AMOUNT_TOO_LOW with the least input whose payout buys one), or no pool
   * gives tokenOut for the bridged token (NO_LIQUIDITY).
   */
  private async noDestinationSwap(
    context: QuoteContext,
    from: DevnetBridgeEnd,
    to: DevnetBridgeEnd,
    feeBps: number,
    paidOut: bigint,
    signal: AbortSignal,
  ): Promise<NoRouteError> {
    const payoutNeeded = await this.quoter.smallestQuotableAmount(
      to.chain,
      to.token,
      context.tokenOut,
      signal,
    );
    if (payoutNeeded === undefined || payoutNeeded <= paidOut)
      return noSwapInto(to.chain, to.token, context.tokenOut);
    const least = await this.leastInputPaying(context, from, to, feeBps, payoutNeeded, signal);
    if (least === undefined)
      return new NoRouteError(
        'AMOUNT_TOO_LOW',
        `devnet bridge: what it pays on ${to.chain} buys no ${context.tokenOut.symbol}`,
      );
    return amountTooLow('devnet bridge', context, least);
  }

  /**
   * The least amount of tokenIn for which the bridge pays at least `payout` at `to`: the least
   * deposit that pays it, bought with tokenIn first when tokenIn is not the bridged token (Router02's
   * getAmountsIn); undefined when no pool gives the bridged token.
   */
  private async leastInputPaying(
    context: QuoteContext,
    from: DevnetBridgeEnd,
    to: DevnetBridgeEnd,
    feeBps: number,
    payout: bigint,
    signal: AbortSignal,
  ): Promise<bigint | undefined> {
    const deposit = smallestEndToEndInput(from, to, feeBps, payout);
    if (sameAsset(context.tokenIn, from)) return deposit;
    return this.quoter.smallestQuotableAmount(from.chain, context.tokenIn, from.token, signal, deposit);
  }
}

/**
 * The bridge transfer as the planner executes it: on an EVM source `spender` is the bridge contract
 * (approve, then deposit/depositTo), on a Solana source it is the vault token account (transfer +
 * memo naming `destinationBridgeChainId` and the recipient). See RouteLeg in @swapgw/contracts.
 */
export function bridgeLeg(
  provider: string,
  from: DevnetBridgeEnd,
  to: DevnetBridgeEnd,
  amountIn: bigint,
  amountOut: bigint,
): RouteLeg {
  return {
    kind: 'bridge',
    chain: from.chain,
    provider,
    tokenIn: { ...from.token },
    tokenOut: { ...to.token },
    amountIn: amountIn.toString(),
    expectedAmountOut: amountOut.toString(),
    // The bridge releases exactly the announced amount: no price risk on this leg.
    minAmountOut: amountOut.toString(),
    slippageBps: 0,
    spender: from.spender,
    destinationChain: to.chain,
    destinationBridgeChainId: to.bridgeChainId,
    estimatedDurationSeconds: bridgeDurationSeconds(from, to),
  };
}

/** What the destination end pays for `amount` deposited at the source end: USDC less the fee kept on deposit. */
export function bridgedAmount(amount: bigint, feeBps: number): bigint {
  return afterFeeBps(amount, feeBps);
}

/**
 * What the destination end pays for `amount` deposited at the source end, any ends: USDC less the
 * fee kept on deposit; a Bitcoin source swaps its BTC for USDC at the bridge's price less its fee
 * (usdcForSats); a Bitcoin destination pays BTC for the USDC that arrives, at that price, less the
 * payout's miner fee (the outbound fee, fixed per payout as THORChain's is).
 */
export function endToEndAmount(
  from: DevnetBridgeEnd,
  to: DevnetBridgeEnd,
  amount: bigint,
  feeBps: number,
): bigint {
  const carried = from.bitcoinTerms ? usdcForSats(amount, from.bitcoinTerms) : bridgedAmount(amount, feeBps);
  if (!to.bitcoinTerms) return carried;
  return satsForUsdc(carried, to.bitcoinTerms) - BigInt(to.bitcoinTerms.outboundFeeSats);
}

/**
 * Bitcoin Core's dust threshold of the costliest output the Bitcoin end pays (P2SH, 540 sats; P2WPKH
 * 294, P2TR 330): a payout (or a deposit) under it would not relay. Elsewhere one base unit.
 */
const BITCOIN_PAYOUT_DUST_SATS = 540n;

function leastPayout(to: DevnetBridgeEnd): bigint {
  return to.bitcoinTerms ? BITCOIN_PAYOUT_DUST_SATS : 1n;
}

/** The least a deposit at `from` may be: on Bitcoin, an output the network relays (the same dust bound). */
function leastDeposit(from: DevnetBridgeEnd): bigint {
  return from.bitcoinTerms ? BITCOIN_PAYOUT_DUST_SATS : 1n;
}

/** smallestBridgedInput between any two ends (endToEndAmount): the least deposit that pays `payout`. */
export function smallestEndToEndInput(
  from: DevnetBridgeEnd,
  to: DevnetBridgeEnd,
  feeBps: number,
  payout = 1n,
): bigint {
  return leastInputWhere((amount) => endToEndAmount(from, to, amount, feeBps) >= payout);
}

/**
 * The least deposit (base units of the bridged token) for which the bridge pays at least `payout`
 * (by default anything), the fee on deposit covered. A binary search: bridgedAmount grows with the
 * deposit.
 */
export function smallestBridgedInput(feeBps: number, payout = 1n): bigint {
  return leastInputWhere((amount) => bridgedAmount(amount, feeBps) >= payout);
}

/** The least amount for which `pays` holds, `pays` growing with the amount (a binary search). */
function leastInputWhere(pays: (amount: bigint) => boolean): bigint {
  let high = 1n;
  while (!pays(high) && high < 2n ** 256n) high *= 2n;
  let low = high / 2n; // does not pay (or 0)
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (pays(middle)) high = middle;
    else low = middle;
  }
  return high;
}

function noSwapInto(chain: string, tokenIn: QuoteToken, tokenOut: QuoteToken): NoRouteError {
  return new NoRouteError(
    'NO_LIQUIDITY',
    `devnet bridge: no Uniswap V2 pool on ${chain} gives ${tokenOut.symbol} for this ${tokenIn.symbol}`,
  );
}

/** The bridged token of `end` (on Solana its `address` is the mint), compared as its family does. */
function sameAsset(token: QuoteToken, end: DevnetBridgeEnd): boolean {
  return (
    token.chain === end.token.chain &&
    sameTokenAddress(end.family, token.mint ?? token.address, end.token.address)
  );
}
