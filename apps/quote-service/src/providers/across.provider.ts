import {
  bridgeSwapLegOf,
  ChainRegistry,
  checksumEvmAddress,
  encodeAcrossSwapMessage,
  StepSplitLeg,
} from '@swapgw/chains';
import { encodeUniswapV3Path } from '@swapgw/chains/families';
import type { RouteLeg, TokenRef } from '@swapgw/contracts';
import { isAddress } from 'ethers';
import { ProviderNames } from './provider-names';
import { mostTellingNoRoute, NoRouteError, NoRouteReason } from './no-route.error';
import {
  CandidateRoute,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  RouteWarningThresholds,
} from './quote-provider';
import { uniswapV3Leg } from './uniswap-v3.provider';
import type { UniswapV3Quoter, V3PathQuote } from './uniswap-v3-quoter';

export interface AcrossOptions {
  /** Across API base URL (https://app.across.to/api; /suggested-fees is appended). */
  baseUrl: string;
}

/**
 * What a deposit of a quoted route is asked for: the recipient alone for a wallet (a plain transfer),
 * or the contract that receives the fill and the message it is handed (a bridge-swap).
 */
export interface AcrossFeeTarget {
  recipient?: string;
  message?: string;
}

/** The fee target of a bridge-swap, and the hops of the destination path its message carries. */
interface AcrossSwapFeeTarget extends Required<AcrossFeeTarget> {
  hops: number;
}

/**
 * Stand-ins for what a bridge-swap's message holds but a quote does not know: the owner and
 * recipient when the request names no EVM recipient (the signing wallet is only known at build),
 * and the deadline (build time plus the swap deadline, at build). Same ABI size as the real values;
 * the deadline is ahead of any fill, so Across simulates the swap, not the bridged-token payout.
 */
const MESSAGE_PLACEHOLDER_RECIPIENT = '0x000000000000000000000000000000000000dEaD';
const MESSAGE_PLACEHOLDER_DEADLINE = 2n ** 32n - 1n;

/** Across's error codes that mean "no route for this request", not a failure of the API, and why. */
const NO_ROUTE_CODES = new Map<string, NoRouteReason>([
  ['AMOUNT_TOO_LOW', 'AMOUNT_TOO_LOW'],
  ['AMOUNT_TOO_HIGH', 'AMOUNT_TOO_HIGH'],
  ['ROUTE_NOT_ENABLED', 'PAIR_NOT_SUPPORTED'],
]);

/** GET /suggested-fees as Across answers it (the fields the deposit and the route need). */
export interface AcrossSuggestedFees {
  totalRelayFee: { pct: string; total: string };
  relayerCapitalFee: { pct: string; total: string };
  relayerGasFee: { pct: string; total: string };
  lpFee: { pct: string; total: string };
  timestamp: string;
  isAmountTooLow: boolean;
  quoteBlock: string;
  spokePoolAddress: string;
  exclusiveRelayer: string;
  exclusivityDeadline: number | string;
  expectedFillTimeSec?: number | string;
  estimatedFillTimeSec?: number | string;
  fillDeadline: string;
  outputAmount: string;
  limits: { minDeposit: string; maxDeposit: string };
}

/** One chain's end of Across: its SpokePool and EVM chain id. */
interface AcrossEnd {
  chain: string;
  chainId: number;
  spokePool: string;
  devnet: boolean;
}

/**
 * Cross-chain through Across between two EVM chains whose deployments name a SpokePool: a token both
 * ends list is bridged at the price of Across's suggested-fees API (outputAmount is what the relayer
 * pays, so the bridge leg's minAmountOut), with a Uniswap V3 swap into it on the source and out of it
 * on the destination when the requested tokens are not the bridged one. The destination's wrapped
 * native coin is not bridged: the SpokePool pays it to a wallet as the native coin.
 */
