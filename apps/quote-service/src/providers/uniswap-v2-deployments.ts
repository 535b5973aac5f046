import { ChainRegistry, checksumEvmAddress } from '@swapgw/chains';

export interface UniswapV2Deployment {
  chain: string;
  factory: string;
  router: string;
  /** keccak256 of the pair creation code: pair addresses are computed, not looked up. */
  initCodeHash: string;
  /** Wrapped native coin: stands in for the native coin in paths. */
  weth: string;
}

/**
 * Where Uniswap V2 can be read on a chain: the chain's deployments (the shipped catalog for real
 * networks, the manifest for devnet chains). Only chains with an RPC URL qualify, since quotes read
 * reserves on chain.
 */
export function uniswapV2Deployment(
  registry: ChainRegistry,
  chainId: string,
): UniswapV2Deployment | undefined {
  // A registry's deployments are fixed at boot: each chain's is checksummed once, not per quote.
  let byChain = deploymentsByRegistry.get(registry);
  if (!byChain) {
    byChain = new Map();
    deploymentsByRegistry.set(registry, byChain);
  }
  if (!byChain.has(chainId)) byChain.set(chainId, deploymentOf(registry, chainId));
  return byChain.get(chainId);
}

const deploymentsByRegistry = new WeakMap<ChainRegistry, Map<string, UniswapV2Deployment | undefined>>();

function deploymentOf(registry: ChainRegistry, chainId: string): UniswapV2Deployment | undefined {
  if (!registry.find(chainId)?.rpcUrl) return undefined;
  const deployments = registry.deployments(chainId);
  const v2 = deployments?.uniswapV2;
  if (!v2 || !deployments.wrappedNative) return undefined;
  return {
    chain: chainId,
    factory: checksumEvmAddress(v2.factory),
    router: checksumEvmAddress(v2.router),
    initCodeHash: v2.initCodeHash,
    weth: checksumEvmAddress(deployments.wrappedNative),
  };
}
