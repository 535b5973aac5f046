import { Clock, timeOrderedUuid } from '@swapgw/runtime';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  amountLooksLikeBaseUnits,
  baseUnitsToAmount,
  ChainDescriptor,
  ChainRegistry,
  checkTermsChain,
  checkTermsRecipient,
  permitLegProblem,
  sameTokenError,
  validateAddressForChain,
} from '@swapgw/chains';
import {
  CodedError,
  CreateQuoteRequest,
  ErrorCodes,
  QuoteResult,
  QuoteRouteSummary,
  RouteGasCoverage,
  RouteIssue,
  UnavailableRoute,
  RouteLeg,
  RoutePermitInfo,
  RoutePlan,
  RoutePreflightRequest,
  RoutePreflightResult,
  RouteSignature,
} from '@swapgw/contracts';
import {
  CandidateRoute,
  IntegratorFeeCharge,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  RouteWarnings,
} from '../providers/quote-provider';
import { applySlippage, toBaseUnits } from './amounts';
import {
  IntegratorFee,
  integratorFeeOf,
  planIntegratorFeesOf,
  requestedIntegratorFee,
  routeFeeOf,
  routeIntegratorFeeOf,
} from './integrator-fee';
import { compoundedSlippageBps, routeMinAmountOut } from './slippage';
import { ChainFeeOracle, ChainFeeQuote, chainsOfLegs, feeQuoteDebug, gasCoverageOf } from './gas-coverage';
import { signaturesOf } from './signature-expectations';
import { GatheredRoutes, gatherRoutes } from './provider-orchestrator';
import { rankRoutes } from './route-ranking';
import { TokenResolver } from './token-resolver';
import { assetKeyOf } from '../catalog/token-sources';
import { QuoteRepository } from './quote.repository';
import { TrendingCounter } from './trending-counter';
import { RoutePreflight } from './route-preflight';
import { blocksRead } from '@swapgw/chains/families';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { QUOTE_PROVIDERS } from '../providers/providers.module';

/**
 * POST /quote: validates and resolves the request, asks the providers, ranks their routes best
 * output first, prices the gas the service covers on every route (read from the chains' nodes
 * while the providers are asked), stores the quote with every route's executable plan in one
 * transaction, and answers the plans with the quote (the gateway sends the chosen one in the build
 * command).
 */
@Injectable()
export class QuoteService {
  private readonly logger = new Logger(QuoteService.name);

  constructor(
    private readonly storedQuotes: QuoteRepository,
    private readonly registry: ChainRegistry,
    private readonly tokens: TokenResolver,
    @Inject(QUOTE_PROVIDERS) private readonly providers: QuoteProvider[],
    private readonly trending: TrendingCounter,
    private readonly fees: ChainFeeOracle,
    private readonly config: QuoteServiceConfig,
    /** The checks of each route against the request's userAddress (none without it). */
    private readonly routePreflight: RoutePreflight,
    private readonly clock: Clock,
  ) {}

