import type { Clock } from '@swapgw/runtime';

/**
 * How long a request-reply client may go without progress before it counts as dead.
 *
 * A healthy reply consumer completes a fetch at least every `maxWaitTimeInMs` (the broker answers an
 * empty long poll after that), so a consumer that has neither started nor finished a fetch for
 * several of those is stuck, whatever the responders are doing. A healthy producer has every send
 * acknowledged or failed within the broker request timeout.
 */
export interface ReplyClientLivenessBounds {
  /** No fetch started or finished by the reply consumer for this long: the consumer is dead. */
  consumerStallMs: number;
  /** A send to the broker neither acknowledged nor failed for this long: the producer is dead. */
  producerStallMs: number;
}

/**
 * Evidence that a request-reply client's Kafka connections are dead, as opposed to peers answering
 * slowly. Timeouts alone prove nothing: a burst of slow handlers times requests out while the
 * client is perfectly able to receive. What kafkajs can leave behind after a cut connection is a
 * reply consumer whose fetch loop no longer moves (it still looks joined), or a producer whose sends
 * never settle; both show here and nowhere else.
 */
export class ReplyClientLiveness {
  /** Null until the consumer first joined: a client still connecting is bounded by its connect timeout. */
  private lastConsumerProgressAt: number | null = null;
  private readonly pendingSends = new Map<number, number>();
  private nextSendId = 0;

  constructor(
    private readonly bounds: ReplyClientLivenessBounds,
    private readonly clock: Clock,
  ) {}

  /** The reply consumer started or finished a fetch, or (re)joined its group. */
  consumerProgressed(): void {
    this.lastConsumerProgressAt = this.clock.nowMs();
  }

  /** A send was handed to the producer; call the returned function once it settled either way. */
  sendStarted(): () => void {
    const id = this.nextSendId++;
    this.pendingSends.set(id, this.clock.nowMs());
    return () => this.pendingSends.delete(id);
  }

  /** Why the client is dead, or null while it shows signs of life. */
  deadReason(): string | null {
    const now = this.clock.nowMs();
    const stalledForMs = this.lastConsumerProgressAt === null ? 0 : now - this.lastConsumerProgressAt;
    if (stalledForMs > this.bounds.consumerStallMs)
      return `the reply consumer has not fetched for ${stalledForMs} ms`;
    const oldestSendAt = this.pendingSends.values().next().value;
    if (oldestSendAt !== undefined && now - oldestSendAt > this.bounds.producerStallMs) {
      return `a send has been waiting for the broker for ${now - oldestSendAt} ms`;
    }
    return null;
  }
}
