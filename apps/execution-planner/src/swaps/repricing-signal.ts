import { Injectable } from '@nestjs/common';

/**
 * Says that a step entered `repricing` on this instance (SwapProgress), so that the price checker
 * (SwapPriceChecker, which depends on SwapProgress) polls again at once instead of idling. Said
 * once the transaction that moved the step has committed (SwapTransaction.afterCommit), so the
 * checker's read finds the step; never for a transaction rolled back.
 */
@Injectable()
export class RepricingSignal {
  private readonly listeners: (() => void)[] = [];

  /** Calls `listener` each time a step entered `repricing` here, once committed. */
  listen(listener: () => void): void {
    this.listeners.push(listener);
  }

  stepEntered(): void {
    for (const listener of this.listeners) listener();
  }
}
