import { isTerminalSwapStatus, RouteIssue } from '@swapgw/contracts';
import type { BuildPriceCheck } from './build-price-check';
import type { SwapViewEntity } from './swap-view.entity';

/** Suggested interval between polls of GET /swap/{swapId}/signing: the first one, and the shortest. */
export const POLL_AFTER_MS = 1000;
/** The longest suggested interval: what a swap's readiness may be seen late by, at most. */
export const POLL_AFTER_MAX_MS = 3000;
/** A swap that has waited `w` since its last change is polled again after w / this (within the bounds). */
const POLL_BACKOFF_DIVISOR = 5;

/**
 * The suggested interval before the next poll of a swap with nothing to sign: a fifth of how long
 * it has waited since its view last changed, from POLL_AFTER_MS to POLL_AFTER_MAX_MS, in tenths of
 * a second. A swap that just moved is polled again after a second; one that queues behind a flood
 * (seconds to tens of seconds under a burst) is polled a few times less often, so its client's
 * polls do not take the capacity that would get it ready, and it is seen ready at most a fifth of
 * its wait (and 3 s) late.
 */
export function pollAfterMsOf(view: Pick<SwapViewEntity, 'updatedAtMs'>, nowMs: number): number {
  const waitedMs = Math.max(0, nowMs - view.updatedAtMs);
  const backoffMs = Math.round(waitedMs / POLL_BACKOFF_DIVISOR / 100) * 100;
  return Math.min(POLL_AFTER_MAX_MS, Math.max(POLL_AFTER_MS, backoffMs));
}

export interface SigningEnvelope {
  step: { current: number; total: number } | null;
  expiresAtMs: number | null;
  readyAtMs: number | null;
  payload?: Record<string, unknown>;
  executionHints?: Record<string, unknown>;
  clientHints?: Record<string, unknown>;
}

/** 200: a payload is ready to sign. */
export interface SyncSigningResponse {
  swapId: string;
  mode: 'sync';
  nextAction: 'sign';
  status: string;
  signing: SigningEnvelope;
  /** POST /swap/build only: the route's preflight against the build's wallet (see RouteIssue). */
  issues?: RouteIssue[];
  /** POST /swap/build only: the price checked at build (see BuildPriceChecker). */
  priceCheck?: BuildPriceCheck;
}

/** The current step's broadcast transaction, while the swap waits for it (submitted, confirming). */
export interface PendingTransaction {
  /** The chain it is on (API id); absent on swaps projected before steps named their chain. */
  chain?: string;
  txHash: string;
  /** Confirmations so far: 0 until it is in a block. */
  confirmations: number;
  /** Confirmations the service waits for before the next step; null until the signer reported it. */
  confirmationsRequired: number | null;
}

/** 202: nothing to sign yet; poll GET /swap/{swapId}/signing after pollAfterMs. */
export interface AsyncSigningResponse {
  swapId: string;
  mode: 'async';
  nextAction: 'poll';
  pollAfterMs: number;
  status: string;
  signing: SigningEnvelope;
  /** Present while status is `submitted` or `confirming`. */
  transaction?: PendingTransaction;
  /** POST /swap/build only: the route's preflight against the build's wallet (see RouteIssue). */
  issues?: RouteIssue[];
  /** POST /swap/build only: the price checked at build (see BuildPriceChecker). */
  priceCheck?: BuildPriceCheck;
}

/** What GET /swap/{swapId}/signing (or a build within its wait) answers when it answers with a body. */
export type SigningAnswer =
  { httpStatus: 200; body: SyncSigningResponse } | { httpStatus: 202; body: AsyncSigningResponse };

/**
 * The answer of GET /swap/{swapId}/signing that the view alone decides: 200 with the payload, or
 * 202 while it is being built or the step's transaction is on its way. Null when the answer takes
 * more than the view: a terminal swap (an error, built by SwapService), or a payload that expired
 * unsigned (a refresh to ask for).
 */
export function plainSigningAnswerOf(view: SwapViewEntity, nowMs: number): SigningAnswer | null {
  if (isTerminalSwapStatus(view.status)) return null;
  if (isSignable(view, nowMs)) return { httpStatus: 200, body: syncResponseOf(view) };
  if (view.status === 'awaiting_signature' && view.payload !== null) return null;
  return { httpStatus: 202, body: pendingResponseOf(view, nowMs) };
}

/** A view whose payload can be signed now (ready and not expired). */
export function isSignable(view: SwapViewEntity, nowMs: number): boolean {
  return (
    view.status === 'awaiting_signature' &&
    view.payload !== null &&
    (view.expiresAtMs === null || view.expiresAtMs > nowMs)
  );
}

export function syncResponseOf(view: SwapViewEntity): SyncSigningResponse {
  return {
    swapId: view.swapId,
    mode: 'sync',
    nextAction: 'sign',
    status: view.status,
    signing: {
      step: { current: view.stepCurrent ?? 1, total: view.stepTotal ?? 1 },
      expiresAtMs: view.expiresAtMs,
      readyAtMs: view.readyAtMs,
      payload: view.payload ?? undefined,
      executionHints: view.executionHints ?? {},
      clientHints: view.clientHints ?? {},
    },
  };
}

/**
 * The pending envelope: step, expiresAtMs and readyAtMs are null as the spec shows for an async
 * build; `readyAtMs` carries the planner's estimate when one is known (e.g. bridged funds awaited).
 */
export function asyncResponseOf(
  swapId: string,
  status: string,
  readyAtMs: number | null = null,
): AsyncSigningResponse {
  return {
    swapId,
    mode: 'async',
    nextAction: 'poll',
    pollAfterMs: POLL_AFTER_MS,
    status,
    signing: { step: null, expiresAtMs: null, readyAtMs },
  };
}

/**
 * The 202 of a view with nothing to sign at `nowMs`: when to poll again (pollAfterMsOf), and the
 * pending transaction while one is in flight.
 */
export function pendingResponseOf(view: SwapViewEntity, nowMs: number): AsyncSigningResponse {
  const response = {
    ...asyncResponseOf(view.swapId, view.status, view.readyAtMs),
    pollAfterMs: pollAfterMsOf(view, nowMs),
  };
  const transaction = pendingTransactionOf(view);
  return transaction ? { ...response, transaction } : response;
}

/** The current step's transaction while it is on its way (submitted or confirming), else undefined. */
export function pendingTransactionOf(view: SwapViewEntity): AsyncSigningResponse['transaction'] {
  const txHash = view.lastTxHash;
  const inFlight = (view.status === 'submitted' || view.status === 'confirming') && txHash !== null;
  if (!inFlight) return undefined;
  const chain = view.steps?.find((step) => step.txHash === txHash)?.chain;
  return {
    ...(chain ? { chain } : {}),
    txHash,
    confirmations: view.confirmations ?? 0,
    confirmationsRequired: view.confirmationsRequired,
  };
}

/** 200 of POST /swap/{swapId}/signing. */
export interface SubmittedSigningResponse {
  swapId: string;
  txHash: string;
  step: { current: number; total: number };
  status: 'submitted';
  nextAction: 'poll';
  pollAfterMs: number;
}
