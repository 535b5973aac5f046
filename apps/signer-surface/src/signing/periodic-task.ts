import { Logger } from '@nestjs/common';

/**
 * A loop that runs `runOnce` every `intervalMs` (and at once again while it finds work), one pass
 * at a time, until stopped. Errors are logged, never thrown out of the timer.
 */
export abstract class PeriodicTask {
  protected readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  protected constructor(
    name: string,
    private readonly intervalMs: number,
  ) {
    this.logger = new Logger(name);
  }

  abstract runOnce(): Promise<number>;

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick();
    }, delayMs);
  }

  private async tick(): Promise<void> {
    let found = 0;
    try {
      found = await this.runOnce();
    } catch (error) {
      this.logger.error({ msg: 'pass failed', error: (error as Error)?.message ?? String(error) });
    }
    // Rows found means more may be due (batches are bounded): look again at once.
    this.schedule(found > 0 ? 0 : this.intervalMs);
  }
}
