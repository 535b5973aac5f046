import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { RouteLeg, RouteSolanaTransaction, TokenRef } from '@swapgw/contracts';
import { ProviderNames } from './provider-names';
import { BPS_DENOMINATOR } from '../quote/amounts';
import { amountNetOfFees } from '../quote/integrator-fee';
import { askAtAggregatorSlippage } from '../quote/slippage';
import { NoRouteError, NoRouteReason } from './no-route.error';
import {
  CandidateRoute,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  RouteWarnings,
  RouteWarningThresholds,
} from './quote-provider';

export interface JupiterOptions {
  /** Base URL of the Swap API, e.g. https://lite-api.jup.ag/swap/v1 (/quote and /swap are appended). */
  baseUrl: string;
  /** Sent as x-api-key (api.jup.ag plans). */
  apiKey?: string;
  /** The registry chain the API prices: `solana` for Jupiter itself, another for a stand-in. */
  chain: string;
}

/** Jupiter routes native SOL as wrapped SOL and wraps / unwraps it in the swap transaction. */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112';
/** Jupiter Aggregator v6 program: what a Jupiter swap transaction invokes. */
export const JUPITER_PROGRAM_ID = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';
/** A Solana swap lands and confirms within seconds. */
const SOLANA_SWAP_SECONDS = 5;
const INTEGER = /^(0|[1-9][0-9]*)$/;

/** The part of GET /quote's answer (QuoteResponse) a route needs; the whole object is sent back to /swap. */
interface JupiterQuoteResponse {
  inputMint: string;
  inAmount: string;
  outputMint: string;
  outAmount: string;
  /** ExactIn: the least output accepted, slippage applied. */
  otherAmountThreshold: string;
  swapMode: string;
  slippageBps: number;
  /** Price impact as a fraction ("0.0123" = 1.23 %). */
  priceImpactPct: string;
  /** With platformFeeBps: the fee Jupiter charges (its `amount` is priced by Jupiter, not compared). */
  platformFee?: { amount: string; feeBps: number } | null;
  routePlan: {
    swapInfo: {
      ammKey: string;
      label?: string;
      inputMint: string;
      outputMint: string;
      inAmount: string;
      outAmount: string;
    };
    percent: number;
  }[];
  contextSlot?: number;
}

interface JupiterSwapResponse {
  swapTransaction: string;
  lastValidBlockHeight: number;
}

/** Jupiter's 400 error codes that say why there is no route; any other 400 reads as NO_LIQUIDITY. */
const JUPITER_NO_ROUTE_CODES = new Map<string, NoRouteReason>([
  ['COULD_NOT_FIND_ANY_ROUTE', 'NO_LIQUIDITY'],
  ['NO_ROUTES_FOUND', 'NO_LIQUIDITY'],
  ['ROUTE_PLAN_DOES_NOT_CONSUME_ALL_THE_AMOUNT', 'AMOUNT_TOO_HIGH'],
  ['TOKEN_NOT_TRADABLE', 'PAIR_NOT_SUPPORTED'],
  ['CIRCULAR_ARBITRAGE_IS_DISABLED', 'PAIR_NOT_SUPPORTED'],
]);

/**
 * Same-chain Solana swaps through Jupiter's Swap API: GET /quote prices the swap; when the quote
 * names a Solana recipient (the wallet that will sign), POST /swap builds its transaction, carried
 * in the leg for the signer. A 400 is Jupiter's "no route" (e.g. COULD_NOT_FIND_ANY_ROUTE,
 * TOKEN_NOT_TRADABLE): routes [], not a failure; any other error fails the provider.
 */
export class JupiterProvider implements QuoteProvider {
  readonly name = ProviderNames.jupiter;

  constructor(
    private readonly options: JupiterOptions,
    private readonly thresholds: RouteWarningThresholds,
  ) {}

