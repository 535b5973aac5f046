import { Logger } from '@nestjs/common';
import { PeriodicWork } from '@swapgw/runtime';

/**
 * A signer loop on the one periodic-work primitive: `runOnce` every `intervalMs` (and at once again
 * while it finds work), one pass at a time, until stopped; failures logged and counted.
 */
export abstract class PeriodicTask {
  protected readonly logger: Logger;
  private readonly work: PeriodicWork;

  protected constructor(name: string, intervalMs: number) {
    this.logger = new Logger(name);
    this.work = new PeriodicWork({ name, intervalMs, run: () => this.runOnce() });
  }

  abstract runOnce(): Promise<number>;

  start(): void {
    this.work.start(0);
  }

  stop(): Promise<void> {
    return this.work.stop();
  }
}
