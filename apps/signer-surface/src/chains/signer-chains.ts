import { OnApplicationShutdown } from '@nestjs/common';
import { Connection } from '@solana/web3.js';
import { ChainDescriptor, ChainFamily, ChainRegistry, DevnetSolanaView } from '@swapgw/chains';
import { FetchRequest, JsonRpcProvider, Network } from 'ethers';
import { createSolanaConnection } from '../signing/solana/solana-transaction-status';

export type EvmSurfaceLookup =
  | { ok: true; chain: ChainDescriptor; evmChainId: bigint; provider: JsonRpcProvider }
  | { ok: false; reason: string };

export type SolanaSurfaceLookup =
  | { ok: true; chain: ChainDescriptor; connection: Connection; devnet: DevnetSolanaView | undefined; slotMs: number }
  | { ok: false; reason: string };

/** Solana's target slot time, for chains whose manifest does not say (blockhash validity → ms). */
export const DEFAULT_SOLANA_SLOT_MS = 400;

/**
 * The chains signer-surface can sign and look up on: descriptors from the shared ChainRegistry,
 * with its own ethers providers so that every RPC call is bounded by RPC_TIMEOUT_MS (the shared
 * providers keep ethers' 5-minute default). Its providers are released when the app shuts down, after
 * the signing and relaying loops have stopped (they stop when the modules are destroyed).
 */
export class SignerChains implements OnApplicationShutdown {
  private readonly providers = new Map<string, JsonRpcProvider>();
  private readonly solanaConnections = new Map<string, Connection>();

  constructor(
    readonly registry: ChainRegistry,
    private readonly rpcTimeoutMs: number,
  ) {}

  find(id: string): ChainDescriptor | undefined {
    return this.registry.find(id);
  }

  familyOf(id: string): ChainFamily | undefined {
    return this.registry.find(id)?.family;
  }

  /** The Solana signing surface of a chain (a bounded Connection), or why there is none. */
  solanaSurface(id: string): SolanaSurfaceLookup {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    if (chain.family !== 'solana') return { ok: false, reason: `chain ${id} is a ${chain.family} chain, not a Solana chain` };
    if (!chain.rpcUrl) {
      return { ok: false, reason: `chain ${id} has no RPC URL configured${chain.rpcEnv ? ` (${chain.rpcEnv})` : ''}` };
    }
    let connection = this.solanaConnections.get(id);
    if (!connection) {
      connection = createSolanaConnection(chain.rpcUrl, this.rpcTimeoutMs);
      this.solanaConnections.set(id, connection);
    }
    const devnet = this.registry.devnetSolana(id);
    return { ok: true, chain, connection, devnet, slotMs: devnet?.slotMs ?? DEFAULT_SOLANA_SLOT_MS };
  }

  /** The EVM signing surface of a chain, or why there is none (unknown, not EVM, no RPC URL). */
  evmSurface(id: string): EvmSurfaceLookup {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    if (chain.family !== 'evm' || chain.evmChainId === undefined) {
      return { ok: false, reason: `chain ${id} is a ${chain.family} chain; its signing surface is not available yet` };
    }
    if (!chain.rpcUrl) {
      return { ok: false, reason: `chain ${id} has no RPC URL configured${chain.rpcEnv ? ` (${chain.rpcEnv})` : ''}` };
    }
    return { ok: true, chain, evmChainId: BigInt(chain.evmChainId), provider: this.provider(chain) };
  }

  private provider(chain: ChainDescriptor): JsonRpcProvider {
    const cached = this.providers.get(chain.id);
    if (cached) return cached;
    const request = new FetchRequest(chain.rpcUrl as string);
    request.timeout = this.rpcTimeoutMs;
    const network = Network.from(chain.evmChainId as number);
    // Static network: no eth_chainId probe loop that retries forever while a node is down.
    const provider = new JsonRpcProvider(request, network, {
      staticNetwork: network,
      batchMaxCount: 1,
      // ethers reuses an identical request's answer for 250 ms; a status look-up must see the chain now.
      cacheTimeout: -1,
    });
    this.providers.set(chain.id, provider);
    return provider;
  }

  onApplicationShutdown(): void {
    this.destroy();
  }

  destroy(): void {
    for (const provider of this.providers.values()) provider.destroy();
    this.providers.clear();
    this.solanaConnections.clear();
  }
}
