/**
 * What time it is (ms since the epoch), injected wherever time is read for a decision (expiry,
 * deadlines, backoff), so that a test can say what time it is. Apps provide SystemClock under
 * this class: `{ provide: Clock, useClass: SystemClock }`.
 */
export abstract class Clock {
  abstract nowMs(): number;
}

/** The machine's clock. */
export class SystemClock extends Clock {
  nowMs(): number {
    return Date.now();
  }
}

/** A clock that says the time it is set to: tests move it (`atMs`) to reach deadlines and expiries. */
export class ManualClock extends Clock {
  constructor(public atMs: number) {
    super();
  }

  nowMs(): number {
    return this.atMs;
  }
}