  async create(request: CreateQuoteRequest): Promise<QuoteResult> {
    const fromChain = this.chainOf(request.fromChain, 'fromChain', request.network);
    const toChain = this.chainOf(request.toChain, 'toChain', request.network);
    const tokenIn = await this.tokens.resolve(
      fromChain,
      request.tokenIn,
      request.tokenRefFromOverride,
      'tokenIn',
    );
    const tokenOut = await this.tokens.resolve(
      toChain,
      request.tokenOut,
      request.tokenRefToOverride,
      'tokenOut',
    );
    if (fromChain.id === toChain.id && assetKeyOf(tokenIn) === assetKeyOf(tokenOut)) {
      throw sameTokenError(tokenIn.symbol, fromChain.id);
    }
    const amountIn = toBaseUnits(request.amount, tokenIn.decimals);
    if (request.recipient !== undefined) checkTermsRecipient(request.recipient, toChain);
    if (request.userAddress !== undefined) checkUserAddress(request.userAddress, fromChain);
    // The integrator's fee comes out of the input: the providers quote what is left (integrator-fee.ts).
    const fee = integratorFeeOf(
      requestedIntegratorFee(request.integratorFee, request.defaultIntegratorFee, fromChain, amountIn),
      amountIn,
      fromChain,
    );
    // Without the request's slippage, each swap leg computes its own (quote/slippage.ts).
    const slippageBps = request.slippageBps;

    const context: QuoteContext = {
      fromChain,
      toChain,
      tokenIn,
      tokenOut,
      amountIn: fee.netAmountIn,
      slippageBps,
      recipient: request.recipient,
      // An aggregator that takes the fee in its own transaction (0x, LI.FI, Jupiter) is asked the
      // gross amount with it, and reports the fee it takes (CandidateRoute integratorFee).
      ...(fee.charges.length > 0 ? { integratorFee: { grossAmountIn: amountIn, charges: fee.charges } } : {}),
    };
    // The gas prices of both ends are read while the providers answer (cached 10 s; never rejects).
    const feeReads = new Map<string, Promise<ChainFeeQuote>>(
      [fromChain, toChain].map((chain) => [chain.id, this.fees.ratesOf(chain)]),
    );
    const gathered = await gatherRoutes(this.providers, context, this.config.QUOTE_PROVIDER_TIMEOUT_MS);
    const failures = gathered.outcomes.filter((o) => o.status === 'failed' || o.status === 'timed-out');
    if (gathered.asked > 0 && failures.length === gathered.asked) {
      this.logger.warn({ msg: 'every quote provider failed', outcomes: gathered.outcomes });
      throw new CodedError(ErrorCodes.QUOTE_UPSTREAM_FAILED, 'Every quote provider failed or timed out', {
        providers: gathered.outcomes,
      });
    }

    const now = this.clock.nowMs();
    const quoteId = `qt_${timeOrderedUuid(now)}`;
    const expiresAtMs = now + this.config.QUOTE_TTL_MS;
    const ranked = rankRoutes(gathered.routes.map((route) => ({ ...route, stepCount: route.legs.length })));
    const permits = ranked.map((route) =>
      permitInfoOf(
        this.registry,
        route.legs[0],
        routeChargesOf(fee, route).reduce((sum, charge) => sum + charge.amount, 0n),
      ),
    );
    // The preflight reads the chains while the fee figures are awaited (bounded; never rejects).
    const [feeRates, issues] = await Promise.all([
      this.feeRatesOf(
        ranked.flatMap((route) => chainsOfLegs(route.legs)),
        feeReads,
      ),
      this.preflightOf(request, ranked, permits, fee),
    ]);
    const looksLikeBaseUnits = amountLooksLikeBaseUnits(request.amount, tokenIn.decimals);
    const stored = ranked.map((route, index) => {
      const routeId = `rt_${timeOrderedUuid(now)}`;
      return {
        rank: index + 1,
        summary: summaryOf(
          routeId,
          route,
          context,
          amountIn,
          fee,
          looksLikeBaseUnits,
          permits[index],
          gasCoverageOf(
            this.registry,
            route.legs,
            feeRates,
            routeChargesOf(fee, route).map((charge) => charge.recipient),
          ),
          signaturesOf(this.registry, route.legs),
          issues?.[index],
        ),
        plan: planOf(quoteId, routeId, expiresAtMs, context, amountIn, fee, route),
        debug: route.debug,
      };
    });

    await this.storedQuotes.insert({
      id: quoteId,
      owner: request.owner ?? null,
      fromChain: fromChain.id,
      toChain: toChain.id,
      tokenIn: tokenIn.symbol,
      tokenOut: tokenOut.symbol,
      amountIn: amountIn.toString(),
      slippageBps: slippageBps ?? null,
      recipient: request.recipient ?? null,
      request,
      providerOutcomes: gathered.outcomes,
      createdAtMs: now,
      expiresAtMs,
      routes: stored.map((route) => ({
        routeId: route.summary.routeId,
        rank: route.rank,
        summary: route.summary,
        plan: route.plan,
      })),
    });
    // The trending signal of GET /tokens?sort=trending, added to the catalog in batches.
    this.trending.count(fromChain.id, assetKeyOf(tokenIn));
    this.trending.count(toChain.id, assetKeyOf(tokenOut));

    const result: QuoteResult = {
      quoteId,
      expiresAtMs,
      routes: stored.map((r) => r.summary),
      routePlans: stored.map((r) => r.plan),
      unavailableRoutes: unavailableRoutesOf(gathered, fromChain.id, toChain.id),
    };
    if (request.debug) {
      result.debug = {
        amountIn: amountIn.toString(),
        ...(fee.charges.length > 0 ? { quotedAmountIn: fee.netAmountIn.toString() } : {}),
        tokenIn,
        tokenOut,
        slippageBps: slippageBps ?? 'auto',
        providers: gathered.outcomes,
        routes: stored.map((r) => ({ routeId: r.summary.routeId, ...r.debug })),
        gasFees: Object.fromEntries([...feeRates].map(([chain, rate]) => [chain, feeQuoteDebug(rate)])),
        // The block each EVM chain was read at: every figure of this quote is that block's.
        chainBlocks: blocksRead(),
      };
    }
    return result;
  }

