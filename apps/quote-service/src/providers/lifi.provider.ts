import type { ChainDescriptor } from '@swapgw/chains';
import type { RouteCall, RouteLeg } from '@swapgw/contracts';
import { ProviderNames } from './provider-names';
import { amountNetOfFees, reportedFeeMatches } from '../quote/integrator-fee';
import { askAtAggregatorSlippage } from '../quote/slippage';
import { NoRouteError, NoRouteReason } from './no-route.error';
import {
  CandidateRoute,
  IntegratorFeeCharge,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  RouteWarnings,
  RouteWarningThresholds,
} from './quote-provider';

export interface LifiOptions {
  /** Base URL, e.g. https://li.quest (the path /v1/quote is appended). */
  baseUrl: string;
  apiKey?: string;
  /** Sender used when the request has no recipient on the source chain's family. */
  quoteFromAddressEvm: string;
  quoteFromAddressSolana: string;
  /**
   * The operator's LI.FI `integrator` string and the EVM fee wallet registered for it: LI.FI pays
   * the integrator fee to that wallet only. Without them LI.FI gives no route to a quote with a fee.
   */
  integrator?: string;
  feeWalletEvm?: string;
}

/** LI.FI's id of Solana mainnet, and the addresses it uses for native coins. */
export const LIFI_SOLANA_CHAIN_ID = '1151111081099710';
export const LIFI_EVM_NATIVE = '0x0000000000000000000000000000000000000000';
export const LIFI_SOLANA_NATIVE = '11111111111111111111111111111111';

/** LI.FI error codes (docs: API error codes) that mean "no route", not "upstream broken", and why. */
const NO_ROUTE_CODES = new Map<number, NoRouteReason>([
  [1002, 'NO_LIQUIDITY'], // NoQuoteError
  [1003, 'PAIR_NOT_SUPPORTED'], // NotFoundError
  [1004, 'NO_LIQUIDITY'], // NotProcessableError
  [1007, 'SLIPPAGE_TOO_LOW'], // SlippageError
  [1011, 'PAIR_NOT_SUPPORTED'], // ValidationError
]);

interface LifiToken {
  address: string;
  symbol: string;
  decimals: number;
  chainId: number;
}

/** One of estimate.feeCosts: a fee of the step, `included` when it comes out of the amounts. */
interface LifiFeeCost {
  name?: string;
  amount?: string;
  amountUSD?: string;
  included?: boolean;
  token?: { address?: string };
}

interface LifiStep {
  type: string;
  tool: string;
  estimate?: { executionDuration?: number };
}

/** The part of LI.FI's GET /v1/quote answer (a LiFiStep) that a route needs. */
interface LifiQuote {
  id: string;
  type: string;
  tool: string;
  action: {
    fromChainId: number;
    toChainId: number;
    fromToken: LifiToken;
    toToken: LifiToken;
    fromAmount: string;
  };
  estimate: {
    tool: string;
    fromAmount: string;
    toAmount: string;
    toAmountMin: string;
    approvalAddress: string;
    executionDuration: number;
    fromAmountUSD?: string;
    toAmountUSD?: string;
    feeCosts?: LifiFeeCost[];
  };
  includedSteps?: LifiStep[];
  transactionRequest?: { to?: string; data?: string; value?: string; chainId?: number };
}

/** Routes from the LI.FI aggregator (GET /v1/quote): real networks, same-chain and cross-chain. */
export class LifiProvider implements QuoteProvider {
  readonly name = ProviderNames.lifi;

  constructor(
    private readonly options: LifiOptions,
    private readonly thresholds: RouteWarningThresholds,
  ) {}

