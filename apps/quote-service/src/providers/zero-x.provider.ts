import type { RouteCall, RouteLeg, TokenRef } from '@swapgw/contracts';
import { ProviderNames } from './provider-names';
import { amountNetOfFees, reportedFeeMatches } from '../quote/integrator-fee';
import { aggregatorSlippageBps } from '../quote/slippage';
import { NoRouteError, NoRouteReason } from './no-route.error';
import {
  CandidateRoute,
  IntegratorFeeCharge,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
} from './quote-provider';
import { swapDurationSeconds } from './uniswap-v2.provider';

export interface ZeroXOptions {
  /** Base URL of the 0x API, e.g. https://api.0x.org (swap/allowance-holder/quote is appended). */
  baseUrl: string;
  /** Sent as `0x-api-key`: 0x answers no request without one. */
  apiKey: string;
  /** `taker` of quotes whose request names no recipient (the wallet is not known yet). */
  quoteTakerAddress: string;
}

/** How 0x names the chain's native coin (ETH) as sellToken or buyToken. */
export const ZEROX_NATIVE_TOKEN = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/**
 * Error names (0x API reference, getQuote (Allowance Holder): the 400 and 422 answers) that mean
 * "0x has no route for this request", not "0x is broken". INPUT_INVALID is counted here as LI.FI's
 * ValidationError is: an amount or a pair 0x refuses. Every other answer (401, 403, 429, 5xx,
 * USER_NOT_AUTHORIZED, ...) fails the provider.
 */
const NO_ROUTE_ERRORS = new Map<string, NoRouteReason>([
  ['INPUT_INVALID', 'PAIR_NOT_SUPPORTED'],
  ['TOKEN_NOT_SUPPORTED', 'PAIR_NOT_SUPPORTED'],
  ['SWAP_VALIDATION_FAILED', 'NO_LIQUIDITY'],
  ['BUY_TOKEN_NOT_AUTHORIZED_FOR_TRADE', 'PAIR_NOT_SUPPORTED'],
  ['SELL_TOKEN_NOT_AUTHORIZED_FOR_TRADE', 'PAIR_NOT_SUPPORTED'],
]);

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const INTEGER = /^(0|[1-9][0-9]*)$/;
const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;

interface ZeroXFee {
  amount: string;
  token: string;
  type: string;
}

/** The part of GET /swap/allowance-holder/quote's answer (liquidityAvailable: true) a route needs. */
export interface ZeroXQuote {
  liquidityAvailable: true;
  blockNumber?: string;
  buyToken: string;
  buyAmount: string;
  sellToken: string;
  sellAmount: string;
  minBuyAmount: string;
  /** The contract to approve; null when none is needed (native sellToken, wrap / unwrap). */
  allowanceTarget: string | null;
  issues: { allowance: { actual: string; spender: string } | null; simulationIncomplete?: boolean };
  transaction: { to: string; data: string; gas: string | null; gasPrice: string; value: string };
  route: { fills: { from: string; to: string; source: string; proportionBps: string }[] };
  /**
   * integratorFee: the (single) swapFeeRecipient's fee; integratorFees: one per recipient, in the
   * order of swapFeeRecipient (0x Multi-Fee Support), when several are asked.
   */
  fees: {
    integratorFee: ZeroXFee | null;
    integratorFees?: ZeroXFee[] | null;
    zeroExFee: ZeroXFee | null;
    gasFee: ZeroXFee | null;
  };
  totalNetworkFee: string | null;
  zid: string;
}

/** The error body of every non-2xx answer: `{ name, message, data: { zid, details? } }`. */
interface ZeroXErrorBody {
  name?: unknown;
  message?: unknown;
  data?: { zid?: unknown; details?: unknown };
}

/**
 * Same-chain swaps on the real EVM networks through the 0x Swap API v2 (AllowanceHolder): GET
 * /swap/allowance-holder/quote prices the swap and builds its transaction for `taker`. The taker is
 * the request's recipient (the wallet that signs and receives); without one the quote is made for
 * a placeholder taker, and the route is priced but carries no call, since 0x's transaction pays the
 * taker it was built for.
 */