  /**
   * `quote.preflight`: the issues of one plan (a build's) against the build's wallet, as a quote with
   * that userAddress and recipient would have them. The wallet must be of the plan's source chain.
   */
  async preflight(request: RoutePreflightRequest): Promise<RoutePreflightResult> {
    const { plan } = request;
    const fromChain = this.registry.find(plan.fromChain);
    if (!fromChain) {
      throw new CodedError(ErrorCodes.UNKNOWN_CHAIN, `Unknown chain ${plan.fromChain}`, {
        chain: plan.fromChain,
      });
    }
    checkUserAddress(request.userAddress, fromChain);
    const [issues] = await this.routePreflight.issuesOf(
      {
        userAddress: request.userAddress,
        recipient: request.recipient ?? plan.recipient,
        toChain: plan.toChain,
        userPaysGas: request.userPaysGas,
      },
      [
        {
          legs: plan.legs,
          integratorFees: (plan.integratorFees ?? []).map(({ recipient, amount }) => ({
            recipient,
            amount: BigInt(amount),
          })),
          permit: permitInfoOf(
            this.registry,
            plan.legs[0],
            (plan.integratorFees ?? []).reduce((sum, charge) => sum + BigInt(charge.amount), 0n),
          ),
        },
      ],
    );
    return { issues };
  }

  /** Each route's issues against the request's userAddress; undefined without one (nothing checked). */
  private async preflightOf(
    request: CreateQuoteRequest,
    routes: CandidateRoute[],
    permits: (RoutePermitInfo | undefined)[],
    fee: IntegratorFee,
  ): Promise<RouteIssue[][] | undefined> {
    if (request.userAddress === undefined) return undefined;
    return this.routePreflight.issuesOf(
      { userAddress: request.userAddress, recipient: request.recipient, toChain: request.toChain },
      routes.map((route, index) => ({
        legs: route.legs,
        permit: permits[index],
        integratorFees: routeChargesOf(fee, route).map(({ recipient, amount }) => ({ recipient, amount })),
      })),
    );
  }

  /**
   * The fee figures of every chain the routes touch: the reads started with the quote, or new ones
   * for another chain. Reads of chains no route touches are not waited for (they never reject).
   */
  private async feeRatesOf(
    chains: string[],
    started: Map<string, Promise<ChainFeeQuote>>,
  ): Promise<Map<string, ChainFeeQuote>> {
    const reads = [...new Set(chains)].flatMap((id) => {
      const chain = this.registry.find(id);
      const read = started.get(id) ?? (chain ? this.fees.ratesOf(chain) : undefined);
      return read ? [read.then((rate) => [id, rate] as const)] : [];
    });
    return new Map(await Promise.all(reads));
  }

