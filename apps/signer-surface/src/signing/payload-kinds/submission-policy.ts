import { Injectable } from '@nestjs/common';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';

/** How signing.submit paces its looks at the chain, from the validated config. */
@Injectable()
export class SubmissionPolicy {
  /** The tracker's first look; the broadcast right after commit normally lands before it. */
  readonly firstCheckDelayMs: number;
  /**
   * How long a txHash submission waits for the chain's node to know the transaction (a wallet's
   * own RPC may have it a moment before ours), looking every `sentTxPollMs`; then TRANSACTION_NOT_FOUND.
   */
  readonly sentTxVisibleWithinMs = 4_000;
  readonly sentTxPollMs = 500;

  constructor(config: SignerSurfaceConfig) {
    this.firstCheckDelayMs = config.CONFIRMATION_POLL_MS;
  }
}
