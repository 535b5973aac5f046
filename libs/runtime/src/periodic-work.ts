import { Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { metricsRegistry } from './metrics/metrics-registry';

const passes = new Counter({
  name: 'swapgw_periodic_passes_total',
  help: 'Passes of periodic work (sweepers, pollers, purges) by task and outcome (ok, failed, slow: over its bound)',
  labelNames: ['task', 'outcome'] as const,
  registers: [metricsRegistry()],
});

export interface PeriodicWorkOptions {
  /** Names the task in logs and in swapgw_periodic_passes_total. */
  name: string;
  intervalMs: number;
  /**
   * One pass. A number above 0 means it found work and batches are bounded, so more may be due: the
   * next pass starts at once instead of after the interval.
   */
  run: () => Promise<number | void>;
  /**
   * A pass still running after this long is logged and counted as `slow` (once); the next pass
   * still waits for it, so passes never overlap. Default: 10 intervals, at least 30 s.
   */
  slowAfterMs?: number;
}

/**
 * Work repeated on an interval, the one shape of every background loop: one pass at a time (the
 * next is scheduled when a pass ends, never on a fixed clock), a failed pass logged and counted
 * without stopping the loop, a pass over its bound reported, and stop() waiting for the pass in
 * flight so that shutdown never leaves one half done.
 */
export class PeriodicWork {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = true;
  private wokenDuringPass = false;

  constructor(private readonly options: PeriodicWorkOptions) {
    this.logger = new Logger(options.name);
  }

  /** Starts the loop: the first pass after `firstDelayMs` (default one interval). */
  start(firstDelayMs = this.options.intervalMs): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  /** Stops the loop and waits for the pass in flight, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /**
   * Runs a pass now instead of at the end of the interval (a notification said work arrived): at
   * once when idle, or right after the pass in flight, never two at a time. No-op when stopped.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.inFlight) {
      this.wokenDuringPass = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  get running(): boolean {
    return !this.stopped;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wokenDuringPass = false;
      this.inFlight = this.pass().finally(() => (this.inFlight = undefined));
    }, delayMs);
    this.timer.unref?.();
  }

  private async pass(): Promise<void> {
    const slowAfterMs = this.options.slowAfterMs ?? Math.max(30_000, this.options.intervalMs * 10);
    const slow = setTimeout(() => {
      passes.inc({ task: this.options.name, outcome: 'slow' });
      this.logger.warn({ msg: 'periodic pass still running', task: this.options.name, afterMs: slowAfterMs });
    }, slowAfterMs);
    slow.unref?.();
    let found = 0;
    try {
      found = (await this.options.run()) ?? 0;
      passes.inc({ task: this.options.name, outcome: 'ok' });
    } catch (error) {
      passes.inc({ task: this.options.name, outcome: 'failed' });
      this.logger.error({
        msg: 'periodic pass failed',
        task: this.options.name,
        error: (error as Error)?.message ?? String(error),
      });
    } finally {
      clearTimeout(slow);
    }
    this.schedule(found > 0 || this.wokenDuringPass ? 0 : this.options.intervalMs);
  }
}
