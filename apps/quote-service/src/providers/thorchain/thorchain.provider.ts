import { checksumEvmAddress, type ChainDescriptor } from '@swapgw/chains';
import {
  fromThorchainUnits,
  isBitcoinBridgeRecipient,
  THORCHAIN_MAX_AFFILIATES,
  thorchainAssetOf,
  type ThorchainAffiliate,
  toThorchainUnits,
  type ThornodeInboundAddress,
  type ThornodeQuoteSwap,
} from '@swapgw/chains/bitcoin-bridge';
import type { RouteLeg } from '@swapgw/contracts';
import type { Clock } from '@swapgw/runtime';
import { applySlippage } from '../../quote/amounts';
import { autoSlippageBps } from '../../quote/slippage';
import { NoRouteError } from '../no-route.error';
import { ProviderNames } from '../provider-names';
import type {
  CandidateRoute,
  IntegratorFeeCharge,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
} from '../quote-provider';
import { thorchainPrefixOf } from './thorchain-chains';
import type { ThornodeClient, ThornodeQuoteSwapRequest } from './thornode-client';

export interface ThorchainOptions {
  /** The operator's THORName (or THOR address) written as the memo's affiliate; unset = none. */
  affiliate?: string;
  /** The affiliate fee THORChain keeps for it, in bps of the input (0–1000). */
  affiliateBps?: number;
  /** API chain id → THORChain chain prefix, beside the table of real networks (thorchain-chains.ts). */
  chainPrefixes?: Readonly<Record<string, string>>;
}

/**
 * The least time a quote's inbound address must have left: THORNode's `expiry` is when the vault
 * may rotate, and the deposit is signed and mined after the quote (its TTL, the wallet, a block).
 */
export const THORCHAIN_MIN_EXPIRY_SECONDS = 600;

/** The streaming interval asked of every quote: a sub-swap every block, THORChain choosing how many. */
const STREAMING_INTERVAL = 1;

/**
 * Swaps between native Bitcoin and the EVM chains THORChain trades on, through THORChain: one leg,
 * the deposit into THORChain with a swap memo (`=:ASSET:DESTINATION:LIMIT/INTERVAL/QUANTITY:AFFILIATE:FEE`,
 * written at build from the leg's `thorchain` part), THORChain paying the destination asset itself.
 * Out of Bitcoin the deposit pays the inbound address (the leg's `spender`); out of an EVM chain the
 * wallet calls THORChain's router (`spender`, which it approves) with
 * `depositWithExpiry(vault, asset, amount, memo, expiry)`, the vault being the quote's inbound address
 * (`thorchain.inboundAddress`). Quotes come from THORNode's /thorchain/quote/swap after
 * /thorchain/inbound_addresses says both chains trade: halts and pauses, the source chain's dust
 * threshold and THORNode's recommended minimum are answered as no route; a quote whose inbound
 * address expires too soon, or whose inbound address or router is not the chain's, is a failure.
 * The route streams when the quote offers more than one sub-swap.
 *
 * Integrator fees whose recipients are THORNames or thor1 addresses go into the memo's affiliate
 * fields after the operator's (`affiliate=op/a/b&affiliate_bps=…`): THORNode is quoted for the
 * gross amount, THORChain takes each share out of the deposit, and the route reports them as taken
 * by its own transaction. Out of Bitcoin, fees to Bitcoin addresses stay outputs of the PSBT (the
 * quote is for the net amount); out of an EVM chain only affiliates can be paid (THORChain's router
 * is not the SwapGatewayRouter), and one quote does not mix the two.
 */
export class ThorchainProvider implements QuoteProvider {
  readonly name = ProviderNames.thorchain;
  readonly paysThorchainAffiliates = true;

  constructor(
    private readonly client: Pick<ThornodeClient, 'inboundAddresses' | 'quoteSwap'>,
    private readonly clock: Clock,
    private readonly options: ThorchainOptions = {},
  ) {}

