import { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SignerChains } from '../chains/signer-chains';
import { ConfirmationTracker } from './confirmation-tracker';
import { WaitingRequestPoller } from './waiting-request-poller';

/** Runs the confirmation tracker and the waiting poller while the app runs. */
export class SigningBackgroundTasks implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly tracker: ConfirmationTracker,
    private readonly poller: WaitingRequestPoller,
    private readonly chains: SignerChains,
  ) {}

  onApplicationBootstrap(): void {
    this.tracker.start();
    this.poller.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.tracker.stop(), this.poller.stop()]);
    this.chains.destroy();
  }
}
