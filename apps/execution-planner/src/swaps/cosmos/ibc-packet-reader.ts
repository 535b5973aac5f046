import { Injectable } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { CosmosStatusClient, ibcPacketProgress, type IbcCounterpartyOf } from '@swapgw/chains/families';
import type { SwapStepPacket } from '@swapgw/contracts';

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
  private readonly clients: CometClients;

  constructor(private readonly registry: ChainRegistry) {
    super();
    this.clients = new CometClients(registry);
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
    return this.clients.of(chain);
  }
}

/** One CometBFT client per listed Cosmos chain (its registry `rpcUrl`), made on first use. */
export class CometClients {
  private readonly clients = new Map<string, CosmosStatusClient>();

  constructor(private readonly registry: ChainRegistry) {}

  of(chain: string): CosmosStatusClient {
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