  /** Out of Bitcoin to a chain THORChain names, or out of an EVM chain it names into Bitcoin. */
  applies(context: QuoteContext): boolean {
    const { fromChain, toChain } = context;
    if (fromChain.family === 'bitcoin')
      return toChain.family !== 'bitcoin' && this.prefixOf(toChain) !== undefined;
    return (
      fromChain.family === 'evm' && toChain.family === 'bitcoin' && this.prefixOf(fromChain) !== undefined
    );
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const { tokenIn, tokenOut, fromChain, toChain } = context;
    const fromPrefix = this.prefixOf(fromChain);
    const toPrefix = this.prefixOf(toChain);
    if (fromPrefix === undefined || toPrefix === undefined)
      throw new NoRouteError(
        'PAIR_NOT_SUPPORTED',
        `THORChain: no route from ${fromChain.id} to ${toChain.id}`,
      );
    for (const [chain, token] of [
      [fromChain, tokenIn],
      [toChain, tokenOut],
    ] as const)
      if (chain.family === 'bitcoin' && token.address !== null)
        throw new NoRouteError('PAIR_NOT_SUPPORTED', `THORChain: trades native BTC on ${chain.id} only`);
    const fromAsset = thorchainAssetOf(fromPrefix, tokenIn);
    const toAsset = thorchainAssetOf(toPrefix, tokenOut);

    const inbound = await this.client.inboundAddresses(signal);
    const source = tradingInbound(inbound, fromPrefix);
    // A gas asset of its own chain always has an entry; THOR (RUNE) has none and never halts here.
    if (toPrefix !== 'THOR') tradingInbound(inbound, toPrefix);

    const fees = this.feesOf(context);
    const amount = toThorchainUnits(fees.quotedAmountIn, tokenIn.decimals);
    const dust = BigInt(source.dust_threshold ?? '0');
    if (amount < dust)
      throw amountTooLow(tokenIn, dust, `below the ${fromPrefix} dust threshold THORChain observes`);

    const quote = await this.quoteSwapOf(
      fees,
      {
        from_asset: fromAsset,
        to_asset: toAsset,
        amount,
        ...(context.recipient !== undefined ? { destination: context.recipient } : {}),
        streaming_interval: STREAMING_INTERVAL,
        streaming_quantity: 0,
        ...affiliateQuery(fees.affiliates),
      },
      signal,
    );
    const recommended = BigInt(quote.recommended_min_amount_in ?? '0');
    if (amount < recommended)
      throw amountTooLow(tokenIn, recommended, 'under what THORNode recommends to cover the outbound fee');
    const deposit = this.checkInboundAddress(quote, source, fromChain);

    const expectedAmountOut = fromThorchainUnits(BigInt(quote.expected_amount_out), tokenOut.decimals);
    if (expectedAmountOut === 0n)
      throw amountTooLow(tokenIn, recommended, `pays no ${tokenOut.symbol} once THORChain's fees are taken`);
    const slippageBps =
      context.slippageBps ?? autoSlippageBps({ priceImpactBps: quote.fees.slippage_bps ?? 0 });
    const minAmountOut = applySlippage(expectedAmountOut, slippageBps);
    const streamingQuantity = quote.max_streaming_quantity ?? 0;
    const streams = streamingQuantity > 1;
    const leg: RouteLeg = {
      kind: 'bridge',
      chain: fromChain.id,
      provider: this.name,
      tokenIn: tokenRef(tokenIn),
      tokenOut: tokenRef(tokenOut),
      amountIn: context.amountIn.toString(),
      expectedAmountOut: expectedAmountOut.toString(),
      minAmountOut: minAmountOut.toString(),
      slippageBps,
      spender: deposit.spender,
      destinationChain: toChain.id,
      estimatedDurationSeconds: durationOf(quote),
      thorchain: {
        asset: toAsset,
        streamingInterval: streams ? STREAMING_INTERVAL : 0,
        streamingQuantity: streams ? streamingQuantity : 0,
        ...(fees.affiliates.length > 0 ? { affiliates: fees.affiliates } : {}),
        expiry: quote.expiry,
        ...(deposit.vault !== undefined ? { inboundAddress: deposit.vault } : {}),
      },
    };
    return [
      {
        providers: [this.name],
        bridgeProvider: this.name,
        legs: [leg],
        expectedAmountOut,
        estimatedDurationSeconds: leg.estimatedDurationSeconds,
        warnings: [],
        ...(fees.takenByMemo.length > 0 ? { integratorFee: fees.takenByMemo } : {}),
        debug: {
          thorchain: {
            fromAsset,
            toAsset,
            fees: quote.fees,
            maxStreamingQuantity: quote.max_streaming_quantity ?? 0,
            expiry: quote.expiry,
            ...(quote.warning ? { warning: quote.warning } : {}),
            ...(quote.notes ? { notes: quote.notes } : {}),
          },
        },
      },
    ];
  }