export class AcrossProvider implements QuoteProvider {
  readonly name = ProviderNames.across;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly quoter: Pick<UniswapV3Quoter, 'quotePaths' | 'smallestQuotableAmount'>,
    private readonly thresholds: RouteWarningThresholds,
    private readonly options: AcrossOptions,
  ) {}

  applies(context: QuoteContext): boolean {
    return acrossBetween(this.registry, context.fromChain.id, context.toChain.id) !== undefined;
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const ends = acrossBetween(this.registry, context.fromChain.id, context.toChain.id);
    if (!ends) return [];
    const routes: CandidateRoute[] = [];
    const noRoute: NoRouteError[] = [];
    const bridged = bridgedTokens(this.registry, ends.from, ends.to);
    if (bridged.length === 0)
      throw new NoRouteError(
        'PAIR_NOT_SUPPORTED',
        `Across: no token is listed on both ${ends.from.chain} and ${ends.to.chain}`,
      );
    for (const [bridgedIn, bridgedOut] of bridged) {
      try {
        routes.push(await this.routeThrough(context, ends.from, ends.to, bridgedIn, bridgedOut, signal));
      } catch (error) {
        if (!(error instanceof NoRouteError)) throw error;
        noRoute.push(error);
      }
    }
    if (routes.length === 0) throw mostTellingNoRoute(noRoute);
    return routes;
  }

  private async routeThrough(
    context: QuoteContext,
    from: AcrossEnd,
    to: AcrossEnd,
    bridgedIn: TokenRef,
    bridgedOut: TokenRef,
    signal: AbortSignal,
  ): Promise<CandidateRoute> {
    /**
     * Why a swap leg found no path: its pools exist but this amount buys less than one unit
     * (AMOUNT_TOO_LOW; `minAmount` when the leg spends the wallet's own token, the least that buys
     * one unit), or no pool connects the tokens (NO_LIQUIDITY).
     */
    const noSwap = async (chain: string, tokenIn: QuoteToken, tokenOut: QuoteToken, amountIn: bigint) => {
      const least = await this.quoter.smallestQuotableAmount(chain, tokenIn, tokenOut, signal);
      if (least !== undefined && least > amountIn) {
        const spendsWalletToken = sameToken(tokenIn, context.tokenIn);
        return new NoRouteError(
          'AMOUNT_TOO_LOW',
          `Across via ${bridgedIn.symbol}: this ${tokenIn.symbol} buys no ${tokenOut.symbol} on ${chain}'s Uniswap V3 pools`,
          spendsWalletToken ? { token: context.tokenIn, minAmount: least } : undefined,
        );
      }
      return new NoRouteError(
        'NO_LIQUIDITY',
        `Across via ${bridgedIn.symbol}: no Uniswap V3 pool on ${chain} gives ${tokenOut.symbol} for this ${tokenIn.symbol}`,
      );
    };
    const legs: RouteLeg[] = [];
    const warnings = new Set<string>();
    const take = (chain: AcrossEnd, tokenIn: QuoteToken, tokenOut: QuoteToken, quote: V3PathQuote) => {
      legs.push(uniswapV3Leg(chain.chain, chain.devnet, tokenIn, tokenOut, quote, context.slippageBps));
      if (quote.priceImpactBps > this.thresholds.priceImpactBps) warnings.add('HIGH_PRICE_IMPACT');
      return quote.amountOut;
    };
    let amount = context.amountIn;
    if (!sameToken(context.tokenIn, bridgedIn)) {
      const [best] = await this.quoter.quotePaths(from.chain, context.tokenIn, bridgedIn, amount, signal);
      if (!best) throw await noSwap(from.chain, context.tokenIn, bridgedIn, amount);
      amount = take(from, context.tokenIn, bridgedIn, best);
    }

    const swapsOnDestination = !sameToken(context.tokenOut, bridgedOut);
    let target: AcrossFeeTarget = { recipient: context.recipient };
    let swapTarget: AcrossSwapFeeTarget | undefined;
    if (swapsOnDestination) {
      // The destination swap as priced before the relay fee: the path the deposit's message carries.
      const bridgedAmount = inDecimalsOf(amount, bridgedIn, bridgedOut);
      const [draft] = await this.quoter.quotePaths(
        to.chain,
        bridgedOut,
        context.tokenOut,
        bridgedAmount,
        signal,
      );
      if (!draft) throw await noSwap(to.chain, bridgedOut, context.tokenOut, bridgedAmount);
      swapTarget = this.acrossSwapFeeTarget(context, from, to, bridgedIn, bridgedOut, amount, draft);
      if (swapTarget) target = swapTarget;
    }

    const fees = await this.suggestedFees(from, to, bridgedIn, bridgedOut, amount, target, signal);
    const outputAmount = BigInt(fees.outputAmount);
    if (outputAmount <= 0n)
      throw new NoRouteError(
        'AMOUNT_TOO_LOW',
        `Across: no output for this ${bridgedIn.symbol} after its fees`,
        {
          token: bridgedIn,
          minAmount: positiveOrUndefined(fees.limits?.minDeposit),
        },
      );
    legs.push(acrossLeg(from, to, bridgedIn, bridgedOut, amount, fees));
    amount = outputAmount;

    if (swapsOnDestination) {
      const paths = await this.quoter.quotePaths(to.chain, bridgedOut, context.tokenOut, amount, signal);
      // The fee Across quoted covers a message of this many hops: the deposit carries one of that size.
      const hops = swapTarget?.hops;
      const best = hops === undefined ? paths[0] : paths.find((path) => path.fees.length === hops);
      if (!best) throw await noSwap(to.chain, bridgedOut, context.tokenOut, amount);
      amount = take(to, bridgedOut, context.tokenOut, best);
    }
    return {
      providers: legs.map((leg) => leg.provider),
      bridgeProvider: this.name,
      legs,
      expectedAmountOut: amount,
      estimatedDurationSeconds: legs.reduce((sum, leg) => sum + leg.estimatedDurationSeconds, 0),
      warnings: [...warnings],
      debug: {
        across: {
          totalRelayFee: fees.totalRelayFee,
          relayerCapitalFee: fees.relayerCapitalFee,
          relayerGasFee: fees.relayerGasFee,
          lpFee: fees.lpFee,
          quoteBlock: fees.quoteBlock,
          limits: fees.limits,
          ...(swapTarget ? { quotedWithMessageTo: swapTarget.recipient } : {}),
        },
      },
    };
  }

  /**
   * Across prices a deposit with a message by the fill's gas, handleV3AcrossMessage included (the
   * destination swap): a route whose deposit will carry the destination swap (a gas-covered build
   * signs it as one across-swap, @swapgw/chains' bridgeSwapLegOf) is quoted with `recipient`, the
   * destination's SwapGatewayRouter, and `message`, an AcrossSwapMessage of the same length and
   * shape as the one the deposit will carry: the destination SwapRouter02 and the draft's V3 path,
   * its minimum out at the request's slippage, the request's recipient as owner and recipient, and
   * the placeholders above. The final amounts are only known after the fee, but Across's fee depends
   * on the message's gas, not on its values. undefined when the route is not a bridge-swap (no
   * SwapGatewayRouter on one end, or a destination swap it cannot carry): its deposit has no message.
   */
  private acrossSwapFeeTarget(
    context: QuoteContext,
    from: AcrossEnd,
    to: AcrossEnd,
    bridgedIn: TokenRef,
    bridgedOut: TokenRef,
    amount: bigint,
    draft: V3PathQuote,
  ): AcrossSwapFeeTarget | undefined {
    const bridge: StepSplitLeg = {
      kind: 'bridge',
      chain: from.chain,
      provider: this.name,
      spender: from.spokePool,
      tokenIn: bridgedIn,
      tokenOut: bridgedOut,
      amountIn: amount.toString(),
      destinationChain: to.chain,
    };
    const swap = uniswapV3Leg(to.chain, to.devnet, bridgedOut, context.tokenOut, draft, context.slippageBps);
    const chains = {
      familyOf: (id: string) => this.registry.find(id)?.family,
      permitContractsOf: (id: string) => this.registry.permitContracts(id),
    };
    const router = this.registry.permitContracts(to.chain)?.permitRouter;
    if (!router || bridgeSwapLegOf([bridge, swap], chains) === null) return undefined;
    const recipient =
      context.recipient && isAddress(context.recipient)
        ? checksumEvmAddress(context.recipient)
        : MESSAGE_PLACEHOLDER_RECIPIENT;
    return {
      recipient: checksumEvmAddress(router),
      message: encodeAcrossSwapMessage({
        owner: recipient,
        venue: swap.spender,
        path: encodeUniswapV3Path(draft.path, draft.fees),
        amountOutMin: swap.minAmountOut,
        recipient,
        unwrapNative: context.tokenOut.address === null,
        deadline: MESSAGE_PLACEHOLDER_DEADLINE,
      }),
      hops: draft.fees.length,
    };
  }

  /**
   * GET <baseUrl>/suggested-fees, with the target's recipient (an EVM address) and message when
   * there is one; Across's "no route" answers as NoRouteError, anything else throws. Asked with
   * skipAmountLimit, so that an amount outside Across's limits is answered with the limits (the
   * bounds of AMOUNT_TOO_LOW / AMOUNT_TOO_HIGH) rather than a bare 400; a 400 still maps to its
   * reason, without bounds.
   */
  async suggestedFees(
    from: AcrossEnd,
    to: AcrossEnd,
    inputToken: TokenRef,
    outputToken: TokenRef,
    amount: bigint,
    target: AcrossFeeTarget,
    signal: AbortSignal,
  ): Promise<AcrossSuggestedFees> {
    const url = new URL(`${this.options.baseUrl.replace(/\/$/, '')}/suggested-fees`);
    url.searchParams.set('inputToken', inputToken.address as string);
    url.searchParams.set('outputToken', outputToken.address as string);
    url.searchParams.set('originChainId', String(from.chainId));
    url.searchParams.set('destinationChainId', String(to.chainId));
    url.searchParams.set('amount', amount.toString());
    url.searchParams.set('skipAmountLimit', 'true');
    if (target.recipient && /^0x[0-9a-fA-F]{40}$/.test(target.recipient))
      url.searchParams.set('recipient', target.recipient);
    if (target.message) url.searchParams.set('message', target.message);
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal });
    const text = await response.text();
    const body = parseJson(text);
    if (!response.ok) {
      const code = typeof body?.code === 'string' ? body.code : undefined;
      const message = typeof body?.message === 'string' ? body.message : text.slice(0, 200);
      const reason = response.status === 400 && code ? NO_ROUTE_CODES.get(code) : undefined;
      if (reason) throw new NoRouteError(reason, `Across: ${message} (${code})`);
      throw new Error(`Across answered HTTP ${response.status}${code ? ` ${code}` : ''}: ${message}`);
    }
    const fees = asSuggestedFees(body);
    const maxDeposit = positiveOrUndefined(fees.limits?.maxDeposit);
    if (maxDeposit !== undefined && amount > maxDeposit)
      throw new NoRouteError('AMOUNT_TOO_HIGH', `Across: over the deposit limit of ${inputToken.symbol}`, {
        token: inputToken,
        maxAmount: maxDeposit,
      });
    if (fees.isAmountTooLow)
      throw new NoRouteError('AMOUNT_TOO_LOW', 'Across: the amount is too low relative to fees', {
        token: inputToken,
        minAmount: positiveOrUndefined(fees.limits?.minDeposit),
      });
    if (checksumEvmAddress(fees.spokePoolAddress) !== from.spokePool)
      throw new Error(
        `Across named SpokePool ${fees.spokePoolAddress}, not ${from.chain}'s ${from.spokePool}`,
      );
    return fees;
  }
}