  applies(context: QuoteContext): boolean {
    return (
      context.fromChain.id === this.options.chain &&
      context.toChain.id === this.options.chain &&
      context.fromChain.family === 'solana'
    );
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const inputMint = mintOf(context.tokenIn);
    const outputMint = mintOf(context.tokenOut);
    if (inputMint === outputMint)
      throw new NoRouteError('PAIR_NOT_SUPPORTED', 'Jupiter: SOL ↔ wSOL is a wrap, not a swap');
    const asked = platformFeeOf(context, inputMint);
    // With a fee Jupiter is asked for the whole input: its program takes the fee out of it.
    const amount = context.integratorFee?.grossAmountIn ?? context.amountIn;
    const ask = (slippage: number) =>
      this.fetchQuote(
        { inputMint, outputMint, amount, slippageBps: slippage, platformFeeBps: asked?.bps },
        signal,
      );
    const { answer: quote, slippageBps } = await askAtAggregatorSlippage(context.slippageBps, ask, (answer) =>
      fractionToBps(answer.priceImpactPct),
    );
    // The platform fee Jupiter's program takes: its feeBps of its inAmount (checkQuote: as asked).
    const fee = asked && {
      ...asked,
      amount: (BigInt(quote.inAmount) * BigInt(asked.bps)) / BPS_DENOMINATOR,
    };

    const chain = context.fromChain.id;
    const leg: RouteLeg = {
      kind: 'swap',
      chain,
      provider: this.name,
      tokenIn: tokenRef(chain, context.tokenIn),
      tokenOut: tokenRef(chain, context.tokenOut),
      // What is swapped: Jupiter's inAmount less the fee its program pays out of it first.
      amountIn: amountNetOfFees(BigInt(quote.inAmount), fee ? [fee] : []).toString(),
      expectedAmountOut: quote.outAmount,
      minAmountOut: quote.otherAmountThreshold,
      slippageBps,
      spender: JUPITER_PROGRAM_ID,
      estimatedDurationSeconds: SOLANA_SWAP_SECONDS,
    };
    if (context.recipient)
      leg.solanaTransaction = await this.swapTransaction(quote, context.recipient, fee, signal);

    const priceImpactBps = fractionToBps(quote.priceImpactPct);
    return [
      {
        providers: [this.name],
        legs: [leg],
        expectedAmountOut: BigInt(quote.outAmount),
        estimatedDurationSeconds: SOLANA_SWAP_SECONDS,
        warnings: priceImpactBps > this.thresholds.priceImpactBps ? [RouteWarnings.highPriceImpact] : [],
        ...(fee ? { integratorFee: [{ recipient: fee.recipient, bps: fee.bps, amount: fee.amount }] } : {}),
        debug: {
          priceImpactPct: quote.priceImpactPct,
          contextSlot: quote.contextSlot,
          hops: quote.routePlan.map((hop) => ({
            amm: hop.swapInfo.label ?? hop.swapInfo.ammKey,
            percent: hop.percent,
          })),
          transactionBuilt: Boolean(leg.solanaTransaction),
        },
      },
    ];
  }

  /** GET /quote (ExactIn) for the whole amount, checked against what was asked. */
  private async fetchQuote(
    terms: {
      inputMint: string;
      outputMint: string;
      amount: bigint;
      slippageBps: number;
      platformFeeBps?: number;
    },
    signal: AbortSignal,
  ): Promise<JupiterQuoteResponse> {
    const url = this.endpoint('quote');
    url.search = new URLSearchParams({
      inputMint: terms.inputMint,
      outputMint: terms.outputMint,
      amount: terms.amount.toString(),
      slippageBps: String(terms.slippageBps),
      swapMode: 'ExactIn',
      ...(terms.platformFeeBps !== undefined ? { platformFeeBps: String(terms.platformFeeBps) } : {}),
    }).toString();
    return checkQuote(
      await this.call<JupiterQuoteResponse>(url, { method: 'GET' }, signal),
      terms.inputMint,
      terms.outputMint,
      terms.amount,
      terms.platformFeeBps,
    );
  }

