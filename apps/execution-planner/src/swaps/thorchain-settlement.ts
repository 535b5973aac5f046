import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import {
  inboundHash,
  readTxStatus,
  thorchainSwapProgress,
  type ThorchainSwapProgress,
} from '@swapgw/chains/bitcoin-bridge';
import { PeriodicWork } from '@swapgw/runtime';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { SwapProgress } from './swap-progress.service';
import { SwapRepository } from './swap.repository';

const BATCH = 20;
/** Bound of one tx/status read: THORNode answers from its state, no chain call. */
const STATUS_TIMEOUT_MS = 5_000;

/** THORChain's progress of one inbound, from THORNode's GET /thorchain/tx/status/{hash}. */
export abstract class ThorchainStatusReader {
  abstract progressOf(hash: string): Promise<ThorchainSwapProgress>;
}

/** ThorchainStatusReader over THORNode's REST API (THORNODE_URL). */
@Injectable()
export class ThornodeStatusReader extends ThorchainStatusReader {
  constructor(private readonly config: ExecutionPlannerConfig) {
    super();
  }

  async progressOf(hash: string): Promise<ThorchainSwapProgress> {
    const base = (this.config.THORNODE_URL ?? '').replace(/\/$/, '');
    const response = await fetch(`${base}/thorchain/tx/status/${inboundHash(hash)}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`THORNode answered HTTP ${response.status} for tx/status of ${hash}`);
    return thorchainSwapProgress(readTxStatus(await response.json()));
  }
}

/**
 * The THORChain deposits waiting for their outbound (`settling`: confirmed on their chain), asked of
 * THORNode every THORCHAIN_STATUS_POLL_MS while THORNODE_URL is set: SwapProgress.settled decides
 * under the swap's lock (completed when THORChain's stages say the outbound was signed, failed with
 * BRIDGE_REFUNDED when it refunded). THORNode is read outside any transaction; an answer it cannot
 * give now (down, an unexpected shape) is asked again at the next pass. Nothing lives in memory: a
 * restarted planner finds the steps still `settling`, and two instances decide a step once.
 */
@Injectable()
export class ThorchainSettlement implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ThorchainSettlement.name);
  private loop: PeriodicWork | undefined;

  constructor(
    private readonly store: SwapRepository,
    private readonly progress: SwapProgress,
    private readonly thornode: ThorchainStatusReader,
    private readonly config: ExecutionPlannerConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.THORNODE_URL === undefined) return;
    this.loop = new PeriodicWork({
      name: 'thorchain-settlement',
      intervalMs: this.config.THORCHAIN_STATUS_POLL_MS,
      run: () => this.checkOnce(),
    });
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /** One pass: every settling deposit asked once; how many were decided (completed or refunded). */
  async checkOnce(): Promise<number> {
    const waiting = await this.store.awaitingSettlement('thorchain', BATCH);
    const outcomes = await Promise.all(
      waiting.map(async (step) => {
        if (step.txHash === null) return 'ignored';
        let progress: ThorchainSwapProgress;
        try {
          progress = await this.thornode.progressOf(step.txHash);
        } catch (error) {
          this.logger.warn({
            msg: 'THORChain status unavailable; asked again at the next pass',
            swapId: step.swapId,
            stepId: step.id,
            error: (error as Error).message,
          });
          return 'waiting';
        }
        const outcome = await this.progress.settled(step.id, progress);
        if (outcome !== 'waiting')
          this.logger.log({ msg: 'THORChain settlement', swapId: step.swapId, stepId: step.id, outcome });
        return outcome;
      }),
    );
    return outcomes.filter((outcome) => outcome === 'completed' || outcome === 'refunded').length;
  }
}
