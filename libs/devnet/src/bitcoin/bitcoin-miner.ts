import { BitcoinChain, ChainBlock } from './bitcoin-chain';

/**
 * Mines a block of `chain` every `blockMs` (one per tick, whatever the mempool holds), until
 * stopped. Paused, it mines only when asked (mineNow): how a test holds a transaction in the
 * mempool, as does raising the chain's fee-rate floor (what a block takes: BitcoinChain.blockTemplate).
 */
export class BitcoinMiner {
  private timer: NodeJS.Timeout | undefined;
  private pausedState = false;

  constructor(
    private readonly chain: BitcoinChain,
    readonly blockMs: number,
  ) {}

  get paused(): boolean {
    return this.pausedState;
  }

  start(): void {
    this.timer ??= setInterval(() => {
      if (!this.pausedState) this.chain.mineBlock();
    }, this.blockMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  pause(): void {
    this.pausedState = true;
  }

  resume(): void {
    this.pausedState = false;
  }

  mineNow(blocks = 1): ChainBlock[] {
    return Array.from({ length: blocks }, () => this.chain.mineBlock());
  }
}
