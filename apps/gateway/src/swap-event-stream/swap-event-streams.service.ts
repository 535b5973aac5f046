import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { CodedError, ErrorCodes, isTerminalSwapStatus } from '@swapgw/contracts';
import type { GatewayReply } from '../common/http/gateway-request';
import { GatewayConfig } from '../config/gateway.config';
import { SwapViewChanges, SwapViewWatch } from '../swap/swap-view-changes';
import { SwapViewRepository } from '../swap/swap-view.repository';
import { SwapEventLogRepository } from './swap-event-log.repository';
import {
  parseLastEventId,
  SSE_KEEP_ALIVE,
  sseFrame,
  sseRetry,
  TERMINAL_STREAM_EVENTS,
} from './swap-stream-events';

/** Events read from the log per query: what one stream holds in memory at most, besides the socket's buffer. */
export const STREAM_PAGE_SIZE = 100;
/** A stream reads its swap's log at least this often even without a notification (a LISTEN lost silently). */
const STREAM_REREAD_MS = 5_000;
/** A client that reads nothing for this long while the socket's buffer is full is disconnected. */
const SLOW_READER_TIMEOUT_MS = 60_000;
/** How long a terminal view waits for its terminal event to be logged before its streams end anyway. */
const TERMINAL_EVENT_GRACE_MS = 30_000;
/** Suggested reconnection delay sent to clients (`retry:`). */
export const STREAM_RETRY_MS = 2_000;
/** Retry-After of a 429 for too many open streams: streams end when their swap does. */
const STREAM_LIMIT_RETRY_AFTER_SECONDS = 5;

interface OpenStream {
  raw: ServerResponse;
  watch: SwapViewWatch;
}

/**
 * Serves GET /swap/{swapId}/events: the swap's logged events after Last-Event-ID, then each new one
 * as it is projected, as Server-Sent Events. Any instance serves any swap: the log is in PostgreSQL
 * and the projector's NOTIFY reaches every instance. Memory per stream is bounded: the log is read
 * in pages of STREAM_PAGE_SIZE and the next frame is written only once the socket took the last one.
 */
@Injectable()
export class SwapEventStreams implements OnModuleDestroy {
  private readonly logger = new Logger(SwapEventStreams.name);
  private readonly openPerKey = new Map<string, number>();
  private readonly streams = new Set<OpenStream>();

  constructor(
    private readonly views: SwapViewRepository,
    private readonly changes: SwapViewChanges,
    private readonly log: SwapEventLogRepository,
    private readonly config: GatewayConfig,
  ) {}

  /** How many streams this instance holds open (tests, metrics). */
  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Answers 400 (bad Last-Event-ID), 404 (unknown swap or another owner's) or 429 (too many open
   * streams for the key) through the exception filter; otherwise takes the reply over and streams
   * until the swap's terminal event, the client leaving, or shutdown.
   */
  async serve(
    owner: string,
    apiKeyId: string,
    swapId: string,
    lastEventIdHeader: string | string[] | undefined,
    reply: GatewayReply,
  ): Promise<void> {
    const afterId = parseLastEventId(lastEventIdHeader);
    const view = await this.views.findOwned(swapId, owner);
    if (!view) throw new CodedError(ErrorCodes.SWAP_NOT_FOUND, 'No such swap', { swapId });
    this.acquire(apiKeyId, reply);
    // Subscribed before the first read of the log, so that no event committed meanwhile is missed.
    const stream: OpenStream = { raw: reply.raw, watch: this.changes.watch(swapId) };
    this.streams.add(stream);
    try {
      reply.hijack();
      stream.raw.writeHead(200, streamHeaders(reply));
      stream.raw.on('close', () => stream.watch.notify());
      await this.pump(stream, swapId, owner, afterId);
    } catch (error) {
      // The status line is sent: the client sees the stream end and resumes with Last-Event-ID.
      this.logger.warn({
        msg: 'swap event stream ended by an error',
        swapId,
        error: (error as Error).message,
      });
    } finally {
      stream.watch.close();
      this.streams.delete(stream);
      this.release(apiKeyId);
      if (!stream.raw.writableEnded) stream.raw.end();
    }
  }