/** The bridge leg: the SpokePool deposit the wallet makes, with what Across quoted for it. */
export function acrossLeg(
  from: AcrossEnd,
  to: AcrossEnd,
  tokenIn: TokenRef,
  tokenOut: TokenRef,
  amountIn: bigint,
  fees: AcrossSuggestedFees,
): RouteLeg {
  return {
    kind: 'bridge',
    chain: from.chain,
    provider: ProviderNames.across,
    tokenIn: { ...tokenIn },
    tokenOut: { ...tokenOut },
    amountIn: amountIn.toString(),
    expectedAmountOut: fees.outputAmount,
    // The relayer pays exactly outputAmount or nothing: no price risk on this leg.
    minAmountOut: fees.outputAmount,
    slippageBps: 0,
    spender: from.spokePool,
    destinationChain: to.chain,
    destinationBridgeChainId: to.chainId,
    across: {
      spokePool: from.spokePool,
      outputToken: tokenOut.address as string,
      outputAmount: fees.outputAmount,
      quoteTimestamp: Number(fees.timestamp),
      fillDeadline: Number(fees.fillDeadline),
      exclusiveRelayer: checksumEvmAddress(fees.exclusiveRelayer),
      exclusivityDeadline: Number(fees.exclusivityDeadline),
    },
    estimatedDurationSeconds: Number(fees.expectedFillTimeSec ?? fees.estimatedFillTimeSec ?? 0),
  };
}

