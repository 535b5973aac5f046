import type { ChainDescriptor } from '@swapgw/chains';
import type { RouteCall, RouteLeg } from '@swapgw/contracts';
import { ProviderNames } from '../catalog/support-policy';
import { aggregatorSlippageBps } from '../quote/slippage';
import { NoRouteError, NoRouteReason } from './no-route.error';
import {
  CandidateRoute,
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
    const url = new URL(
      '/v1/quote',
      this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`,
    );
    const fromChain = lifiChainId(context.fromChain);
    const toChain = lifiChainId(context.toChain);
    if (!fromChain || !toChain) return [];
    const fromAddress = this.senderFor(context);
    const params: Record<string, string> = {
      fromChain,
      toChain,
      fromToken: lifiToken(context.fromChain, context.tokenIn),
      toToken: lifiToken(context.toChain, context.tokenOut),
      fromAmount: context.amountIn.toString(),
      fromAddress,
      // LI.FI takes slippage as a fraction (0.005 = 0.5%).
      slippage: (aggregatorSlippageBps(context.slippageBps) / 10_000).toString(),
    };
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
    const quote = asLifiQuote(body);
    // A call built for the placeholder sender would spend and pay as that address: price only.
    const wallet = fromAddress === context.recipient ? fromAddress : undefined;
    return [this.toRoute(context, quote, wallet)];
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
  private toRoute(context: QuoteContext, quote: LifiQuote, wallet: string | undefined): CandidateRoute {
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
      amountIn: context.amountIn.toString(),
      expectedAmountOut: expected.toString(),
      minAmountOut: BigInt(quote.estimate.toAmountMin).toString(),
      slippageBps: aggregatorSlippageBps(context.slippageBps),
      spender: quote.estimate.approvalAddress,
      estimatedDurationSeconds: Math.max(0, Math.round(quote.estimate.executionDuration)),
    };
    if (crossChain) leg.destinationChain = context.toChain.id;
    if (call) leg.call = call;

    const warnings: string[] = [];
    const impactBps = usdImpactBps(quote.estimate.fromAmountUSD, quote.estimate.toAmountUSD);
    if (impactBps !== undefined && impactBps > this.thresholds.priceImpactBps)
      warnings.push(RouteWarnings.highPriceImpact);
    return {
      providers: [this.name],
      bridgeProvider: bridgeTool,
      legs: [leg],
      expectedAmountOut: expected,
      estimatedDurationSeconds: leg.estimatedDurationSeconds,
      warnings,
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

function usdImpactBps(fromUsd: string | undefined, toUsd: string | undefined): number | undefined {
  const from = Number(fromUsd);
  const to = Number(toUsd);
  // USD values are display estimates from LI.FI; used only for a warning, never for amounts.
  if (!Number.isFinite(from) || !Number.isFinite(to) || from <= 0) return undefined;
  return Math.max(0, Math.round((1 - to / from) * 10_000));
}