  private async pump(stream: OpenStream, swapId: string, owner: string, afterId: string): Promise<void> {
    const heartbeatMs = this.config.SWAP_EVENT_HEARTBEAT_MS;
    let lastId = afterId;
    let nextHeartbeatAt = Date.now() + heartbeatMs;
    if (!(await writeRespectingBackpressure(stream.raw, sseRetry(STREAM_RETRY_MS)))) return;
    for (;;) {
      if (isGone(stream.raw)) return;
      const page = await this.log.readAfter(swapId, lastId, STREAM_PAGE_SIZE);
      for (const event of page) {
        if (!(await writeRespectingBackpressure(stream.raw, sseFrame(event.id, event.type, event.data))))
          return;
        lastId = event.id;
        if (TERMINAL_STREAM_EVENTS.has(event.type)) return;
      }
      if (page.length === STREAM_PAGE_SIZE) continue;
      if (page.length > 0) nextHeartbeatAt = Date.now() + heartbeatMs;
      else if (await this.endedWithoutMore(swapId, owner, lastId)) return;
      const told = await stream.watch.changedOrDeadline(
        Math.min(nextHeartbeatAt, Date.now() + STREAM_REREAD_MS),
      );
      if (!told && Date.now() >= nextHeartbeatAt) {
        if (!(await writeRespectingBackpressure(stream.raw, SSE_KEEP_ALIVE))) return;
        nextHeartbeatAt = Date.now() + heartbeatMs;
      }
    }
  }

  /**
   * True when the swap is over and the log has nothing after `lastId` to send: its terminal event
   * is the newest logged (sent already: a resumption after it), or the log is empty (purged). A
   * terminal view alone is not enough: the last step's `swap.step-confirmed` already reads
   * `completed`, and `swap.completed` is projected a moment after it. A view terminal for
   * TERMINAL_EVENT_GRACE_MS without its terminal event logged (a swap older than the log) ends too.
   */
  private async endedWithoutMore(swapId: string, owner: string, lastId: string): Promise<boolean> {
    const view = await this.views.findOwned(swapId, owner);
    if (view && !isTerminalSwapStatus(view.status)) return false;
    const newest = await this.log.newestOf(swapId);
    if (newest === null) return true;
    if (BigInt(newest.id) > BigInt(lastId)) return false;
    if (TERMINAL_STREAM_EVENTS.has(newest.type)) return true;
    return view !== null && Date.now() - view.updatedAtMs >= TERMINAL_EVENT_GRACE_MS;
  }

  private acquire(apiKeyId: string, reply: GatewayReply): void {
    const open = this.openPerKey.get(apiKeyId) ?? 0;
    const limit = this.config.SWAP_EVENT_STREAMS_PER_KEY;
    if (open >= limit) {
      reply.header('Retry-After', String(STREAM_LIMIT_RETRY_AFTER_SECONDS));
      throw new CodedError(ErrorCodes.RATE_LIMITED, 'Too many open event streams for this API key', {
        limit,
        openStreams: open,
        retryAfterSeconds: STREAM_LIMIT_RETRY_AFTER_SECONDS,
      });
    }
    this.openPerKey.set(apiKeyId, open + 1);
  }

  private release(apiKeyId: string): void {
    const open = (this.openPerKey.get(apiKeyId) ?? 1) - 1;
    if (open <= 0) this.openPerKey.delete(apiKeyId);
    else this.openPerKey.set(apiKeyId, open);
  }

  /** Ends every open stream so that the HTTP server can close; clients resume elsewhere with Last-Event-ID. */
  onModuleDestroy(): void {
    for (const stream of this.streams) {
      stream.raw.end();
      stream.watch.notify();
    }
  }
}

/** The shell's headers (X-Request-Id, traceparent, RateLimit-*) and those of an event stream. */
function streamHeaders(reply: GatewayReply): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) headers[name] = value;
  return {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx buffers responses unless told not to.
    'x-accel-buffering': 'no',
  };
}

const isGone = (raw: ServerResponse): boolean => raw.destroyed || raw.writableEnded;

/**
 * Writes `chunk`; when the socket's buffer is full, waits until it drains before going on. False
 * when the client is gone (or read nothing for SLOW_READER_TIMEOUT_MS, then it is disconnected).
 */
async function writeRespectingBackpressure(raw: ServerResponse, chunk: string): Promise<boolean> {
  if (isGone(raw)) return false;
  if (raw.write(chunk)) return true;
  const drained = await new Promise<boolean>((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      raw.off('drain', onDrain);
      raw.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    const timer = setTimeout(() => done(false), SLOW_READER_TIMEOUT_MS);
    raw.on('drain', onDrain);
    raw.on('close', onClose);
  });
  if (!drained && !raw.destroyed) raw.destroy();
  return drained && !isGone(raw);
}