/**
 * Both ends when the two chains are EVM chains whose deployments have a SpokePool and that have an
 * RPC URL (the deposit is signed on one, the fill awaited on the other, the swaps quoted on both).
 */
export function acrossBetween(
  registry: ChainRegistry,
  fromChain: string,
  toChain: string,
): { from: AcrossEnd; to: AcrossEnd } | undefined {
  if (fromChain === toChain) return undefined;
  const end = (id: string): AcrossEnd | undefined => {
    const chain = registry.find(id);
    const spokePool = registry.deployments(id)?.across?.spokePool;
    if (!chain?.rpcUrl || chain.family !== 'evm' || chain.evmChainId === undefined || !spokePool)
      return undefined;
    return {
      chain: id,
      chainId: chain.evmChainId,
      spokePool: checksumEvmAddress(spokePool),
      devnet: chain.devnet,
    };
  };
  const from = end(fromChain);
  const to = end(toChain);
  return from && to ? { from, to } : undefined;
}

/** Catalog tokens both ends list by symbol, but the destination's wrapped native coin. */
function bridgedTokens(registry: ChainRegistry, from: AcrossEnd, to: AcrossEnd): [TokenRef, TokenRef][] {
  const source = registry.deployments(from.chain);
  const destination = registry.deployments(to.chain);
  const wrapped = destination?.wrappedNative?.toLowerCase();
  const pairs: [TokenRef, TokenRef][] = [];
  for (const a of source?.tokens ?? []) {
    const b = destination?.tokens.find((t) => t.symbol === a.symbol);
    if (!a.address || !b?.address || b.address.toLowerCase() === wrapped) continue;
    pairs.push([
      { chain: from.chain, symbol: a.symbol, address: checksumEvmAddress(a.address), decimals: a.decimals },
      { chain: to.chain, symbol: b.symbol, address: checksumEvmAddress(b.address), decimals: b.decimals },
    ]);
  }
  return pairs;
}