  private prefixOf(chain: ChainDescriptor): string | undefined {
    return thorchainPrefixOf(chain, this.options.chainPrefixes);
  }

  /**
   * THORNode's quote; a memo too long for the source chain because of the integrator's affiliates
   * (a `thor1…` address takes 43 of Bitcoin's 80 bytes) is the fee THORChain cannot carry.
   */
  private async quoteSwapOf(
    fees: { takenByMemo: IntegratorFeeCharge[] },
    request: ThornodeQuoteSwapRequest,
    signal: AbortSignal,
  ): Promise<ThornodeQuoteSwap> {
    try {
      return await this.client.quoteSwap(request, signal);
    } catch (error) {
      if (
        error instanceof NoRouteError &&
        /memo too long/i.test(error.message) &&
        fees.takenByMemo.length > 0
      )
        throw new NoRouteError(
          'INTEGRATOR_FEE_NOT_SUPPORTED',
          `${error.message}: the integrator's affiliates do not fit THORChain's memo on this chain (name a short THORName rather than a thor1 address)`,
        );
      throw error;
    }
  }

  /**
   * The memo's affiliates (the operator's first, then the integrator fees paid to THORChain
   * affiliates), those fees, and the amount THORNode is quoted for: the gross amount when THORChain
   * takes the fees out of the deposit, else the net one.
   */
  private feesOf(context: QuoteContext): {
    affiliates: ThorchainAffiliate[];
    takenByMemo: IntegratorFeeCharge[];
    quotedAmountIn: bigint;
  } {
    const charges = context.integratorFee?.charges ?? [];
    const takenByMemo = charges.filter((charge) => charge.thorchainAffiliate);
    if (takenByMemo.length > 0 && takenByMemo.length < charges.length)
      throw new NoRouteError(
        'INTEGRATOR_FEE_NOT_SUPPORTED',
        'THORChain: one quote pays integrator fees either to THORChain affiliates (THORNames, thor1 addresses) or to addresses of the source chain, not both',
      );
    if (charges.length > 0 && takenByMemo.length === 0 && context.fromChain.family !== 'bitcoin')
      throw new NoRouteError(
        'INTEGRATOR_FEE_NOT_SUPPORTED',
        `THORChain: out of ${context.fromChain.id} an integrator fee is paid by THORChain to a THORName or thor1 address (its memo's affiliate): name one as integratorFee.recipient`,
      );
    const { affiliate, affiliateBps } = this.options;
    const affiliates: ThorchainAffiliate[] = [
      ...(affiliate !== undefined ? [{ name: affiliate, bps: affiliateBps ?? 0 }] : []),
      ...takenByMemo.map((charge) => ({ name: charge.recipient, bps: charge.bps })),
    ];
    if (affiliates.length > THORCHAIN_MAX_AFFILIATES)
      throw new NoRouteError(
        'INTEGRATOR_FEE_NOT_SUPPORTED',
        `THORChain: a memo names at most ${THORCHAIN_MAX_AFFILIATES} affiliates${affiliate !== undefined ? ", the operator's included" : ''}`,
      );
    const quotedAmountIn =
      takenByMemo.length > 0 ? (context.integratorFee?.grossAmountIn ?? context.amountIn) : context.amountIn;
    return { affiliates, takenByMemo, quotedAmountIn };
  }

