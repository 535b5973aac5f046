import { ChainDescriptor, ChainRegistry } from '@swapgw/chains';
import { FetchRequest, JsonRpcProvider, Network } from 'ethers';

export type EvmSurfaceLookup =
  | { ok: true; chain: ChainDescriptor; evmChainId: bigint; provider: JsonRpcProvider }
  | { ok: false; reason: string };

/**
 * The chains signer-surface can sign and look up on: descriptors from the shared ChainRegistry,
 * with its own ethers providers so that every RPC call is bounded by RPC_TIMEOUT_MS (the shared
 * providers keep ethers' 5-minute default).
 */
export class SignerChains {
  private readonly providers = new Map<string, JsonRpcProvider>();

  constructor(
    readonly registry: ChainRegistry,
    private readonly rpcTimeoutMs: number,
  ) {}

  find(id: string): ChainDescriptor | undefined {
    return this.registry.find(id);
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

  destroy(): void {
    for (const provider of this.providers.values()) provider.destroy();
    this.providers.clear();
  }
}
