import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfirmationTracker } from './confirmation-tracker';
import { WaitingRequestPoller } from './waiting-request-poller';

/**
 * Runs the confirmation tracker and the waiting poller while the app runs. They stop before the
 * database closes; SignerChains releases its RPC clients after them, at shutdown.
 */
@Injectable()
export class SigningBackgroundTasks implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly tracker: ConfirmationTracker,
    private readonly poller: WaitingRequestPoller,
  ) {}

  onApplicationBootstrap(): void {
    this.tracker.start();
    this.poller.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([this.tracker.stop(), this.poller.stop()]);
  }
}