  private chainOf(id: string, field: 'fromChain' | 'toChain', network: string | undefined): ChainDescriptor {
    return checkTermsChain(this.registry.find(id), id, field, network);
  }
}

/** The fees a route's first transaction pays: the amounts its aggregator reported, else the quote's. */
function routeChargesOf(fee: IntegratorFee, route: CandidateRoute): IntegratorFeeCharge[] {
  return route.integratorFee ?? fee.charges;
}

/**
 * What the wallet signs for a permit build of this route (POST /swap/build permitType eip2612 /
 * permit2), when the first leg can take one: the chain's permit router and Permit2, the token and
 * the amount (the leg's amountIn plus the integrator fees, which the router pays out of what it
 * pulls), and the token's EIP-712 domain when it implements EIP-2612.
 */
function permitInfoOf(
  registry: ChainRegistry,
  leg: RouteLeg | undefined,
  integratorFeeTotal: bigint,
): RoutePermitInfo | undefined {
  if (!leg || leg.tokenIn.address === null) return undefined;
  const contracts = registry.permitContracts(leg.chain);
  const evmChainId = registry.find(leg.chain)?.evmChainId;
  if (!contracts || evmChainId === undefined || permitLegProblem(leg, contracts) !== null) return undefined;
  const token = leg.tokenIn.address;
  const eip2612 = registry.tokenPermitOf(leg.chain, token);
  return {
    chain: leg.chain,
    chainId: evmChainId,
    token,
    amountBaseUnits: (BigInt(leg.amountIn) + integratorFeeTotal).toString(),
    spender: contracts.permitRouter,
    permit2: contracts.permit2,
    ...(eip2612 ? { eip2612 } : {}),
  };
}

function summaryOf(
  routeId: string,
  route: CandidateRoute & { stepCount: number },
  context: QuoteContext,
  amountIn: bigint,
  fee: IntegratorFee,
  amountLooksLikeBase: boolean,
  permit: RoutePermitInfo | undefined,
  gasCoverage: RouteGasCoverage,
  signatures: RouteSignature[],
  issues: RouteIssue[] | undefined,
): QuoteRouteSummary {
  const distinct = [...new Set(route.providers)];
  const crossChain = context.fromChain.id !== context.toChain.id;
  const slippageBps = routeSlippageBps(route, context);
  const minAmountOut =
    route.legs.length > 0
      ? routeMinAmountOut(route.legs)
      : applySlippage(route.expectedAmountOut, slippageBps);
  const warnings = amountLooksLikeBase
    ? [...route.warnings, RouteWarnings.amountLooksLikeBaseUnits]
    : route.warnings;
  const routeFee = routeFeeOf(fee, amountIn, route.integratorFee);
  const summary: Omit<QuoteRouteSummary, 'gasCoverage' | 'signatures' | 'integratorFee'> = {
    routeId,
    providers: route.providers,
    family: crossChain ? 'cross-chain' : 'same-chain',
    stepCount: route.stepCount,
    amountIn: baseUnitsToAmount(amountIn, context.tokenIn.decimals),
    expectedAmountOut: baseUnitsToAmount(route.expectedAmountOut, context.tokenOut.decimals),
    minAmountOut: baseUnitsToAmount(minAmountOut, context.tokenOut.decimals),
    slippageBps,
    slippageSource: context.slippageBps === undefined ? 'auto' : 'request',
    tokenInDecimals: context.tokenIn.decimals,
    tokenOutDecimals: context.tokenOut.decimals,
    estimatedDurationSeconds: route.estimatedDurationSeconds,
    warnings,
  };
  // The taxes of selling tokenIn (first leg) and buying tokenOut (last leg), where measured.
  const sellTaxBps = route.legs[0]?.sellTaxBps;
  const buyTaxBps = route.legs.at(-1)?.buyTaxBps;
  if (buyTaxBps !== undefined) summary.buyTaxBps = buyTaxBps;
  if (sellTaxBps !== undefined) summary.sellTaxBps = sellTaxBps;
  // The convenience alias only when one provider label covers the whole route.
  if (distinct.length === 1) summary.provider = distinct[0];
  if (route.bridgeProvider) summary.bridgeProvider = route.bridgeProvider;
  if (permit) summary.permit = permit;
  return {
    ...summary,
    gasCoverage,
    signatures,
    integratorFee: routeIntegratorFeeOf(routeFee, context.tokenIn),
    ...(issues ? { issues } : {}),
  };
}

