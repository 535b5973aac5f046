import { Injectable, Logger } from '@nestjs/common';
import {
  CodedError,
  ErrorCatalog,
  ErrorCodes,
  isTerminalSwapStatus,
  RouteIssue,
  RoutePlan,
  SigningRequestTypes,
  SigningSubmitRequest,
  SigningSubmitResult,
  SwapBuildRequest,
  SwapCommandTypes,
  SwapRequestTypes,
  SwapSigningRefreshRequest,
  SwapSigningRefreshResult,
  Topics,
} from '@swapgw/contracts';
import { CommandPublisher } from '@swapgw/messaging';
import { Clock } from '@swapgw/runtime';
import { ServiceClient } from '../messaging/service-client';
import type { HeldIdempotencyClaim } from '../idempotency';
import { planOfServedRoute, ServedQuotes, ServedRoute } from '../quote/served-quotes.repository';
import { BuildPriceChecker, PricedPlan } from './build-price-check';
import { BuildPreflight } from './build-preflight';
import { BuildSwapDto, WAIT_FOR_TX_REQUEST_MS } from './dto/build-swap.dto';
import { swapIdOf } from './swap-id';
import {
  decodeSwapCursor,
  encodeSwapCursor,
  quotedOf,
  resourceOf,
  SWAP_LIST_LIMIT,
  SwapResource,
} from './swap-resource';
import {
  asyncResponseOf,
  pendingResponseOf,
  isSignable,
  plainSigningAnswerOf,
  POLL_AFTER_MS,
  SigningAnswer,
  SubmittedSigningResponse,
  syncResponseOf,
} from './swap-responses';
import { SwapViewChanges } from './swap-view-changes';
import { SwapViewEntity } from './swap-view.entity';
import { SwapViewRepository } from './swap-view.repository';

export interface SwapPage {
  swaps: SwapResource[];
  nextCursor: string | null;
}

export type { SigningAnswer } from './swap-responses';

/** The gateway side of swap execution: build, signing polls and signed-artifact submission. */
@Injectable()
export class SwapService {
  private readonly logger = new Logger(SwapService.name);

  constructor(
    private readonly services: ServiceClient,
    private readonly views: SwapViewRepository,
    private readonly changes: SwapViewChanges,
    private readonly quotes: ServedQuotes,
    private readonly commands: CommandPublisher,
    private readonly prices: BuildPriceChecker,
    private readonly preflights: BuildPreflight,
    private readonly clock: Clock,
  ) {}

  /**
   * Judges the build from the quotes this gateway served (unknown quote 404, unknown route 400,
   * expired 410), prices the route's first leg again (409 QUOTE_PRICE_CHANGED when it moved beyond
   * the quote's slippage and the client did not accept the new price; see BuildPriceChecker), hands the planner a durable `swap.build` command with the route's plan, then
   * waits (bounded by waitForTxRequestMs) for the first payload to be projected: 200 sync when it
   * is, 202 async when the wait runs out. A busy planner makes the answer a 202, never a refusal:
   * only Kafka or PostgreSQL failing to take the command is a 503. The planner's own verdicts
   * (no signing surface, a permit that cannot be used, a transaction that cannot be signed) come
   * back through the read model: within the wait as the error a build answers, after it on
   * GET /swap/{swapId}/signing.
   *
   * `held`, the claim on the Idempotency-Key (POST /swap/build's), saves round trips to PostgreSQL:
   * the served route came with the claim, and a build that waits for nothing completes the claim in
   * the statement that creates its swap's row (issue 44: a zero-wait build is two statements).
   */
  async build(
    owner: string,
    idempotencyKey: string,
    dto: BuildSwapDto,
    held?: HeldIdempotencyClaim,
  ): Promise<SigningAnswer> {
    const swapId = swapIdOf(owner, idempotencyKey);
    // The build's time, for its decisions (the quote's expiry, acceptedAtMs); `started` times its waits.
    const acceptedAtMs = this.clock.nowMs();
    const started = Date.now();
    const quoted =
      held?.readWithClaim !== undefined
        ? planOfServedRoute(held.readWithClaim as ServedRoute | null, dto.quoteId, dto.routeId, acceptedAtMs)
        : await this.quotes.planFor(owner, dto.quoteId, dto.routeId, acceptedAtMs);
    const { plan, priceCheck } = await this.pricedPlan(swapId, owner, quoted, dto.acceptedMinAmountOut);
    const priced = <T extends object>(body: T): T => (priceCheck ? { ...body, priceCheck } : body);
    // The route's preflight against this wallet runs while the planner builds (never refuses).
    const preflight = this.preflights.start(plan, dto, started);
    const request: SwapBuildRequest = {
      swapId,
      owner,
      quoteId: dto.quoteId,
      routeId: dto.routeId,
      userAddress: dto.userAddress,
      userPublicKey: dto.userPublicKey,
      recipient: dto.recipient,
      permitType: dto.permitType,
      gasPayment: dto.gasPayment,
      permitDeadline: dto.permitDeadline,
      permitSignature: dto.permitSignature,
      permitSignatureCompact: dto.permitSignatureCompact,
      permit2: dto.permit2,
      plan,
      acceptedAtMs,
    };
    // Subscribed before the command goes out, so that a fast planner's payload is not missed.
    const watch = this.changes.watch(swapId);
    try {
      await this.commands.send(Topics.swapCommands, SwapCommandTypes.build, swapId, request);
      // A build that waits for nothing answers this once its row is created: the claim on its key
      // is completed with it in the same statement.
      const answeredAtOnce: SigningAnswer | undefined =
        dto.waitForTxRequestMs === 0
          ? { httpStatus: 202, body: priced(asyncResponseOf(swapId, 'planning')) }
          : undefined;
      // The row a poll right after a 202 finds; never overwrites what the projector already wrote.
      // When this wrote it, it is `planning` and there is nothing to read until it changes.
      const created = await this.views.ensureCreated(
        swapId,
        owner,
        'planning',
        null,
        this.clock.nowMs(),
        undefined,
        quotedOf(plan),
        answeredAtOnce && held?.completionWith(answeredAtOnce.httpStatus, answeredAtOnce.body),
      );
      if (created && answeredAtOnce) return answeredAtOnce;

      const deadline = started + (dto.waitForTxRequestMs ?? WAIT_FOR_TX_REQUEST_MS.default);
      const withIssues = async <T extends object>(body: T): Promise<T & { issues?: RouteIssue[] }> => {
        const issues = await preflight(deadline);
        return issues ? { ...body, issues } : body;
      };
      let view = created ? null : await this.views.findOwned(swapId, owner);
      for (;;) {
        if (view && isSignable(view, this.clock.nowMs()))
          return { httpStatus: 200, body: priced(await withIssues(syncResponseOf(view))) };
        if (view && isSettledTerminal(view)) throw buildFailureOf(view);
        if ((await watch.next(deadline)) === 'over')
          return {
            httpStatus: 202,
            body: priced(
              await withIssues(
                view ? pendingResponseOf(view, this.clock.nowMs()) : asyncResponseOf(swapId, 'planning'),
              ),
            ),
          };
        view = await this.views.findOwned(swapId, owner);
      }
    } finally {
      watch.close();
    }
  }

