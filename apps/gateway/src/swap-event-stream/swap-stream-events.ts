import { CodedError, ErrorCodes, SwapEventType, SwapEventTypes } from '@swapgw/contracts';
import { pendingTransactionOf, syncResponseOf } from '../swap/swap-responses';
import type { SwapViewEntity } from '../swap/swap-view.entity';

/**
 * What GET /swap/{swapId}/events sends, one SSE event per swap event the projector applied. The
 * SSE event name is the swap event's type (`swap.signing-ready`, ...); the data is built from the
 * swap's view right after the event was applied, so it reads like the signing endpoint's answer.
 * The spec leaves events open ("not shown"): names, ids and shapes are ours, in the decisions table
 * of the integrator's guide.
 */
export interface SwapStreamEventData {
  swapId: string;
  status: string;
  /** The current step (the next one after `swap.step-confirmed`); null before the planner counted the steps. */
  step: { current: number; total: number } | null;
  /** When the projector applied the event (epoch ms). */
  atMs: number;
  [field: string]: unknown;
}

/** Events after which the swap changes no more: the stream ends after sending one. */
export const TERMINAL_STREAM_EVENTS: ReadonlySet<string> = new Set<SwapEventType>([
  SwapEventTypes.completed,
  SwapEventTypes.failed,
  SwapEventTypes.expired,
]);

/** The event a stream sends for swap event `type`, from the view as that event left it. */
export function streamEventDataOf(type: SwapEventType, view: SwapViewEntity): SwapStreamEventData {
  const base: SwapStreamEventData = {
    swapId: view.swapId,
    status: view.status,
    step: view.stepTotal === null ? null : { current: view.stepCurrent ?? 1, total: view.stepTotal },
    atMs: view.updatedAtMs,
  };
  switch (type) {
    case SwapEventTypes.created:
    case SwapEventTypes.stepConfirmed:
      return { ...base, ...(view.lastTxHash ? { lastTxHash: view.lastTxHash } : {}) };
    case SwapEventTypes.signingReady: {
      // The body GET /swap/{swapId}/signing answers 200 with: mode, nextAction and the signing envelope.
      const { mode, nextAction, signing } = syncResponseOf(view);
      return { ...base, mode, nextAction, signing };
    }
    case SwapEventTypes.signingPending:
      return { ...base, readyAtMs: view.readyAtMs, pendingReason: view.pendingReason };
    case SwapEventTypes.stepSubmitted:
    case SwapEventTypes.stepConfirming: {
      const transaction = pendingTransactionOf(view);
      return { ...base, ...(transaction ? { transaction } : {}) };
    }
    case SwapEventTypes.stepPacket:
    case SwapEventTypes.stepThorchain: {
      // The step whose settlement moved: the current one (it moves before its step confirms).
      const step = view.steps?.find((s) => s.index === view.stepCurrent);
      const transaction = { chain: step?.chain ?? null, txHash: step?.txHash ?? view.lastTxHash };
      return type === SwapEventTypes.stepPacket
        ? { ...base, transaction, packet: step?.packet ?? null }
        : { ...base, transaction, thorchain: step?.thorchain ?? null };
    }
    case SwapEventTypes.completed:
      return { ...base, ...(view.lastTxHash ? { lastTxHash: view.lastTxHash } : {}) };
    case SwapEventTypes.failed:
    case SwapEventTypes.expired:
      return {
        ...base,
        reason: view.failureReason,
        ...(view.failureDetails ? { details: view.failureDetails } : {}),
      };
  }
}

/** One SSE frame: `id:`, `event:`, one `data:` line of JSON (JSON.stringify never emits a newline), blank line. */
export function sseFrame(id: string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies from closing an idle stream. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

/** Tells EventSource-style clients how long to wait before reconnecting. */
export const sseRetry = (retryMs: number): string => `retry: ${retryMs}\n\n`;

/** Largest event id a stream accepts (PostgreSQL bigint). */
const MAX_EVENT_ID = 9_223_372_036_854_775_807n;

/**
 * The `Last-Event-ID` of a reconnecting client as a decimal string ('0' when absent: the stream
 * starts at the swap's first event). Anything else than a non-negative integer within bigint is
 * 400 VALIDATION_FAILED: a client only ever sends back an id this gateway gave it.
 */
export function parseLastEventId(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return '0';
  const trimmed = value.trim();
  if (!/^\d{1,19}$/.test(trimmed) || BigInt(trimmed) > MAX_EVENT_ID) {
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      'Last-Event-ID must be an event id this stream sent (a non-negative integer)',
      {
        field: 'Last-Event-ID',
      },
    );
  }
  return BigInt(trimmed).toString();
}
