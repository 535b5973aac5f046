import { Injectable } from '@nestjs/common';

/**
 * Says that a step entered `repricing` on this instance (SwapProgress), so that the price checker
 * (SwapPriceChecker, which depends on SwapProgress) polls again at once instead of idling. Said
 * inside the transaction that moves the step: the checker keeps polling a while, so that it finds
 * the step once the transaction has committed.
 */
@Injectable()
export class RepricingSignal {
  private readonly listeners: (() => void)[] = [];

  /** Calls `listener` each time a step enters `repricing` here. */
  listen(listener: () => void): void {
    this.listeners.push(listener);
  }

  stepEntered(): void {
    for (const listener of this.listeners) listener();
  }
}
