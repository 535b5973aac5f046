import { Injectable, Logger } from '@nestjs/common';
import {
  CodedError,
  ErrorCatalog,
  ErrorCodes,
  isTerminalSwapStatus,
  SigningRequestTypes,
  SigningSubmitRequest,
  SigningSubmitResult,
  SwapBuildRequest,
  SwapBuildResult,
  SwapRequestTypes,
  SwapSigningRefreshRequest,
  SwapSigningRefreshResult,
  Topics,
} from '@swapgw/contracts';
import { ServiceClient } from '../messaging/service-client';
import { BuildSwapDto, WAIT_FOR_TX_REQUEST_MS } from './dto/build-swap.dto';
import { swapIdOf } from './swap-id';
import {
  asyncResponseOf,
  pendingResponseOf,
  AsyncSigningResponse,
  isSignable,
  POLL_AFTER_MS,
  SubmittedSigningResponse,
  syncResponseOf,
  SyncSigningResponse,
} from './swap-responses';
import { SwapViewEntity } from './swap-view.entity';
import { SwapViewStore } from './swap-view.store';

/** How often the build wait re-reads the read model (a short poll, not a sleep-and-hope). */
export const BUILD_POLL_INTERVAL_MS = 50;

export type SigningAnswer = { httpStatus: 200; body: SyncSigningResponse } | { httpStatus: 202; body: AsyncSigningResponse };

/** The gateway side of swap execution: build, signing polls and signed-artifact submission. */
@Injectable()
export class SwapService {
  private readonly logger = new Logger(SwapService.name);

  constructor(
    private readonly services: ServiceClient,
    private readonly views: SwapViewStore,
  ) {}

  /**
   * Asks the planner to build the swap, then waits (bounded by waitForTxRequestMs) for the first
   * payload to land in the read model: 200 sync when it does, 202 async when the wait runs out.
   */
  async build(owner: string, idempotencyKey: string, dto: BuildSwapDto): Promise<SigningAnswer> {
    const swapId = swapIdOf(owner, idempotencyKey);
    const request: SwapBuildRequest = {
      swapId,
      owner,
      quoteId: dto.quoteId,
      routeId: dto.routeId,
      userAddress: dto.userAddress,
      recipient: dto.recipient,
      permitType: dto.permitType,
      permitDeadline: dto.permitDeadline,
      permitSignature: dto.permitSignature,
      permitSignatureCompact: dto.permitSignatureCompact,
      permit2: dto.permit2,
    };
    const started = Date.now();
    const built = await this.services.call<SwapBuildResult>(Topics.swapRequests, SwapRequestTypes.build, swapId, request);
    await this.views.ensureCreated(swapId, owner, built.status, built.stepCount, Date.now());

    const waitMs = dto.waitForTxRequestMs ?? WAIT_FOR_TX_REQUEST_MS.default;
    const deadline = started + waitMs;
    for (;;) {
      const view = await this.views.findOwned(swapId, owner);
      if (view && isSignable(view, Date.now())) return { httpStatus: 200, body: syncResponseOf(view) };
      if (view && isTerminalSwapStatus(view.status)) throw buildFailureOf(view);
      if (Date.now() + BUILD_POLL_INTERVAL_MS > deadline) {
        return { httpStatus: 202, body: view ? pendingResponseOf(view) : asyncResponseOf(swapId, built.status) };
      }
      await pause(BUILD_POLL_INTERVAL_MS);
    }
  }

  /** GET /swap/{swapId}/signing. */
  async signing(owner: string, swapId: string): Promise<SigningAnswer> {
    const view = await this.requireOwned(owner, swapId);
    const now = Date.now();
    if (isSignable(view, now)) return { httpStatus: 200, body: syncResponseOf(view) };
    if (view.status === 'awaiting_signature' && view.payload !== null) {
      // The payload expired unsigned: ask for a fresh one; the next poll finds it.
      const refresh: SwapSigningRefreshRequest = { swapId, owner };
      const result = await this.services.call<SwapSigningRefreshResult>(Topics.swapRequests, SwapRequestTypes.refreshSigning, swapId, refresh);
      this.logger.log({ msg: 'expired signing payload refresh asked', swapId, refreshRequested: result.refreshRequested });
      return { httpStatus: 202, body: asyncResponseOf(swapId, result.status) };
    }
    return { httpStatus: 202, body: pendingResponseOf(view) };
  }

  /** POST /swap/{swapId}/signing: signer-surface verifies, broadcasts and answers. */
  async submit(owner: string, swapId: string, rawTx: string): Promise<SubmittedSigningResponse> {
    const view = await this.requireOwned(owner, swapId);
    const request: SigningSubmitRequest = { swapId, rawTx };
    const result = await this.services.call<SigningSubmitResult>(Topics.signingRequests, SigningRequestTypes.submit, swapId, request);
    await this.views.markSubmitted(swapId, result.stepIndex, result.txHash, Date.now());
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
 * A swap that ended during the build wait: its reason when it is a catalog code the spec maps for
 * build (503 no signing surface, 409 the tx request cannot be signed), else EXECUTION_TERMINAL.
 */
function buildFailureOf(view: SwapViewEntity): CodedError {
  const reason = view.failureReason;
  if (reason && reason in ErrorCatalog && reason !== ErrorCodes.INTERNAL_ERROR) {
    return new CodedError(reason as keyof typeof ErrorCatalog, `The swap could not be built: ${reason}`, {
      swapId: view.swapId,
      status: view.status,
      ...(view.failureDetails ?? {}),
    });
  }
  return terminalOf(view);
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
