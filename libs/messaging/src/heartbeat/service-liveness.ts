/**
 * What one watcher knows about a service from its heartbeats:
 * - `up`: an instance of it was heard from within the timeout;
 * - `down`: none was, although the watcher has been listening for at least one full timeout;
 * - `unknown`: not heard from yet, and the watcher has not listened long enough to say it is down
 *   (right after it started, or while it could not listen at all).
 */
export type ServiceLiveness = 'up' | 'down' | 'unknown';

/**
 * Liveness of a fixed set of services from heartbeats, on the watcher's clock (times are when a beat
 * arrived, never the sender's clock, so clock skew between hosts does not matter). Only the latest
 * beat of a service counts: several instances keep it up as long as any of them beats.
 */
export class ServiceLivenessTable {
  private readonly lastHeardMs = new Map<string, number>();
  private listeningSinceMs: number | undefined;

  constructor(
    readonly services: readonly string[],
    readonly timeoutMs: number,
  ) {
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
      throw new Error(`heartbeat timeout must be a positive integer, got ${timeoutMs}`);
  }

  /** The watcher can receive beats from now on (its consumer joined). Only the first call counts. */
  listening(nowMs: number): void {
    this.listeningSinceMs ??= nowMs;
  }

  /**
   * A beat of `service` arrived at `nowMs`, sent at `sentAtMs` (sender's clock). A beat older than
   * the timeout when it arrives (delivered late after a network hiccup) says nothing about now and
   * is dropped. Returns whether it counted.
   */
  heard(service: string, nowMs: number, sentAtMs: number = nowMs): boolean {
    if (!this.services.includes(service)) return false;
    if (nowMs - sentAtMs > this.timeoutMs) return false;
    this.listening(nowMs);
    this.lastHeardMs.set(service, Math.max(this.lastHeardMs.get(service) ?? nowMs, nowMs));
    return true;
  }

  statusOf(service: string, nowMs: number): ServiceLiveness {
    const last = this.lastHeardMs.get(service);
    if (last !== undefined && nowMs - last <= this.timeoutMs) return 'up';
    if (this.listeningSinceMs === undefined || nowMs - this.listeningSinceMs < this.timeoutMs)
      return 'unknown';
    return 'down';
  }

  /** Every watched service, in the order given. */
  statuses(nowMs: number): Record<string, ServiceLiveness> {
    return Object.fromEntries(this.services.map((service) => [service, this.statusOf(service, nowMs)]));
  }
}
