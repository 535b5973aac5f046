import { Injectable } from '@nestjs/common';
import {
  inboundHash,
  readTxStatus,
  thorchainSwapProgress,
  type ThorchainSwapProgress,
} from '@swapgw/chains/bitcoin-bridge';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';

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
