// A reader of GET /swap/{swapId}/events (Server-Sent Events) over fetch: browsers' EventSource
// cannot send an Authorization header. It resumes with Last-Event-ID when the connection drops, so
// no event is lost or read twice, and ends after the swap's terminal event.
import { GatewayApiError } from './errors';
import type { components } from './gateway-api';

export type SwapEventName = components['schemas']['SwapStreamEventDto']['event'];

/** One event of the stream: its id (send it back as Last-Event-ID), its name and its data. */
export interface SwapStreamEvent {
  id: string;
  event: SwapEventName;
  // The data's shape depends on `event` (the guide's table); narrow on it.
  data: {
    swapId: string;
    status: string;
    step: { current: number; total: number } | null;
    atMs: number;
  } & Record<string, unknown>;
}

export const TERMINAL_SWAP_EVENTS: readonly SwapEventName[] = [
  'swap.completed',
  'swap.failed',
  'swap.expired',
];

export interface SwapEventsOptions {
  /** The gateway's API root, `https://host/api/v1`. */
  baseUrl: string;
  apiKey: string;
  swapId: string;
  /** Resume after this event id (from an earlier stream). */
  lastEventId?: string;
  fetch?: typeof fetch;
  /** Ends the stream (the iteration returns). */
  signal?: AbortSignal;
  /** Reconnections in a row without a new event before giving up; 5 by default. */
  maxReconnects?: number;
  /** Delay before a reconnection when the server sent no `retry:`; 2000 ms by default. */
  reconnectDelayMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The swap's events, from its first (or after `lastEventId`) to its terminal one:
 * `for await (const e of swapEvents({ baseUrl, apiKey, swapId })) ...`. A dropped connection is
 * resumed with Last-Event-ID; an answer that is not a stream (404 SWAP_NOT_FOUND, 429) throws
 * GatewayApiError.
 */
export async function* swapEvents(
  options: SwapEventsOptions,
): AsyncGenerator<SwapStreamEvent, void, undefined> {
  const doFetch = options.fetch ?? fetch;
  const maxReconnects = options.maxReconnects ?? 5;
  let lastEventId = options.lastEventId;
  let retryMs = options.reconnectDelayMs ?? 2000;
  let failures = 0;
  const url = `${options.baseUrl.replace(/\/$/, '')}/swap/${encodeURIComponent(options.swapId)}/events`;
  while (!options.signal?.aborted) {
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'text/event-stream',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) return;
      if (++failures > maxReconnects) throw error;
      await sleep(retryMs, options.signal);
      continue;
    }
    if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      throw await GatewayApiError.fromResponse(response);
    }
    let dropped: unknown;
    try {
      for await (const frame of frames(response.body)) {
        if (frame.retry !== undefined) retryMs = frame.retry;
        if (!frame.event || frame.data === undefined) continue;
        if (frame.id !== undefined) lastEventId = frame.id;
        failures = 0;
        const event: SwapStreamEvent = {
          id: frame.id ?? '',
          event: frame.event as SwapEventName,
          data: JSON.parse(frame.data) as SwapStreamEvent['data'],
        };
        yield event;
        if (TERMINAL_SWAP_EVENTS.includes(event.event)) return;
      }
    } catch (error) {
      // A reset connection: resumed below like a stream that ended.
      dropped = error;
    }
    // The stream ended without a terminal event (a reset, an instance shutting down, a proxy): resume.
    if (options.signal?.aborted) return;
    if (++failures > maxReconnects)
      throw dropped ?? new Error(`the event stream of ${options.swapId} kept ending`);
    await sleep(retryMs, options.signal);
  }
}

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

/** Parses the text/event-stream framing (WHATWG HTML, server-sent events). */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let frame: Frame = {};
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (frame.event !== undefined || frame.data !== undefined || frame.retry !== undefined) yield frame;
          frame = {};
          continue;
        }
        if (line.startsWith(':')) continue; // a comment (keep-alive)
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
        else if (field === 'event') frame.event = value;
        else if (field === 'id' && !value.includes('\0')) frame.id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) frame.retry = Number(value);
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}
