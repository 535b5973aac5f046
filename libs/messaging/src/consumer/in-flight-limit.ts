/**
 * A counting semaphore with first-come-first-served waiters: the per-process cap on messages being
 * handled, shared by every partition a consumer works on. FIFO so that a busy partition cannot
 * starve the others of slots.
 */
export class InFlightLimit {
  private used = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`in-flight capacity must be a positive integer, got ${capacity}`);
  }

  /** Messages currently holding a slot. */
  get inFlight(): number {
    return this.used;
  }

  /** Resolves with a release function once a slot is free; call it exactly once. */
  async acquire(): Promise<() => void> {
    if (this.used < this.capacity && this.waiters.length === 0) {
      this.used += 1;
    } else {
      // The releasing side hands its slot over directly (used stays the same), so a late caller
      // cannot overtake a waiter between the release and the waiter's wake-up.
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.used -= 1;
    };
  }
}
