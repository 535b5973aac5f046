import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CodedError,
  ErrorCodes,
  RoutePlan,
  SwapBuildRequest,
  SwapBuildResult,
  SwapCreatedEvent,
  SwapEventTypes,
  SwapFailedEvent,
  signingStepOf,
} from '@swapgw/contracts';
import { ChainFamily, THORCHAIN_PROVIDER } from '@swapgw/chains';
import { stepSpecFamilyOf } from '@swapgw/chains/families';
import type { EventClaim, OutboxMessage } from '@swapgw/messaging';
import { Clock } from '@swapgw/runtime';
import { SWAP_CHAINS, SwapChains } from '../chains/swap-chains';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { balanceKey, balancesToRead } from '../planning/bridged-balances';
import { firstLegPermitOf } from '../planning/first-leg-permit';
import { integratorFeeTransfersOf } from '../planning/integrator-fees';
import { planSteps } from '../planning/step-plan';
import { priceCheckOf } from '../planning/step-price-checks';
import { walletsOf } from '../planning/swap-wallets';
import { SwapEntity } from './swap.entity';
import { isSameSwapRequest, swapRequestFingerprint } from './swap-request-fingerprint';
import { StepSettlement, SwapStepEntity } from './swap-step.entity';
import { prepareCommandOf, stepIdOf, swapEvent } from './swap-messages';
import { DuplicateSwapError, SwapRepository, SwapTransaction } from './swap.repository';

/**
 * Codes that are the infrastructure failing rather than a verdict on the build: a command that
 * meets one is tried again (redelivered), never recorded as a failed swap.
 */
const NOT_A_VERDICT: ReadonlySet<string> = new Set([
  ErrorCodes.PERSISTENCE_UNAVAILABLE,
  ErrorCodes.MESSAGING_UNAVAILABLE,
  ErrorCodes.SERVICE_UNAVAILABLE,
  ErrorCodes.INTERNAL_ERROR,
]);

/**
 * A route the step planner cannot turn into steps (a leg shape this version does not build, a
 * chain without swaps): planSteps reads nothing, so it would throw the same on every redelivery. The
 * build gets a verdict, INTERNAL_ERROR (quote-service offered a route the planner cannot build: a
 * bug, logged), rather than being retried, parked on the dead-letter topic and its swap left with none.
 */
class UnplannableRouteError extends CodedError {
  constructor(plan: SwapBuildRequest['plan'], cause: unknown) {
    super(ErrorCodes.INTERNAL_ERROR, `Route ${plan.routeId} of quote ${plan.quoteId} cannot be planned`, {
      reason: cause instanceof Error ? cause.message : String(cause),
    });
  }
}

/** A refusal the build answers with (a failed swap), not a failure to retry. */
function isVerdict(error: unknown): error is CodedError {
  return (
    error instanceof UnplannableRouteError || (error instanceof CodedError && !NOT_A_VERDICT.has(error.code))
  );
}

/**
 * `swap.build`: turns a quoted route (its plan travels in the request) into a swap with its signing
 * steps and asks signer-surface to prepare step 1. The swap, its steps and the outgoing messages are
 * written in one transaction, so a crash leaves either nothing or a swap whose first command will
 * be published.
 */
@Injectable()
export class SwapPlanner {
  private readonly logger = new Logger(SwapPlanner.name);

