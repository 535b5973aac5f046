import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RelayedTransactionTracker } from '../sponsorship/tracking/relayed-transaction-tracker';

/** Runs the relayed-transaction tracker while the app runs. */
@Injectable()
export class RelayingBackgroundTasks implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly tracker: RelayedTransactionTracker) {}

  onApplicationBootstrap(): void {
    this.tracker.start();
  }

  /** Before the databases close: a pass in flight finishes with them. */
  async onModuleDestroy(): Promise<void> {
    await this.tracker.stop();
  }
}