  /**
   * The quote's inbound address is the source chain's in inbound_addresses and an address of the
   * chain's network (out of an EVM chain: so is the router, the same as the entry's), and it stays
   * valid long enough to be paid: what the deposit pays (Bitcoin: the inbound address; EVM: the
   * router it calls, and the vault it credits); else THORNode answered something the deposit must
   * not be built on (a failure, not a "no route").
   */
  private checkInboundAddress(
    quote: ThornodeQuoteSwap,
    source: ThornodeInboundAddress,
    chain: ChainDescriptor,
  ): { spender: string; vault?: string } {
    const address = quote.inbound_address;
    const deposit = chain.family === 'evm' ? evmDepositOf(quote, source, chain) : undefined;
    if (chain.family !== 'evm') {
      if (address === undefined || address !== source.address)
        throw new Error(`THORNode quoted inbound address ${address}, not ${chain.id}'s ${source.address}`);
      if (
        !isBitcoinBridgeRecipient(
          address,
          chain.bitcoinNetwork ?? (chain.network === 'mainnet' ? 'mainnet' : undefined),
        )
      )
        throw new Error(`THORNode's inbound address ${address} is not an address of ${chain.id}`);
    }
    const leftSeconds = quote.expiry - Math.floor(this.clock.nowMs() / 1000);
    if (leftSeconds < THORCHAIN_MIN_EXPIRY_SECONDS)
      throw new Error(
        `THORNode's inbound address expires in ${leftSeconds} s, under the ${THORCHAIN_MIN_EXPIRY_SECONDS} s a deposit needs`,
      );
    return deposit ?? { spender: address as string };
  }
}

/**
 * Out of an EVM chain: the router the wallet calls and the vault it credits, both as the chain's
 * inbound_addresses entry names them (THORNode's quote repeats them), checksummed.
 */
function evmDepositOf(
  quote: ThornodeQuoteSwap,
  source: ThornodeInboundAddress,
  chain: ChainDescriptor,
): { spender: string; vault: string } {
  const { inbound_address: vault, router } = quote;
  if (!vault || !isEvmAddress(vault) || vault.toLowerCase() !== source.address.toLowerCase())
    throw new Error(`THORNode quoted inbound address ${vault}, not ${chain.id}'s ${source.address}`);
  if (!router || !isEvmAddress(router) || router.toLowerCase() !== source.router?.toLowerCase())
    throw new Error(`THORNode quoted router ${router}, not ${chain.id}'s ${source.router}`);
  return { spender: checksumEvmAddress(router), vault: checksumEvmAddress(vault) };
}

function isEvmAddress(text: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(text);
}

/** THORNode's affiliate parameters: names and bps separated by `/`, as in the memo. */
function affiliateQuery(affiliates: ThorchainAffiliate[]): { affiliate?: string; affiliate_bps?: string } {
  if (affiliates.length === 0) return {};
  return {
    affiliate: affiliates.map((affiliate) => affiliate.name).join('/'),
    affiliate_bps: affiliates.map((affiliate) => affiliate.bps).join('/'),
  };
}

/** The chain's entry of inbound_addresses, or no route when it has none or it does not trade now. */
function tradingInbound(inbound: ThornodeInboundAddress[], chain: string): ThornodeInboundAddress {
  const entry = inbound.find((item) => item.chain.toUpperCase() === chain);
  if (!entry) throw new NoRouteError('PAIR_NOT_SUPPORTED', `THORChain: no inbound address for ${chain}`);
  const stopped = (['halted', 'global_trading_paused', 'chain_trading_paused'] as const).filter(
    (flag) => entry[flag],
  );
  if (stopped.length > 0)
    throw new NoRouteError(
      'PAIR_NOT_SUPPORTED',
      `THORChain: trading on ${chain} is stopped (${stopped.join(', ')})`,
    );
  return entry;
}

function amountTooLow(token: QuoteToken, least1e8: bigint, why: string): NoRouteError {
  const minAmount = fromThorchainUnits(least1e8, token.decimals);
  return new NoRouteError('AMOUNT_TOO_LOW', `THORChain: the amount of ${token.symbol} is ${why}`, {
    token,
    ...(minAmount > 0n ? { minAmount } : {}),
  });
}

/** THORNode's total_swap_seconds, else the inbound confirmations and outbound delay it names. */
function durationOf(quote: ThornodeQuoteSwap): number {
  return (
    quote.total_swap_seconds ??
    (quote.inbound_confirmation_seconds ?? 0) +
      (quote.outbound_delay_seconds ?? 0) +
      (quote.streaming_swap_seconds ?? 0)
  );
}

function tokenRef(token: QuoteToken): RouteLeg['tokenIn'] {
  return { chain: token.chain, symbol: token.symbol, address: token.address, decimals: token.decimals };
}