function planOf(
  quoteId: string,
  routeId: string,
  expiresAtMs: number,
  context: QuoteContext,
  amountIn: bigint,
  fee: IntegratorFee,
  route: CandidateRoute,
): RoutePlan {
  const plan: RoutePlan = {
    quoteId,
    routeId,
    expiresAtMs,
    fromChain: context.fromChain.id,
    toChain: context.toChain.id,
    tokenIn: tokenRefOf(context.tokenIn),
    tokenOut: tokenRefOf(context.tokenOut),
    amountIn: amountIn.toString(),
    expectedAmountOut: route.expectedAmountOut.toString(),
    slippageBps: routeSlippageBps(route, context),
    providers: route.providers,
    legs: route.legs,
  };
  if (context.recipient) plan.recipient = context.recipient;
  if (route.bridgeProvider) plan.bridgeProvider = route.bridgeProvider;
  const routeFee = routeFeeOf(fee, amountIn, route.integratorFee);
  if (routeFee.charges.length > 0)
    plan.integratorFees = planIntegratorFeesOf(
      routeFee,
      tokenRefOf(context.tokenIn),
      route.integratorFee ? 'aggregator' : 'gateway',
    );
  return plan;
}

/**
 * The route's slippage: its legs' compounded (a leg without its own figure took the request's; a
 * bridge paying a fixed amount takes none), at most the 5000 bps a plan accepts.
 */
function routeSlippageBps(route: CandidateRoute, context: QuoteContext): number {
  const legs = route.legs.map((leg) => leg.slippageBps ?? context.slippageBps ?? 0);
  return Math.min(5000, compoundedSlippageBps(legs.length > 0 ? legs : [context.slippageBps ?? 0]));
}

/**
 * Every provider asked that gives no route, with its reason. When no provider covers the two chains
 * at all, every provider says PAIR_NOT_SUPPORTED: the quote is never silent about an empty answer.
 */
function unavailableRoutesOf(
  gathered: GatheredRoutes,
  fromChain: string,
  toChain: string,
): UnavailableRoute[] {
  const asked = gathered.outcomes.flatMap((outcome) => (outcome.unavailable ? [outcome.unavailable] : []));
  if (gathered.asked > 0) return asked;
  return gathered.notApplicable.map((provider) => ({
    provider,
    reason: 'PAIR_NOT_SUPPORTED',
    details: { message: `${provider} does not serve ${fromChain} → ${toChain}` },
  }));
}

/** The wallet that signs the first leg: an address of the source chain's family (INVALID_ADDRESS). */
function checkUserAddress(userAddress: string, chain: ChainDescriptor): void {
  const check = validateAddressForChain(chain, userAddress);
  if (!check.ok)
    throw new CodedError(ErrorCodes.INVALID_ADDRESS, `userAddress ${check.reason}`, {
      field: 'userAddress',
      chain: chain.id,
    });
}

/** Plans carry one address field: the EVM address, the Solana mint, or null for the native coin. */
function tokenRefOf(token: QuoteToken) {
  return {
    chain: token.chain,
    symbol: token.symbol,
    address: token.address ?? token.mint ?? null,
    decimals: token.decimals,
  };
}