  /**
   * The plan the build sends, its first leg priced again (BuildPriceChecker). A retry of a build
   * whose command already went out (a 503 after Kafka took it) is not refused for a price that
   * moved since: it reaches its swap as it is (the planner replays it whatever the plan), read only
   * on a refusal so that a build costs no extra read.
   */
  private async pricedPlan(
    swapId: string,
    owner: string,
    quoted: RoutePlan,
    acceptedMinAmountOut: string | undefined,
  ): Promise<PricedPlan> {
    try {
      return await this.prices.check(quoted, acceptedMinAmountOut);
    } catch (error) {
      const moved = error instanceof CodedError && error.code === ErrorCodes.QUOTE_PRICE_CHANGED;
      if (moved && (await this.views.findOwned(swapId, owner))) return { plan: quoted };
      throw error;
    }
  }

  /**
   * GET /swap/{swapId}/signing. With `waitMs`, a swap with nothing to sign yet is waited for as a
   * build waits (SwapViewWatch.next): the answer comes once there is a payload or a verdict, else
   * the 202 at the end of the wait, or at once when the instance starts shutting down.
   */
  async signing(owner: string, swapId: string, waitMs = 0): Promise<SigningAnswer> {
    const deadline = Date.now() + waitMs;
    const watch = waitMs > 0 ? this.changes.watch(swapId) : undefined;
    try {
      let refreshed: SigningAnswer | undefined;
      for (;;) {
        const view = await this.views.findOwned(swapId, owner);
        if (!view) throw new CodedError(ErrorCodes.SWAP_NOT_FOUND, 'No such swap', { swapId });
        // A build refused after its 202 answers what the build would have answered.
        if (wasRefusedAtBuild(view)) throw buildFailureOf(view);
        if (isTerminalSwapStatus(view.status)) throw terminalOf(view);
        // The same answer SigningPollEdge gives from the cached view, before Nest, for most polls.
        const answer =
          plainSigningAnswerOf(view, this.clock.nowMs()) ?? (refreshed ??= await this.refresh(owner, swapId));
        if (answer.httpStatus !== 202 || !watch) return answer;
        if ((await watch.next(deadline)) === 'over')
          return plainSigningAnswerOf(view, this.clock.nowMs()) ?? answer;
      }
    } finally {
      watch?.close();
    }
  }