function sameToken(token: QuoteToken, bridged: TokenRef): boolean {
  return token.address !== null && token.address.toLowerCase() === bridged.address?.toLowerCase();
}

/** `amount` of `from` in `to`'s base units: the same token may have other decimals on another chain. */
function inDecimalsOf(amount: bigint, from: TokenRef, to: TokenRef): bigint {
  const shift = to.decimals - from.decimals;
  return shift >= 0 ? amount * 10n ** BigInt(shift) : amount / 10n ** BigInt(-shift);
}

/** A limit Across answered (a decimal string of base units), when it is one and above 0. */
function positiveOrUndefined(value: unknown): bigint | undefined {
  return typeof value === 'string' && /^[0-9]+$/.test(value) && BigInt(value) > 0n
    ? BigInt(value)
    : undefined;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function asSuggestedFees(body: Record<string, unknown> | undefined): AcrossSuggestedFees {
  const fees = body as Partial<AcrossSuggestedFees> | undefined;
  const integer = (value: unknown) => typeof value === 'string' && /^[0-9]+$/.test(value);
  if (
    !fees ||
    !integer(fees.outputAmount) ||
    !integer(fees.timestamp) ||
    !integer(fees.fillDeadline) ||
    typeof fees.spokePoolAddress !== 'string' ||
    typeof fees.exclusiveRelayer !== 'string' ||
    typeof fees.isAmountTooLow !== 'boolean' ||
    !Number.isInteger(Number(fees.exclusivityDeadline))
  )
    throw new Error(
      'Across answered a suggested-fees body without outputAmount, timestamp, fillDeadline or spokePoolAddress',
    );
  return fees as AcrossSuggestedFees;
}