  constructor(
    private readonly swaps: SwapRepository,
    @Inject(SWAP_CHAINS) private readonly chains: SwapChains,
    private readonly config: ExecutionPlannerConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * A build command from swap.commands, inside the consumer's transaction: the swap, or, when the
   * build is refused, a failed swap carrying the refusal's code, message and details, which the
   * gateway answers as a synchronous build would have. A replay of a built swap changes nothing.
   */
  async buildCommand(request: SwapBuildRequest, tx: SwapTransaction): Promise<void> {
    try {
      await this.build(request, tx);
    } catch (error) {
      if (!isVerdict(error)) throw error;
      if (error.code === ErrorCodes.IDEMPOTENCY_CONFLICT) {
        // The swap stands as first built; the gateway's idempotency layer refuses such a request before it gets here.
        this.logger.warn({
          msg: 'build command conflicts with the existing swap; ignored',
          swapId: request.swapId,
        });
        return;
      }
      await this.recordRefused(tx, request, error);
    }
  }

  /**
   * The build command's fast path (the consumer's `applyAtOnce`): plans the swap before any
   * transaction, so that its chain reads hold no database connection, then writes the swap (or the
   * refused build's failed swap), its steps, the command's claim and its messages in one
   * autocommitted statement: one round trip, no transaction. False, having written nothing, when
   * the transactional path (`buildCommand`) must decide: the swap exists (a replay, or a gateway's
   * retry) or the command was applied already.
   */
  async buildAtOnce(request: SwapBuildRequest, claim: EventClaim): Promise<boolean> {
    let outcome: BuildOutcome;
    try {
      const { swap, stepRows } = await this.plan(request);
      outcome = {
        swap,
        steps: stepRows,
        messages: this.messagesOfCreated(swap, stepRows),
        logWritten: () => this.logCreated(swap, stepRows),
      };
    } catch (error) {
      if (!isVerdict(error)) throw error;
      outcome = this.refusedOutcome(request, error);
    }
    const written = await this.swaps.insertNewSwap(outcome.swap, outcome.steps, claim, outcome.messages);
    if (written) outcome.logWritten();
    return written;
  }

  /**
   * Builds the swap. With `tx` (a command's transaction) the writes join it, and a racing
   * duplicate fails that transaction (it is redelivered and then finds the swap); without, they get
   * a transaction of their own and the race is answered here.
   */
  async build(request: SwapBuildRequest, tx?: SwapTransaction): Promise<SwapBuildResult> {
    const existing = await (tx ?? this.swaps).findSwap(request.swapId);
    if (existing) return replayed(existing, request);
    const { swap, stepRows } = await this.plan(request);

    if (tx) {
      await this.insert(tx, swap, stepRows);
      this.logCreated(swap, stepRows);
      return { swapId: swap.id, status: swap.status, stepCount: swap.stepCount, created: true };
    }
    try {
      await this.swaps.transaction((transaction) => this.insert(transaction, swap, stepRows));
    } catch (error) {
      // Two deliveries of the same build raced (a gateway retry): the first one's swap stands.
      if (!(error instanceof DuplicateSwapError)) throw error;
      const winner = await this.swaps.findSwap(request.swapId);
      if (!winner)
        throw new Error(`Swap ${request.swapId} was inserted concurrently but cannot be read`, {
          cause: error,
        });
      return replayed(winner, request);
    }
    this.logCreated(swap, stepRows);
    return { swapId: swap.id, status: swap.status, stepCount: swap.stepCount, created: true };
  }

  /**
   * The swap a build request asks for, with its steps, from the plan it carries and the chains'
   * state (balances, a Permit2 allowance): no database. Throws the refusal's CodedError.
   */
  private async plan(request: SwapBuildRequest): Promise<PlannedSwap> {
    const nowMs = this.clock.nowMs();
    const plan = request.plan;
    if (plan.quoteId !== request.quoteId || plan.routeId !== request.routeId) {
      throw new CodedError(
        ErrorCodes.UNKNOWN_ROUTE,
        `The plan sent is not route ${request.routeId} of quote ${request.quoteId}`,
        {
          quoteId: request.quoteId,
          routeId: request.routeId,
        },
      );
    }
    // Judged when the build was accepted: a command that waited in Kafka is not refused for the wait.
    if (plan.expiresAtMs <= (request.acceptedAtMs ?? nowMs)) {
      throw new CodedError(ErrorCodes.QUOTE_EXPIRED, 'The quote expired; request a new quote and retry', {
        quoteId: plan.quoteId,
        expiresAtMs: plan.expiresAtMs,
      });
    }
    this.assertSigningSurfaces(plan);
    const familyOf = (chain: string) => this.chains.familyOf(chain);
    const permitContractsOf = (chain: string) => this.chains.permitContractsOf(chain);
    const integratorFees = integratorFeeTransfersOf(plan, { familyOf, permitContractsOf });
    // Addresses are checked against the route before any chain is read.
    const wallets = walletsOf(plan, request, familyOf, (chain) => this.chains.addressChainOf(chain));
    // The permit too is checked before any chain is read.
    const permit = firstLegPermitOf(plan, request, { nowMs, familyOf, permitContractsOf });
    const balancesBefore = await this.readBalancesBefore(plan, wallets.walletOn);
    const permit2Allowance =
      permit?.kind === 'permit2'
        ? await this.readPermit2Allowance(
            plan.legs[0].chain,
            permit.token,
            request.userAddress,
            permit.permit2,
          )
        : undefined;
    let steps: ReturnType<typeof planSteps>;
    try {
      steps = planSteps(plan, request, {
        nowMs,
        swapDeadlineSeconds: this.config.SWAP_DEADLINE_SECONDS,
        evmChainIdOf: (chain) => this.chains.evmChainIdOf(chain),
        familyOf,
        balancesBefore,
        permitContractsOf,
        tokenPermitOf: (chain, token) => this.chains.tokenPermitOf(chain, token),
        descriptorOf: (chain) => this.chains.descriptorOf(chain),
        integratorFees,
        permit2Allowance,
      });
    } catch (error) {
      if (error instanceof CodedError) throw error;
      this.logger.error(
        {
          msg: 'route cannot be planned',
          swapId: request.swapId,
          quoteId: plan.quoteId,
          routeId: plan.routeId,
          error: (error as Error).message,
        },
        error instanceof Error ? error.stack : undefined,
      );
      throw new UnplannableRouteError(plan, error);
    }

    const swap = swapOf(request, swapRequestFingerprint(request), {
      status: 'planning',
      stepCount: steps.length,
      failureReason: null,
      failureDetails: null,
      createdAtMs: nowMs,
      updatedAtMs: nowMs,
      expiresAtMs: nowMs + this.config.SWAP_DEADLINE_SECONDS * 1000,
    });
    const stepRows = steps.map((step) =>
      Object.assign(new SwapStepEntity(), {
        id: stepIdOf(swap.id, step.index),
        swapId: swap.id,
        stepIndex: step.index,
        legIndex: step.legIndex,
        kind: step.kind,
        chain: step.chain,
        signer: step.signer,
        spec: signingStepOf(step),
        priceCheck: priceCheckOf(plan, steps, step),
        settlement: step.nobleForwarding
          ? 'forwarding'
          : settlementOf(plan.legs[step.legIndex], step.kind, (chain) => this.chains.familyOf(chain)),
        packet: null,
        thorchain: null,
        status: step.index === 1 ? 'building' : 'pending',
        signingRequestId: null,
        payloadExpiresAtMs: null,
        txHash: null,
        failureReason: null,
        updatedAtMs: nowMs,
      } satisfies Omit<SwapStepEntity, 'swap'>),
    );

    return { swap, stepRows };
  }

  private logCreated(swap: SwapEntity, steps: ReadonlyArray<{ kind: string; chain: string }>): void {
    this.logger.log({
      msg: 'swap created',
      swapId: swap.id,
      quoteId: swap.quoteId,
      routeId: swap.routeId,
      steps: steps.map((s) => `${s.kind}@${s.chain}`),
    });
  }

  /** A refused build as a failed swap with no steps: swap.created then swap.failed with the refusal. */
  private async recordRefused(
    tx: SwapTransaction,
    request: SwapBuildRequest,
    refusal: CodedError,
  ): Promise<void> {
    const refused = this.refusedOutcome(request, refusal);
    await tx.insertSwap(refused.swap, refused.steps);
    await tx.enqueue(...refused.messages);
    refused.logWritten();
  }

  /** A refused build as a failed swap with no steps, and its messages: swap.created then swap.failed with the refusal. */
  private refusedOutcome(request: SwapBuildRequest, refusal: CodedError): BuildOutcome {
    const nowMs = this.clock.nowMs();
    const details = { ...(refusal.details ?? {}), message: refusal.message };
    const swap = swapOf(request, swapRequestFingerprint(request), {
      status: 'failed',
      stepCount: 0,
      failureReason: refusal.code,
      failureDetails: details,
      createdAtMs: nowMs,
      updatedAtMs: nowMs,
      expiresAtMs: nowMs,
    });
    const failed: SwapFailedEvent = { swapId: swap.id, status: 'failed', reason: refusal.code, details };
    return {
      swap,
      steps: [],
      messages: [
        swapEvent(swap.id, SwapEventTypes.created, createdEventOf(swap)),
        swapEvent(swap.id, SwapEventTypes.failed, failed),
      ],
      logWritten: () =>
        this.logger.log({
          msg: 'swap build refused',
          swapId: swap.id,
          reason: refusal.code,
          message: refusal.message,
        }),
    };
  }

  private async insert(tx: SwapTransaction, swap: SwapEntity, steps: SwapStepEntity[]): Promise<void> {
    await tx.insertSwap(swap, steps);
    await tx.enqueue(...this.messagesOfCreated(swap, steps));
  }

  /** What a created swap publishes: swap.created and step 1's signing.prepare. */
  private messagesOfCreated(swap: SwapEntity, steps: SwapStepEntity[]): OutboxMessage[] {
    return [
      swapEvent(swap.id, SwapEventTypes.created, createdEventOf(swap)),
      prepareCommandOf(swap, steps[0]),
    ];
  }

  /** Every chain the route touches needs a signing surface: no placeholder payloads, ever. */
  private assertSigningSurfaces(plan: RoutePlan): void {
    const missing = [...new Set(plan.legs.map((leg) => leg.chain))].filter(
      (chain) => !this.chains.hasSigningSurface(chain),
    );
    if (missing.length > 0) {
      throw new CodedError(
        ErrorCodes.SIGNING_SURFACE_UNAVAILABLE,
        `No signing surface is configured for ${missing.join(', ')}`,
        {
          chains: missing,
        },
      );
    }
  }

  private async readPermit2Allowance(
    chain: string,
    token: string,
    owner: string,
    permit2: string,
  ): Promise<bigint> {
    try {
      return await this.chains.allowanceOf(chain, token, owner, permit2);
    } catch (error) {
      this.logger.warn({ msg: 'Permit2 allowance read failed', chain, error: (error as Error).message });
      throw new CodedError(ErrorCodes.SIGNING_SURFACE_UNAVAILABLE, `The ${chain} RPC did not answer`, {
        chains: [chain],
      });
    }
  }

  private async readBalancesBefore(
    plan: RoutePlan,
    holderOn: (chain: string) => string,
  ): Promise<Map<string, bigint>> {
    const reads = balancesToRead(plan, holderOn, (chain) => this.chains.familyOf(chain));
    try {
      const balances = await Promise.all(reads.map((r) => this.chains.balanceOf(r.chain, r.token, r.holder)));
      return new Map(reads.map((r, i) => [balanceKey(r.chain, r.token), balances[i]]));
    } catch (error) {
      this.logger.warn({ msg: 'destination balance read failed', error: (error as Error).message });
      throw new CodedError(
        ErrorCodes.SIGNING_SURFACE_UNAVAILABLE,
        'The destination chain RPC did not answer',
        {
          chains: reads.map((r) => r.chain),
        },
      );
    }
  }
}

/** A planned swap: its row and its steps' rows, ready to insert. */
interface PlannedSwap {
  swap: SwapEntity;
  stepRows: SwapStepEntity[];
}

/** What a build command writes: the swap (built, or failed with its refusal), its steps and its messages. */
interface BuildOutcome {
  swap: SwapEntity;
  steps: SwapStepEntity[];
  messages: OutboxMessage[];
  /** Logs the outcome, once written. */
  logWritten(): void;
}

type SwapOutcome = Pick<
  SwapEntity,
  'status' | 'stepCount' | 'failureReason' | 'failureDetails' | 'createdAtMs' | 'updatedAtMs' | 'expiresAtMs'
>;

/** The swap row of a build request at step 1; the outcome (built or refused) fills in the rest. */
function swapOf(request: SwapBuildRequest, requestFingerprint: string, outcome: SwapOutcome): SwapEntity {
  return Object.assign(new SwapEntity(), {
    id: request.swapId,
    owner: request.owner,
    quoteId: request.quoteId,
    routeId: request.routeId,
    userAddress: request.userAddress,
    recipient: request.recipient ?? null,
    fromChain: request.plan.fromChain,
    toChain: request.plan.toChain,
    currentStep: 1,
    requestFingerprint,
    ...outcome,
  } satisfies Omit<SwapEntity, 'steps'>);
}

function createdEventOf(swap: SwapEntity): SwapCreatedEvent {
  return {
    swapId: swap.id,
    status: swap.status,
    owner: swap.owner,
    quoteId: swap.quoteId,
    routeId: swap.routeId,
    fromChain: swap.fromChain,
    toChain: swap.toChain,
    userAddress: swap.userAddress,
    stepCount: swap.stepCount,
    createdAtMs: swap.createdAtMs,
  };
}

/** A retried build (same swapId) answers the existing swap; a different request on it is a conflict. */
function replayed(existing: SwapEntity, request: SwapBuildRequest): SwapBuildResult {
  if (existing.owner !== request.owner || !isSameSwapRequest(existing.requestFingerprint, request)) {
    throw new CodedError(ErrorCodes.IDEMPOTENCY_CONFLICT, 'This swap was built from a different request', {
      swapId: existing.id,
    });
  }
  return { swapId: existing.id, status: existing.status, stepCount: existing.stepCount, created: false };
}

/**
 * The deposit of a `thorchain` leg is settled by THORChain: done when its tx/status says the
 * outbound went out, not when the deposit confirms. Other legs' steps are settled as the family of
 * their chain says (its step builder's settlementOf: a Cosmos `ibc` transfer by its packet's
 * acknowledgement, a Noble burn towards Solana by the mint there, an EVM, Solana or Bitcoin deposit
 * into the devnet bridge towards Noble by Noble's mint). An approve before a leg's own step is an
 * ordinary step: its confirmation settles it.
 */
function settlementOf(
  leg: { provider: string; chain: string; destinationChain?: string } | undefined,
  kind: string,
  familyOf: (chain: string) => ChainFamily,
): StepSettlement | null {
  if (leg === undefined || kind === 'approve') return null;
  if (leg.provider === THORCHAIN_PROVIDER) return 'thorchain';
  return stepSpecFamilyOf(familyOf(leg.chain)).settlementOf?.(leg, familyOf) ?? null;
}