  /** The payload expired unsigned: asks for a fresh one, once; a later poll finds it. */
  private async refresh(owner: string, swapId: string): Promise<SigningAnswer> {
    const refresh: SwapSigningRefreshRequest = { swapId, owner };
    const result = await this.services.call<SwapSigningRefreshResult>(
      Topics.swapRequests,
      SwapRequestTypes.refreshSigning,
      swapId,
      refresh,
    );
    this.logger.log({
      msg: 'expired signing payload refresh asked',
      swapId,
      refreshRequested: result.refreshRequested,
    });
    return { httpStatus: 202, body: asyncResponseOf(swapId, result.status) };
  }

  /** GET /swap/{swapId}: the swap as a resource, in any status (404 SWAP_NOT_FOUND for an unknown swap or another owner's). */
  async get(owner: string, swapId: string): Promise<SwapResource> {
    const view = await this.views.findOwned(swapId, owner);
    if (!view) throw new CodedError(ErrorCodes.SWAP_NOT_FOUND, 'No such swap', { swapId });
    return resourceOf(view);
  }

  /** GET /swaps: the owner's swaps, newest first, a page at a time (keyset on createdAtMs, swapId). */
  async list(owner: string, query: { status?: string; cursor?: string; limit?: number }): Promise<SwapPage> {
    const status = query.status ?? null;
    const limit = query.limit ?? SWAP_LIST_LIMIT.default;
    const after = query.cursor !== undefined ? decodeSwapCursor(query.cursor, status) : null;
    const rows = await this.views.listOwned(owner, status, after, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last
        ? encodeSwapCursor({ createdAtMs: last.createdAtMs, swapId: last.swapId, status })
        : null;
    return { swaps: page.map(resourceOf), nextCursor };
  }

  /**
   * POST /swap/{swapId}/signing: signer-surface verifies, broadcasts and answers. `txHash`: the
   * wallet sent the transaction itself; signer-surface reads it from the chain instead.
   */
  async submit(
    owner: string,
    swapId: string,
    submission: Pick<SigningSubmitRequest, 'rawTx' | 'txHash'>,
  ): Promise<SubmittedSigningResponse> {
    const view = await this.requireOwned(owner, swapId);
    const request: SigningSubmitRequest =
      submission.txHash !== undefined
        ? { swapId, txHash: submission.txHash }
        : { swapId, rawTx: submission.rawTx };
    const result = await this.services.call<SigningSubmitResult>(
      Topics.signingRequests,
      SigningRequestTypes.submit,
      swapId,
      request,
    );
    await this.views.markSubmitted(swapId, result.stepIndex, result.txHash, this.clock.nowMs());
    return {
      swapId,
      txHash: result.txHash,
      step: { current: result.stepIndex, total: view.stepTotal ?? result.stepIndex },
      status: 'submitted',
      nextAction: 'poll',
      pollAfterMs: POLL_AFTER_MS,
    };
  }

  private async requireOwned(owner: string, swapId: string): Promise<SwapViewEntity> {
    const view = await this.views.findOwned(swapId, owner);
    if (!view) throw new CodedError(ErrorCodes.SWAP_NOT_FOUND, 'No such swap', { swapId });
    if (isTerminalSwapStatus(view.status)) throw terminalOf(view);
    return view;
  }
}

function terminalOf(view: SwapViewEntity): CodedError {
  return new CodedError(ErrorCodes.EXECUTION_TERMINAL, `The swap is ${view.status}`, {
    status: view.status,
    reason: view.failureReason,
    ...(view.lastTxHash ? { lastTxHash: view.lastTxHash } : {}),
  });
}

/**
 * Terminal, with the reason known: a refused build's view may show `failed` from swap.created a
 * moment before swap.failed brings the reason.
 */
const isSettledTerminal = (view: SwapViewEntity): boolean =>
  isTerminalSwapStatus(view.status) && (view.status !== 'failed' || view.failureReason !== null);

/** Failed before any transaction of it was sent: a verdict on the build itself. */
const wasRefusedAtBuild = (view: SwapViewEntity): boolean =>
  view.status === 'failed' &&
  view.lastTxHash === null &&
  (view.stepCurrent ?? 1) === 1 &&
  isBuildVerdict(view.failureReason);

const isBuildVerdict = (reason: string | null): reason is keyof typeof ErrorCatalog =>
  reason !== null && reason in ErrorCatalog && reason !== ErrorCodes.INTERNAL_ERROR;

/**
 * A swap that ended before it got going: its reason when it is a catalog code a build answers
 * (400 a permit or address the route cannot take, 503 no signing surface, 409 the tx request
 * cannot be signed), with the planner's message and details; else EXECUTION_TERMINAL.
 */
function buildFailureOf(view: SwapViewEntity): CodedError {
  const reason = view.failureReason;
  if (!isBuildVerdict(reason)) return terminalOf(view);
  const details = view.failureDetails ?? {};
  const message =
    typeof details.message === 'string' ? details.message : `The swap could not be built: ${reason}`;
  return new CodedError(reason, message, { swapId: view.swapId, status: view.status, ...details });
}
