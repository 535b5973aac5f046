import { BridgeEndpoint, BridgeTransfer } from './bridge-endpoint';

export interface RelayerLogger {
  log(message: unknown, context?: string): void;
  warn(message: unknown, context?: string): void;
  error(message: unknown, context?: string): void;
}

export interface BridgeRelayerOptions {
  pollIntervalMs: number;
  logger: RelayerLogger;
}

const CONTEXT = 'BridgeRelayer';

/**
 * Watches every endpoint for deposits and releases each on its destination endpoint. A transfer
 * whose release fails stays pending and is retried on the next poll; the contract's idempotency
 * per (source chain, nonce) makes retries safe.
 */
export class BridgeRelayer {
  private readonly byBridgeChainId = new Map<bigint, BridgeEndpoint>();
  private readonly pending: BridgeTransfer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly endpoints: BridgeEndpoint[],
    private readonly options: BridgeRelayerOptions,
  ) {
    for (const endpoint of endpoints)
      if (!endpoint.sourceOnly) this.byBridgeChainId.set(endpoint.bridgeChainId, endpoint);
  }

  /** Polls once right away (so it is watching before start returns), then on the interval. */
  async start(): Promise<void> {
    await this.pollOnce();
    this.schedule();
  }

  /** Stops polling after the relay in progress, then closes the endpoints. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await Promise.all(this.endpoints.map((e) => e.close()));
  }

  /** Transfers seen but not yet released (e.g. the destination was failing). */
  pendingTransfers(): readonly BridgeTransfer[] {
    return this.pending;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pollOnce().finally(() => this.schedule());
    }, this.options.pollIntervalMs);
  }

  /** One round: collect new deposits from every endpoint, then release everything pending. */
  async pollOnce(): Promise<void> {
    for (const endpoint of this.endpoints) {
      if (this.stopped) return;
      try {
        this.pending.push(...(await endpoint.pollDeposits()));
      } catch (error) {
        this.options.logger.warn(
          { msg: 'polling deposits failed', chain: endpoint.chain, error: (error as Error).message },
          CONTEXT,
        );
      }
    }
    for (const transfer of [...this.pending]) {
      if (this.stopped) return;
      await this.relay(transfer);
    }
  }

  private async relay(transfer: BridgeTransfer): Promise<void> {
    const fields = {
      sourceChain: transfer.sourceChain,
      nonce: transfer.nonce.toString(),
      recipient: transfer.recipient,
      amount: transfer.amount.toString(),
      depositTxHash: transfer.depositTxHash,
      ...(transfer.message !== undefined ? { withMessage: true } : {}),
    };
    const destination = this.byBridgeChainId.get(transfer.destinationBridgeChainId);
    if (!destination) {
      // Nothing can ever pay it: drop it loudly rather than retry forever. Funds stay locked in
      // the source bridge (devnet only).
      this.options.logger.error(
        {
          msg: 'deposit targets an unknown chain; not relayed',
          ...fields,
          destinationChainId: transfer.destinationBridgeChainId.toString(),
        },
        CONTEXT,
      );
      this.removePending(transfer);
      return;
    }
    try {
      const outcome = await destination.release(transfer);
      this.removePending(transfer);
      this.options.logger.log(
        {
          msg: `bridge transfer ${outcome.status}`,
          ...fields,
          destinationChain: destination.chain,
          ...outcome,
        },
        CONTEXT,
      );
    } catch (error) {
      this.options.logger.warn(
        {
          msg: 'release failed; will retry',
          ...fields,
          destinationChain: destination.chain,
          error: (error as Error).message,
        },
        CONTEXT,
      );
    }
  }

  private removePending(transfer: BridgeTransfer): void {
    const index = this.pending.indexOf(transfer);
    if (index >= 0) this.pending.splice(index, 1);
  }
}