  /** POST /swap for `user`; the answer must be a versioned transaction paid by that user. */
  private async swapTransaction(
    quote: JupiterQuoteResponse,
    user: string,
    fee: JupiterPlatformFee | undefined,
    signal: AbortSignal,
  ): Promise<RouteSolanaTransaction> {
    const body = {
      quoteResponse: quote,
      userPublicKey: user,
      wrapAndUnwrapSol: true,
      dynamicComputeUnitLimit: true,
      ...(fee ? { feeAccount: fee.feeAccount } : {}),
    };
    const answer = await this.call<JupiterSwapResponse>(
      this.endpoint('swap'),
      { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      signal,
    );
    if (typeof answer?.swapTransaction !== 'string' || !Number.isInteger(answer.lastValidBlockHeight)) {
      throw new Error('Jupiter /swap answered without swapTransaction or lastValidBlockHeight');
    }
    let transaction: VersionedTransaction;
    try {
      transaction = VersionedTransaction.deserialize(Buffer.from(answer.swapTransaction, 'base64'));
    } catch (error) {
      throw new Error(
        `Jupiter /swap answered a swapTransaction that is not a serialized transaction: ${(error as Error).message}`,
        { cause: error },
      );
    }
    // The signer hands this message out as is: it must be the user's to pay and sign, nobody else's.
    const feePayer = transaction.message.staticAccountKeys[0];
    if (!feePayer?.equals(new PublicKey(user)) || transaction.message.header.numRequiredSignatures !== 1) {
      throw new Error(
        `Jupiter /swap built a transaction for ${feePayer?.toBase58()} with ${transaction.message.header.numRequiredSignatures} signers, not for ${user} alone`,
      );
    }
    return {
      serializedTransaction: answer.swapTransaction,
      signer: user,
      lastValidBlockHeight: answer.lastValidBlockHeight,
      ...(fee
        ? {
            integratorFee: {
              recipient: fee.recipient,
              feeAccount: fee.feeAccount,
              amount: fee.amount.toString(),
            },
          }
        : {}),
    };
  }

  private endpoint(path: 'quote' | 'swap'): URL {
    return new URL(
      path,
      this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`,
    );
  }

  private async call<T>(url: URL, init: RequestInit, signal: AbortSignal): Promise<T> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(init.headers as Record<string, string> | undefined),
    };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    const response = await fetch(url, { ...init, headers, signal });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (response.status === 400) {
      const error = body as { error?: string; errorCode?: string } | undefined;
      throw new NoRouteError(
        JUPITER_NO_ROUTE_CODES.get(error?.errorCode ?? '') ?? 'NO_LIQUIDITY',
        `Jupiter: ${error?.errorCode ?? 'HTTP 400'}${error?.error ? ` (${error.error})` : ''}`,
      );
    }
    if (!response.ok) throw new Error(`Jupiter ${url.pathname} answered HTTP ${response.status}`);
    if (body === undefined) throw new Error(`Jupiter ${url.pathname} answered a body that is not JSON`);
    return body as T;
  }
}

/** The route's integrator fee as Jupiter takes it: its platform fee, paid to `feeAccount`. */
interface JupiterPlatformFee {
  recipient: string;
  bps: number;
  /** Base units of the input: floor(whole input × bps / 10,000). */
  amount: bigint;
  /** The recipient's associated token account of the input mint (wrapped SOL for SOL). */
  feeAccount: string;
}

/**
 * Jupiter's platform fee for the quote's integrator fee, or undefined without one. Jupiter takes one
 * fee (`platformFeeBps` on /quote) to one token account (`feeAccount` on /swap); for ExactIn that
 * account may be of the input mint, which keeps the fee in the input token as on every other route.
 * Several recipients cannot be paid by one platform fee: Jupiter then has no route for the request.
 */
function platformFeeOf(context: QuoteContext, inputMint: string): JupiterPlatformFee | undefined {
  const fees = context.integratorFee?.charges ?? [];
  if (fees.length === 0) return undefined;
  if (fees.length > 1)
    throw new NoRouteError(
      'PAIR_NOT_SUPPORTED',
      'Jupiter pays one platform fee to one account: quote with a single integratorFee recipient',
    );
  const [{ recipient, bps, amount }] = fees;
  const feeAccount = getAssociatedTokenAddressSync(
    new PublicKey(inputMint),
    new PublicKey(recipient),
    true,
  ).toBase58();
  return { recipient, bps, amount, feeAccount };
}

function checkQuote(
  quote: JupiterQuoteResponse,
  inputMint: string,
  outputMint: string,
  amountIn: bigint,
  platformFeeBps?: number,
): JupiterQuoteResponse {
  const problems: string[] = [];
  if (platformFeeBps !== undefined && quote?.platformFee?.feeBps !== platformFeeBps)
    problems.push(`platformFee.feeBps is not the ${platformFeeBps} bps asked`);
  if (quote?.inputMint !== inputMint || quote?.outputMint !== outputMint)
    problems.push('mints differ from the request');
  if (!INTEGER.test(String(quote?.inAmount)) || BigInt(quote.inAmount) !== amountIn)
    problems.push('inAmount differs from the request');
  if (!INTEGER.test(String(quote?.outAmount)) || !INTEGER.test(String(quote?.otherAmountThreshold)))
    problems.push('amounts are not integers');
  else if (BigInt(quote.otherAmountThreshold) > BigInt(quote.outAmount))
    problems.push('otherAmountThreshold exceeds outAmount');
  if (!Array.isArray(quote?.routePlan)) problems.push('no routePlan');
  if (problems.length > 0) throw new Error(`Jupiter /quote answer rejected: ${problems.join('; ')}`);
  if (BigInt(quote.outAmount) === 0n)
    throw new NoRouteError('AMOUNT_TOO_LOW', 'Jupiter: the amount is too small to get any output');
  return quote;
}

function mintOf(token: QuoteToken): string {
  return token.mint ?? token.address ?? WRAPPED_SOL_MINT;
}

/** Plans carry the mint in `address` (null for native SOL). */
function tokenRef(chain: string, token: QuoteToken): TokenRef {
  return {
    chain,
    symbol: token.symbol,
    address: token.mint ?? token.address ?? null,
    decimals: token.decimals,
  };
}

/** "0.0123" → 123 basis points (truncated); anything unreadable counts as 0. */
export function fractionToBps(fraction: string | undefined): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(fraction ?? '').trim());
  if (!match) return 0;
  const digits = (match[2] ?? '').padEnd(4, '0').slice(0, 4);
  return Number(match[1]) * 10_000 + Number(digits);
}
