import { ChainRegistry } from '@swapgw/chains';
import { uniswapV2Deployment } from '../providers/uniswap-v2-deployments';

export const ProviderNames = {
  uniswapV2: 'uniswap-v2',
  devnetBridge: 'devnet-bridge',
  lifi: 'lifi',
} as const;

/**
 * Which providers can trade on a chain, hence which tokens are `supported`:
 *  - uniswap-v2 where a deployment is readable (devnet chains; Ethereum once RPC_URL_ETHEREUM is set);
 *  - devnet-bridge between devnet chains that have a bridge in the manifest;
 *  - lifi on the real networks when LIFI_API_URL is configured.
 * A real-network token is therefore listed but unsupported until an RPC or the aggregator is configured.
 */
export class SupportPolicy {
  constructor(
    private readonly registry: ChainRegistry,
    private readonly lifiEnabled: boolean,
  ) {}

  sameChainProviders(chainId: string): string[] {
    const chain = this.registry.find(chainId);
    if (!chain) return [];
    const providers: string[] = [];
    if (uniswapV2Deployment(this.registry, chainId)) providers.push(ProviderNames.uniswapV2);
    if (this.lifiEnabled && !chain.devnet) providers.push(ProviderNames.lifi);
    return providers;
  }

  crossChainProviders(fromChain: string, toChain: string): string[] {
    const from = this.registry.find(fromChain);
    const to = this.registry.find(toChain);
    if (!from || !to || fromChain === toChain) return [];
    const providers: string[] = [];
    if (from.devnet && to.devnet && this.registry.devnetChain(fromChain)?.bridge && this.registry.devnetChain(toChain)?.bridge) {
      providers.push(ProviderNames.devnetBridge);
    }
    if (this.lifiEnabled && !from.devnet && !to.devnet) providers.push(ProviderNames.lifi);
    return providers;
  }

  /** Every provider that can move a token of this chain, same-chain or across. */
  tokenProviders(chainId: string): string[] {
    const providers = new Set(this.sameChainProviders(chainId));
    for (const other of this.registry.list()) {
      for (const p of this.crossChainProviders(chainId, other.id)) providers.add(p);
    }
    return [...providers];
  }
}