export class ZeroXProvider implements QuoteProvider {
  readonly name = ProviderNames.zeroX;

  constructor(private readonly options: ZeroXOptions) {}

  applies(context: QuoteContext): boolean {
    return (
      context.fromChain.id === context.toChain.id &&
      context.fromChain.family === 'evm' &&
      !context.fromChain.devnet &&
      context.fromChain.evmChainId !== undefined
    );
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const chainId = context.fromChain.evmChainId;
    if (chainId === undefined) return [];
    const recipient = context.recipient !== undefined && EVM_ADDRESS.test(context.recipient);
    const taker = recipient ? (context.recipient as string) : this.options.quoteTakerAddress;
    const url = new URL(
      'swap/allowance-holder/quote',
      this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`,
    );
    url.search = new URLSearchParams({
      chainId: String(chainId),
      sellToken: zeroXToken(context.tokenIn),
      buyToken: zeroXToken(context.tokenOut),
      sellAmount: zeroXSellAmount(context).toString(),
      taker,
      slippageBps: String(aggregatorSlippageBps(context.slippageBps)),
      ...zeroXFeeParams(context),
    }).toString();
    const response = await fetch(url, {
      headers: { accept: 'application/json', '0x-api-key': this.options.apiKey, '0x-version': 'v2' },
      signal,
    });
    const text = await response.text();
    if (!response.ok) throw zeroXFailure(response.status, text, this.options.apiKey);
    return [zeroXRoute(context, parseJson(text), recipient ? taker : undefined)];
  }
}

/**
 * The route of a 0x quote answer: one swap leg whose call is 0x's transaction when the quote was
 * made for the wallet (`wallet`), the contract to approve as spender, buyAmount and minBuyAmount as
 * expected and least output. liquidityAvailable false is no route; an answer that does not match
 * the request or is missing what a leg needs fails the provider.
 */
export function zeroXRoute(context: QuoteContext, body: unknown, wallet?: string): CandidateRoute {
  const answer = body as { liquidityAvailable?: unknown; zid?: unknown } | undefined;
  if (answer?.liquidityAvailable === false) {
    throw new NoRouteError('NO_LIQUIDITY', `0x: no liquidity for this pair and amount${zidText(answer.zid)}`);
  }
  const quote = checkQuote(body as Partial<ZeroXQuote> | undefined, context);
  const integratorFee = zeroXReportedFee(quote, context);
  const chain = context.fromChain.id;
  const leg: RouteLeg = {
    kind: 'swap',
    chain,
    provider: ProviderNames.zeroX,
    tokenIn: tokenRef(chain, context.tokenIn),
    tokenOut: tokenRef(chain, context.tokenOut),
    // What is swapped: the sellAmount less the fees 0x's transaction pays out of it first.
    amountIn: amountNetOfFees(BigInt(quote.sellAmount), integratorFee).toString(),
    expectedAmountOut: quote.buyAmount,
    minAmountOut: quote.minBuyAmount,
    slippageBps: aggregatorSlippageBps(context.slippageBps),
    // What the wallet approves: AllowanceHolder, as 0x names it (issues.allowance.spender or
    // allowanceTarget). A native input needs no approval: the call's target is then named, for information.
    spender: quote.issues.allowance?.spender ?? quote.allowanceTarget ?? quote.transaction.to,
    estimatedDurationSeconds: swapDurationSeconds(false),
  };
  if (wallet !== undefined) leg.call = callOf(quote.transaction, wallet);
  return {
    providers: [ProviderNames.zeroX],
    legs: [leg],
    expectedAmountOut: BigInt(quote.buyAmount),
    estimatedDurationSeconds: leg.estimatedDurationSeconds,
    warnings: [],
    ...(integratorFee ? { integratorFee } : {}),
    debug: {
      zid: quote.zid,
      blockNumber: quote.blockNumber,
      fills: quote.route.fills.map((fill) => ({
        source: fill.source,
        proportionBps: Number(fill.proportionBps),
        from: fill.from,
        to: fill.to,
      })),
      fees: quote.fees,
      totalNetworkFee: quote.totalNetworkFee,
      gas: quote.transaction.gas,
      gasPrice: quote.transaction.gasPrice,
      simulationIncomplete: quote.issues.simulationIncomplete,
      transactionBuilt: leg.call !== undefined,
    },
  };
}

/**
 * A non-2xx answer as the error the orchestrator counts: NoRouteError for the names that mean no
 * route (400, 422), an Error naming status, name, message and zid otherwise. The API key never
 * appears in it, even if an upstream message were to echo it.
 */
export function zeroXFailure(status: number, text: string, apiKey: string): Error {
  const body = parseJson(text) as ZeroXErrorBody | undefined;
  const name = typeof body?.name === 'string' ? body.name : undefined;
  const message = typeof body?.message === 'string' ? body.message : text.slice(0, 200);
  const details = detailsText(body?.data?.details);
  const described = scrub(`${message}${details}${zidText(body?.data?.zid)}`, apiKey);
  const reason = status === 400 || status === 422 ? NO_ROUTE_ERRORS.get(name ?? '') : undefined;
  if (reason) return new NoRouteError(reason, `0x: ${name}: ${described}`);
  return new Error(`0x answered HTTP ${status}${name ? ` ${name}` : ''}: ${described}`);
}

function checkQuote(answer: Partial<ZeroXQuote> | undefined, context: QuoteContext): ZeroXQuote {
  const problems: string[] = [];
  const integer = (value: unknown): value is string => typeof value === 'string' && INTEGER.test(value);
  const sameAddress = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
  if (answer?.liquidityAvailable !== true) problems.push('liquidityAvailable is not true');
  if (!integer(answer?.buyAmount) || !integer(answer?.minBuyAmount))
    problems.push('buyAmount or minBuyAmount is not an integer');
  else if (BigInt(answer.minBuyAmount) > BigInt(answer.buyAmount))
    problems.push('minBuyAmount exceeds buyAmount');
  else if (BigInt(answer.buyAmount) === 0n) problems.push('buyAmount is 0');
  if (!integer(answer?.sellAmount) || BigInt(answer.sellAmount) !== zeroXSellAmount(context))
    problems.push('sellAmount differs from the request');
  if (
    !sameAddress(answer?.sellToken, zeroXToken(context.tokenIn)) ||
    !sameAddress(answer?.buyToken, zeroXToken(context.tokenOut))
  )
    problems.push('sellToken or buyToken differs from the request');
  const transaction = answer?.transaction;
  if (
    !transaction ||
    typeof transaction.to !== 'string' ||
    !EVM_ADDRESS.test(transaction.to) ||
    typeof transaction.data !== 'string' ||
    !HEX_DATA.test(transaction.data) ||
    !integer(transaction.value)
  ) {
    problems.push('transaction lacks to, data or value');
  } else {
    // The call spends what the leg says: the input as value when it is the native coin, no value otherwise.
    const value = BigInt(transaction.value);
    if (context.tokenIn.address === null ? value !== zeroXSellAmount(context) : value !== 0n)
      problems.push(`transaction.value ${transaction.value} does not fit the input`);
  }
  const spender = answer?.issues?.allowance?.spender ?? answer?.allowanceTarget;
  if (context.tokenIn.address !== null && (typeof spender !== 'string' || !EVM_ADDRESS.test(spender)))
    problems.push('neither issues.allowance.spender nor allowanceTarget names the contract to approve');
  if (!Array.isArray(answer?.route?.fills)) problems.push('route.fills is missing');
  if (typeof answer?.zid !== 'string') problems.push('zid is missing');
  if (problems.length > 0) throw new Error(`0x quote answer rejected: ${problems.join('; ')}`);
  return answer as ZeroXQuote;
}

/**
 * What 0x is asked to sell: the whole input when it takes the integrator fee itself (swapFeeToken =
 * sellToken, so the fee is a share of sellAmount), else the input net of the fee.
 */
function zeroXSellAmount(context: QuoteContext): bigint {
  return context.integratorFee?.grossAmountIn ?? context.amountIn;
}

/**
 * The integrator fee as 0x Swap API v2 takes it (Monetize your app; Multi-Fee Support):
 * swapFeeRecipient and swapFeeBps, comma-separated and matched by position, collected in
 * swapFeeToken, here the sellToken so that the fee is the same share of the input as on every
 * other route and its amount is known before the swap.
 */
function zeroXFeeParams(context: QuoteContext): Record<string, string> {
  const charges = context.integratorFee?.charges ?? [];
  if (charges.length === 0) return {};
  return {
    swapFeeRecipient: charges.map((charge) => charge.recipient).join(','),
    swapFeeBps: charges.map((charge) => String(charge.bps)).join(','),
    swapFeeToken: zeroXToken(context.tokenIn),
  };
}

/**
 * The fee 0x's transaction takes, as its answer reports it (fees.integratorFees, one per recipient;
 * fees.integratorFee for a single one), or undefined when none was asked. An answer without the
 * fee asked (missing, in another token, another amount) is no route: INTEGRATOR_FEE_NOT_SUPPORTED.
 */
function zeroXReportedFee(quote: ZeroXQuote, context: QuoteContext): IntegratorFeeCharge[] | undefined {
  const asked = context.integratorFee?.charges ?? [];
  if (asked.length === 0) return undefined;
  const reported =
    quote.fees?.integratorFees && quote.fees.integratorFees.length > 0
      ? quote.fees.integratorFees
      : quote.fees?.integratorFee
        ? [quote.fees.integratorFee]
        : [];
  const sellToken = zeroXToken(context.tokenIn).toLowerCase();
  const problems: string[] = [];
  if (reported.length !== asked.length)
    problems.push(`${reported.length} integrator fee(s) reported for ${asked.length} asked`);
  const charges = asked.map((charge, index) => {
    const fee = reported[index];
    const amount =
      typeof fee?.amount === 'string' && INTEGER.test(fee.amount) ? BigInt(fee.amount) : undefined;
    if (fee && typeof fee.token === 'string' && fee.token.toLowerCase() !== sellToken)
      problems.push(`the fee of ${charge.recipient} is in ${fee.token}, not the sellToken`);
    else if (fee && (amount === undefined || !reportedFeeMatches(charge, amount)))
      problems.push(`the fee of ${charge.recipient} is ${fee.amount}, not ${charge.amount}`);
    return { ...charge, amount: amount ?? charge.amount };
  });
  if (problems.length > 0)
    throw new NoRouteError(
      'INTEGRATOR_FEE_NOT_SUPPORTED',
      `0x: the quote does not carry the integrator fee asked (${problems.join('; ')})${zidText(quote.zid)}`,
    );
  return charges;
}

/** transaction.value is decimal wei; the plan carries it as is (gas and gasPrice stay 0x's estimate, in debug). */
function callOf(transaction: ZeroXQuote['transaction'], taker: string): RouteCall {
  return {
    to: transaction.to,
    data: transaction.data,
    value: BigInt(transaction.value).toString(),
    from: taker,
  };
}

function zeroXToken(token: QuoteToken): string {
  return token.address ?? ZEROX_NATIVE_TOKEN;
}

function tokenRef(chain: string, token: QuoteToken): TokenRef {
  return { chain, symbol: token.symbol, address: token.address, decimals: token.decimals };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** INPUT_INVALID's data.details: `[{ field, reason }]`. */
function detailsText(details: unknown): string {
  if (!Array.isArray(details) || details.length === 0) return '';
  const parts = details.map((detail: { field?: unknown; reason?: unknown }) =>
    [detail?.field, detail?.reason].filter((part) => typeof part === 'string').join(': '),
  );
  return ` (${parts.join('; ')})`;
}

function zidText(zid: unknown): string {
  return typeof zid === 'string' ? ` [zid ${zid}]` : '';
}

function scrub(text: string, secret: string): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