  applies(context: QuoteContext): boolean {
    return (
      !context.fromChain.devnet &&
      !context.toChain.devnet &&
      lifiChainId(context.fromChain) !== undefined &&
      lifiChainId(context.toChain) !== undefined
    );
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const fromChain = lifiChainId(context.fromChain);
    const toChain = lifiChainId(context.toChain);
    if (!fromChain || !toChain) return [];
    this.checkFeeCanBeTaken(context);
    const fromAddress = this.senderFor(context);
    // A call built for the placeholder sender would spend and pay as that address: price only.
    const wallet = fromAddress === context.recipient ? fromAddress : undefined;
    const { answer, slippageBps } = await askAtAggregatorSlippage(
      context.slippageBps,
      (slippage) => this.request(context, fromAddress, slippage, signal),
      lifiPriceImpactBps,
    );
    return [this.toRoute(context, answer, wallet, slippageBps)];
  }

  /** GET /v1/quote with the given slippage (and the integrator fee when the request has one). */
  private async request(
    context: QuoteContext,
    fromAddress: string,
    slippageBps: number,
    signal: AbortSignal,
  ): Promise<LifiQuote> {
    const url = new URL(
      '/v1/quote',
      this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`,
    );
    const params: Record<string, string> = {
      fromChain: lifiChainId(context.fromChain) as string,
      toChain: lifiChainId(context.toChain) as string,
      fromToken: lifiToken(context.fromChain, context.tokenIn),
      toToken: lifiToken(context.toChain, context.tokenOut),
      fromAmount: lifiFromAmount(context).toString(),
      fromAddress,
      // LI.FI takes slippage as a fraction (0.005 = 0.5%).
      slippage: (slippageBps / 10_000).toString(),
    };
    const [fee] = context.integratorFee?.charges ?? [];
    if (fee && this.options.integrator) {
      // `fee` is a fraction of the input (0.003 = 0.3%), taken by LI.FI's contract for `integrator`.
      params.integrator = this.options.integrator;
      params.fee = (fee.bps / 10_000).toString();
    }
    if (context.recipient) params.toAddress = context.recipient;
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);

    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['x-lifi-api-key'] = this.options.apiKey;
    const response = await fetch(url, { headers, signal });
    const text = await response.text();
    const body = parseJson(text);
    if (!response.ok) {
      const code = typeof body?.code === 'number' ? body.code : undefined;
      const message = typeof body?.message === 'string' ? body.message : text.slice(0, 200);
      const reason =
        response.status < 500 && response.status !== 429 && code !== undefined
          ? NO_ROUTE_CODES.get(code)
          : undefined;
      if (reason || response.status === 404)
        throw new NoRouteError(reason ?? 'NO_LIQUIDITY', `LI.FI: ${message}${code ? ` (code ${code})` : ''}`);
      throw new Error(`LI.FI answered HTTP ${response.status}${code ? ` code ${code}` : ''}: ${message}`);
    }
    return asLifiQuote(body);
  }

  /**
   * LI.FI pays one integrator fee, to the wallet registered for the operator's `integrator` string:
   * a request with several recipients, or one that is not that wallet, or a source chain that is
   * not EVM, gets no LI.FI route (INTEGRATOR_FEE_NOT_SUPPORTED) rather than a fee paid elsewhere.
   */
  private checkFeeCanBeTaken(context: QuoteContext): void {
    const charges = context.integratorFee?.charges ?? [];
    if (charges.length === 0) return;
    const wallet = this.options.feeWalletEvm;
    const problem =
      !this.options.integrator || !wallet
        ? 'no LI.FI integrator account is configured'
        : context.fromChain.family !== 'evm'
          ? `the fee on ${context.fromChain.id} is not paid to a configured LI.FI fee wallet`
          : charges.length > 1
            ? 'LI.FI takes one integrator fee, not several'
            : charges[0].recipient.toLowerCase() !== wallet.toLowerCase()
              ? `LI.FI pays the fee only to the operator's registered wallet ${wallet}`
              : null;
    if (problem) throw new NoRouteError('INTEGRATOR_FEE_NOT_SUPPORTED', `LI.FI: ${problem}`);
  }

  private senderFor(context: QuoteContext): string {
    const recipient = context.recipient;
    const recipientFitsSource =
      recipient !== undefined &&
      (context.fromChain.family === 'evm'
        ? /^0x[0-9a-fA-F]{40}$/.test(recipient)
        : !recipient.startsWith('0x'));
    if (recipient !== undefined && recipientFitsSource && context.fromChain.family === context.toChain.family)
      return recipient;
    return context.fromChain.family === 'solana'
      ? this.options.quoteFromAddressSolana
      : this.options.quoteFromAddressEvm;
  }

  /** `wallet`: the request's own wallet the transaction was built for; without one the route is a price only. */
  private toRoute(
    context: QuoteContext,
    quote: LifiQuote,
    wallet: string | undefined,
    slippageBps: number,
  ): CandidateRoute {
    const integratorFee = lifiReportedFee(quote, context);
    const crossChain = context.fromChain.id !== context.toChain.id;
    const steps = quote.includedSteps ?? [];
    const bridgeTool = steps.find((s) => s.type === 'cross')?.tool ?? (crossChain ? quote.tool : undefined);
    const expected = BigInt(quote.estimate.toAmount);
    const call = wallet === undefined ? undefined : toCall(quote.transactionRequest, wallet);
    const leg: RouteLeg = {
      kind: crossChain ? 'bridge' : 'swap',
      chain: context.fromChain.id,
      provider: this.name,
      tokenIn: stripMint(context.tokenIn),
      tokenOut: stripMint(context.tokenOut),
      // What is swapped: fromAmount less the fee LI.FI's transaction pays out of it first.
      amountIn: amountNetOfFees(lifiFromAmount(context), integratorFee).toString(),
      expectedAmountOut: expected.toString(),
      minAmountOut: BigInt(quote.estimate.toAmountMin).toString(),
      slippageBps,
      spender: quote.estimate.approvalAddress,
      estimatedDurationSeconds: Math.max(0, Math.round(quote.estimate.executionDuration)),
    };
    if (crossChain) leg.destinationChain = context.toChain.id;
    if (call) leg.call = call;

    const warnings: string[] = [];
    const impactBps = lifiPriceImpactBps(quote);
    if (impactBps !== undefined && impactBps > this.thresholds.priceImpactBps)
      warnings.push(RouteWarnings.highPriceImpact);
    return {
      providers: [this.name],
      bridgeProvider: bridgeTool,
      legs: [leg],
      expectedAmountOut: expected,
      estimatedDurationSeconds: leg.estimatedDurationSeconds,
      warnings,
      ...(integratorFee ? { integratorFee } : {}),
      debug: {
        lifiQuoteId: quote.id,
        tool: quote.tool,
        includedSteps: steps.map((s) => `${s.type}:${s.tool}`),
        usdImpactBps: impactBps,
      },
    };
  }
}

function lifiChainId(chain: ChainDescriptor): string | undefined {
  if (chain.family === 'evm') return chain.evmChainId?.toString();
  if (chain.family === 'solana' && chain.network === 'mainnet') return LIFI_SOLANA_CHAIN_ID;
  return undefined;
}

function lifiToken(chain: ChainDescriptor, token: QuoteToken): string {
  if (chain.family === 'solana') return token.mint ?? LIFI_SOLANA_NATIVE;
  return token.address ?? LIFI_EVM_NATIVE;
}

function stripMint(token: QuoteToken) {
  return {
    chain: token.chain,
    symbol: token.symbol,
    address: token.address ?? token.mint ?? null,
    decimals: token.decimals,
  };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Checks the fields we rely on; an answer without them is an upstream failure, not a route. */
function asLifiQuote(body: Record<string, unknown> | undefined): LifiQuote {
  const quote = body as Partial<LifiQuote> | undefined;
  const estimate = quote?.estimate;
  const integer = (v: unknown) => typeof v === 'string' && /^[0-9]+$/.test(v);
  if (
    !quote ||
    typeof quote.tool !== 'string' ||
    !estimate ||
    !integer(estimate.toAmount) ||
    !integer(estimate.toAmountMin) ||
    typeof estimate.approvalAddress !== 'string' ||
    typeof estimate.executionDuration !== 'number'
  ) {
    throw new Error(
      'LI.FI answered a quote without estimate.toAmount, toAmountMin, approvalAddress or executionDuration',
    );
  }
  return quote as LifiQuote;
}

/** transactionRequest values come as hex ("0x0") or decimal; the plan carries decimal wei. */
function toCall(request: LifiQuote['transactionRequest'], from: string): RouteCall | undefined {
  if (!request?.to || typeof request.data !== 'string') return undefined;
  const raw = request.value ?? '0';
  let value: bigint;
  try {
    value = BigInt(raw);
  } catch {
    return undefined;
  }
  return { to: request.to, data: request.data, value: value.toString(), from };
}

/** What LI.FI is asked to send: the whole input when it takes the integrator fee, else the net input. */
function lifiFromAmount(context: QuoteContext): bigint {
  return context.integratorFee?.grossAmountIn ?? context.amountIn;
}

/**
 * The price impact LI.FI's answer shows: 1 − toAmountUSD / (fromAmountUSD − the USD of the fees
 * included in the amounts: LI.FI's, the integrator's, a bridge's), so that fees known in advance are
 * not read as the market moving. USD values are LI.FI's estimates: they set a warning and the
 * automatic slippage, never an amount. Undefined when LI.FI gives no USD figures.
 */
export function lifiPriceImpactBps(quote: Pick<LifiQuote, 'estimate'>): number | undefined {
  const from = Number(quote.estimate.fromAmountUSD);
  const to = Number(quote.estimate.toAmountUSD);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from <= 0) return undefined;
  const includedFeesUsd = (quote.estimate.feeCosts ?? [])
    .filter((cost) => cost.included === true)
    .reduce((sum, cost) => sum + (Number.isFinite(Number(cost.amountUSD)) ? Number(cost.amountUSD) : 0), 0);
  const traded = from - includedFeesUsd;
  if (traded <= 0) return undefined;
  return Math.max(0, Math.round((1 - to / traded) * 10_000));
}

/**
 * The integrator fee LI.FI's transaction takes, as its answer reports it: the feeCosts entry named
 * for the integrator, in the input token, of the amount asked (±1 base unit). An answer without it
 * is no route (INTEGRATOR_FEE_NOT_SUPPORTED): the quote would state a fee nobody is paid.
 */
function lifiReportedFee(quote: LifiQuote, context: QuoteContext): IntegratorFeeCharge[] | undefined {
  const [asked] = context.integratorFee?.charges ?? [];
  if (!asked) return undefined;
  const entry = (quote.estimate.feeCosts ?? []).find((cost) => /integrator/i.test(cost.name ?? ''));
  const amount =
    typeof entry?.amount === 'string' && /^[0-9]+$/.test(entry.amount) ? BigInt(entry.amount) : undefined;
  const fromToken = lifiToken(context.fromChain, context.tokenIn).toLowerCase();
  const problem = !entry
    ? 'its answer has no integrator fee in feeCosts'
    : entry.token?.address?.toLowerCase() !== fromToken
      ? `its integrator fee is in ${entry.token?.address ?? 'no token'}, not the input token`
      : amount === undefined || !reportedFeeMatches(asked, amount)
        ? `its integrator fee is ${entry.amount}, not ${asked.amount}`
        : entry.included !== true
          ? 'its integrator fee is not included in the amounts'
          : null;
  if (problem || amount === undefined)
    throw new NoRouteError(
      'INTEGRATOR_FEE_NOT_SUPPORTED',
      `LI.FI: the quote does not carry the integrator fee asked (${problem})`,
    );
  return [{ ...asked, amount }];
}
