import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PeriodicWork } from '@swapgw/runtime';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { CctpMintReader } from './cosmos/cctp-mint-reader';
import { IbcPacketReader } from './cosmos/ibc-packet-reader';
import { NobleForwardingReader } from './cosmos/noble-forwarding-reader';
import { SettlementOutcome, SwapProgress } from './swap-progress.service';
import type { StepSettlement, SwapStepEntity } from './swap-step.entity';
import { SwapRepository } from './swap.repository';
import { ThorchainStatusReader } from './thornode-status-reader';

const BATCH = 20;

/** One settlement kind as the poller runs it: how often, what reads a step's protocol, what applies it. */
interface SettlementLane<Reading> {
  kind: StepSettlement;
  /** Off: this kind's steps are left as they are (THORChain's without THORNODE_URL). */
  enabled: boolean;
  intervalMs: number;
  /** What is read, in the logs. */
  what: string;
  /** The protocol's word on a settling step with a transaction; null while it has none to give. */
  read(step: SwapStepEntity & { txHash: string }): Promise<Reading | null>;
  /** Applies it under the swap's lock (SwapProgress). */
  apply(stepId: string, reading: Reading): Promise<SettlementOutcome>;
  /** What the logs say of it. */
  describe(reading: Reading): Record<string, unknown>;
}

/**
 * The steps `settling` (confirmed on their chain, waiting for the protocol that settles them), one
 * pass per settlement kind at its own interval: THORChain's deposits asked of THORNode's tx/status
 * every THORCHAIN_STATUS_POLL_MS while THORNODE_URL is set (ThorchainStatusReader), IBC transfers'
 * packets read from their chains every IBC_PACKET_POLL_MS (IbcPacketReader). The protocol is read
 * outside any transaction; SwapProgress tells each change once and decides under the swap's lock
 * (completed, refunded with BRIDGE_REFUNDED, or waiting). An answer the protocol cannot give now
 * (down, an unexpected shape) is asked again at the next pass. Nothing lives in memory: a restarted
 * planner finds the steps still `settling` with their progress as last told, and two instances
 * decide a step once. Burns on Noble towards Solana and Bitcoin wait for the payout there, and
 * deposits into the devnet bridge towards Noble (from an EVM chain, Solana, Bitcoin) for Noble's mint
 * or, a Bitcoin deposit, the vault's refund (CctpMintReader); bridge deposits paying a Noble
 * forwarding account wait for the route after it (NobleForwardingReader).
 */
@Injectable()
export class SettlementPoller implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SettlementPoller.name);
  private readonly lanes: Map<StepSettlement, SettlementLane<unknown>>;
  private readonly loops: PeriodicWork[] = [];

  constructor(
    private readonly store: SwapRepository,
    progress: SwapProgress,
    thornode: ThorchainStatusReader,
    packets: IbcPacketReader,
    config: ExecutionPlannerConfig,
    mints: CctpMintReader,
    forwards: NobleForwardingReader,
  ) {
    const lanes = [
      lane({
        kind: 'thorchain',
        enabled: config.THORNODE_URL !== undefined,
        intervalMs: config.THORCHAIN_STATUS_POLL_MS,
        what: 'THORChain status',
        read: (step) => thornode.progressOf(step.txHash),
        apply: (stepId, reading) => progress.thorchainMoved(stepId, reading),
        describe: (reading) => ({ phase: reading.phase, streaming: reading.streaming }),
      }),
      lane({
        kind: 'ibc',
        enabled: true,
        intervalMs: config.IBC_PACKET_POLL_MS,
        what: 'IBC packet',
        read: (step) => packets.packetOf(step.chain, step.txHash),
        apply: (stepId, reading) => progress.packetMoved(stepId, reading),
        describe: (reading) => ({ state: reading.state }),
      }),
      lane({
        kind: 'cctp',
        enabled: true,
        // A burn is read on Noble, then on the destination: as often as IBC's packets.
        intervalMs: config.IBC_PACKET_POLL_MS,
        what: 'CCTP mint',
        read: (step) => mints.mintOf(step.chain, step.txHash),
        apply: (stepId, reading) => progress.mintSeen(stepId, reading),
        describe: (reading) => ({ nonce: reading.nonce, mintTxHash: reading.mintTxHash }),
      }),
      lane({
        kind: 'forwarding',
        enabled: true,
        // The forward's packets are read as often as IBC's.
        intervalMs: config.IBC_PACKET_POLL_MS,
        what: 'Noble forwarding',
        read: (step) => {
          const forwarding = step.spec.nobleForwarding;
          if (!forwarding)
            throw new Error(`step ${step.id} settles by forwarding but has no nobleForwarding`);
          return forwards.progressOf(step.chain, step.txHash, forwarding);
        },
        apply: (stepId, reading) => progress.forwardingMoved(stepId, reading),
        describe: (reading) => ({
          payoutTxHash: reading.payoutTxHash,
          packets: reading.packets.map((packet) => `${packet.destinationChain}:${packet.state}`),
          outcome: reading.outcome,
        }),
      }),
    ];
    this.lanes = new Map(lanes.map((each) => [each.kind, each]));
  }

  onApplicationBootstrap(): void {
    for (const each of this.lanes.values()) {
      if (!each.enabled) continue;
      const loop = new PeriodicWork({
        name: `${each.kind}-settlement`,
        intervalMs: each.intervalMs,
        run: () => this.checkOnce(each.kind),
      });
      loop.start();
      this.loops.push(loop);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }

  /** One pass over `kind`'s settling steps, each asked once; how many were decided (completed, refunded or failed). */
  async checkOnce(kind: StepSettlement): Promise<number> {
    const each = this.lanes.get(kind);
    if (!each) throw new Error(`No settlement lane for ${kind}`);
    const waiting = await this.store.awaitingSettlement(kind, BATCH);
    const outcomes = await Promise.all(waiting.map((step) => this.settleOne(each, step)));
    return outcomes.filter(
      (outcome) => outcome === 'completed' || outcome === 'refunded' || outcome === 'failed',
    ).length;
  }

  private async settleOne(
    each: SettlementLane<unknown>,
    step: SwapStepEntity,
  ): Promise<SettlementOutcome | 'waiting'> {
    const { txHash } = step;
    if (txHash === null) return 'ignored';
    let reading: unknown;
    try {
      reading = await each.read({ ...step, txHash });
    } catch (error) {
      this.logger.warn({
        msg: `${each.what} unavailable; asked again at the next pass`,
        swapId: step.swapId,
        stepId: step.id,
        error: (error as Error).message,
      });
      return 'waiting';
    }
    if (reading === null) return 'waiting';
    const outcome = await each.apply(step.id, reading);
    if (outcome !== 'unchanged' && outcome !== 'ignored')
      this.logger.log({
        msg: each.what,
        swapId: step.swapId,
        stepId: step.id,
        ...each.describe(reading),
        outcome,
      });
    return outcome;
  }
}

/** A lane typed by its reading, kept beside the others. */
function lane<Reading>(typed: SettlementLane<Reading>): SettlementLane<unknown> {
  return typed as SettlementLane<unknown>;
}
