import { JsonRpcProvider, Network } from 'ethers';

/**
 * A provider for a local chain: static network (no chain id probe per call) and a short polling
 * interval, since blocks arrive within milliseconds under automine. Response caching is off:
 * ethers otherwise reuses an identical call's answer for 250 ms, so back-to-back transactions
 * would read the same pending nonce.
 */
export function localProvider(rpcUrl: string, chainId: number): JsonRpcProvider {
  const network = Network.from(chainId);
  return new JsonRpcProvider(rpcUrl, network, {
    staticNetwork: network,
    pollingInterval: 100,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
}
