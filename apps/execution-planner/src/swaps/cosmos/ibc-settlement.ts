import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { CosmosStatusClient, ibcPacketProgress, type IbcCounterpartyOf } from '@swapgw/chains/families';
import type { SwapStepPacket } from '@swapgw/contracts';
import { PeriodicWork } from '@swapgw/runtime';
import { ExecutionPlannerConfig } from '../../config/execution-planner.config';
import { SwapProgress } from '../swap-progress.service';
import { SwapRepository } from '../swap.repository';

const BATCH = 20;
/** Bound of one CometBFT call (/tx, tx_search): the node answers from its index. */
const RPC_TIMEOUT_MS = 5_000;

/** Where the packet a Cosmos transfer sent is, from its chains; null while the transfer is not readable. */
export abstract class IbcPacketReader {
  abstract packetOf(chain: string, txHash: string): Promise<SwapStepPacket | null>;
}

/**
 * IbcPacketReader over the listed Cosmos chains' CometBFT RPCs (the chain registry): the transfer's
 * `send_packet` on its chain, the destination named by the source channel (the chain's ICS-20
 * channels), `recv_packet` there, `acknowledge_packet` or `timeout_packet` back on the source. What a
 * wallet or an explorer watching the relayers reads; nothing of the relayer itself.
 */
@Injectable()
export class CometIbcPacketReader extends IbcPacketReader {
  private readonly clients = new Map<string, CosmosStatusClient>();

  constructor(private readonly registry: ChainRegistry) {
    super();
  }

  packetOf(chain: string, txHash: string): Promise<SwapStepPacket | null> {
    const channels = this.registry.get(chain).cosmos?.ibcChannels ?? {};
    const counterpartyOf: IbcCounterpartyOf = (sourceChannel) => {
      const destination = Object.keys(channels).find((id) => channels[id] === sourceChannel);
      return destination && this.registry.find(destination)?.rpcUrl
        ? { chain: destination, rpc: this.client(destination) }
        : undefined;
    };
    return ibcPacketProgress(this.client(chain), counterpartyOf, txHash);
  }

  private client(chain: string): CosmosStatusClient {
    let client = this.clients.get(chain);
    if (!client) {
      const rpcUrl = this.registry.get(chain).rpcUrl;
      if (!rpcUrl) throw new Error(`Chain ${chain} has no CometBFT RPC`);
      client = new CosmosStatusClient({ id: chain, rpcUrl }, RPC_TIMEOUT_MS);
      this.clients.set(chain, client);
    }
    return client;
  }
}

/**
 * The Cosmos transfers waiting for their packet (`settling`, settlement `ibc`: confirmed on their
 * chain), their chains asked every IBC_PACKET_POLL_MS: SwapProgress.packetMoved tells each move once
 * under the swap's lock and decides (completed once acknowledged, failed with BRIDGE_REFUNDED once
 * timed out or refused). The chains are read outside any transaction; an answer they cannot give now
 * is asked again at the next pass. Nothing lives in memory: a restarted planner finds the steps still
 * `settling` with their packet as last told.
 */
@Injectable()
export class IbcSettlement implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IbcSettlement.name);
  private loop: PeriodicWork | undefined;

  constructor(
    private readonly store: SwapRepository,
    private readonly progress: SwapProgress,
    private readonly packets: IbcPacketReader,
    private readonly config: ExecutionPlannerConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = new PeriodicWork({
      name: 'ibc-settlement',
      intervalMs: this.config.IBC_PACKET_POLL_MS,
      run: () => this.checkOnce(),
    });
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /** One pass: every waiting transfer asked once; how many were decided (completed or refunded). */
  async checkOnce(): Promise<number> {
    const waiting = await this.store.awaitingSettlement('ibc', BATCH);
    const outcomes = await Promise.all(
      waiting.map(async (step) => {
        if (step.txHash === null) return 'ignored';
        let packet: SwapStepPacket | null;
        try {
          packet = await this.packets.packetOf(step.chain, step.txHash);
        } catch (error) {
          this.logger.warn({
            msg: 'IBC packet unreadable; asked again at the next pass',
            swapId: step.swapId,
            stepId: step.id,
            error: (error as Error).message,
          });
          return 'waiting';
        }
        if (packet === null) return 'waiting';
        const outcome = await this.progress.packetMoved(step.id, packet);
        if (outcome !== 'unchanged' && outcome !== 'ignored')
          this.logger.log({
            msg: 'IBC packet',
            swapId: step.swapId,
            stepId: step.id,
            state: packet.state,
            outcome,
          });
        return outcome;
      }),
    );
    return outcomes.filter((outcome) => outcome === 'completed' || outcome === 'refunded').length;
  }
}
