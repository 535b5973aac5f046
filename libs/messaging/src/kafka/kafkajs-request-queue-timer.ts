/**
 * kafkajs 2.2.4 (the last release) keeps a 1 ms timer running for ever on every broker connection
 * (tulios/kafkajs#1751): its request queue's `scheduleCheckPendingRequests` arms a timer whenever
 * none is armed, with the delay `throttledUntil - now`, which is a large negative number when no
 * throttle is in force (Node runs it after 1 ms; since Node 24 it also prints a
 * TimeoutNegativeWarning); the timer checks the queue, which schedules the next one. Every process
 * paid about a thousand wake-ups a second per connection, idle or not: a few per cent of a core
 * each, a fifth of the gateway's CPU when it served cached reads.
 *
 * The fix arms the timer only when something waits for it: requests pending (checked again after
 * kafkajs's own 10 ms, as before; a fulfilled request also checks), or a throttle in force (checked
 * when it ends). Nothing else changes: a new request is sent at once or queued, and queuing
 * schedules a check, as before. Installed on the class's prototype, so every kafkajs client of the
 * process has it, Nest's included; `kafkaClientConfig` installs it before any client is made.
 */

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's CHECK_PENDING_REQUESTS_INTERVAL. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

let installed = false;

/** The request queue class of the kafkajs this process loads (internal module of the pinned version). */
export function kafkajsRequestQueueClass(): { prototype: RequestQueueInternals } {
  return require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };
}

export function fixKafkajsRequestQueueTimer(): void {
  if (installed) return;
  const prototype = kafkajsRequestQueueClass().prototype;
  if (typeof prototype.scheduleCheckPendingRequests !== 'function') {
    throw new Error(
      'kafkajs RequestQueue.scheduleCheckPendingRequests is gone: review kafkajs-request-queue-timer.ts',
    );
  }
  prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(
    this: RequestQueueInternals,
  ) {
    if (this.throttleCheckTimeoutId) return;
    const throttledForMs = this.throttledUntil - Date.now();
    if (this.pending.length === 0 && throttledForMs <= 0) return;
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttledForMs > 0 ? throttledForMs : CHECK_PENDING_REQUESTS_INTERVAL_MS,
    );
  };
  installed = true;
}
