import { Connection } from '@solana/web3.js';
import { FetchRequest, JsonRpcProvider, Network } from 'ethers';

/** How long an RPC call may take when the caller does not say (RPC_TIMEOUT_MS's default). */
export const DEFAULT_RPC_TIMEOUT_MS = 5000;

/**
 * An ethers provider whose every call is bounded by `timeoutMs`, with a static network: no
 * eth_chainId probe loop that retries forever while a node is down, and no 250 ms reuse of an
 * identical request's answer (a status look-up or a balance check must see the chain now).
 */
export function boundedEvmProvider(
  rpcUrl: string,
  evmChainId: number,
  timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
): JsonRpcProvider {
  const request = new FetchRequest(rpcUrl);
  request.timeout = timeoutMs;
  const network = Network.from(evmChainId);
  return new JsonRpcProvider(request, network, {
    staticNetwork: network,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
}

/**
 * A Solana Connection whose every RPC call is bounded by `timeoutMs`, so an unreachable node fails
 * the call promptly instead of hanging it. Failures are rethrown as this realm's Error: web3.js's
 * RPC client only settles a call for errors that are `instanceof Error` here, and undici's come
 * from Node's own realm under jest.
 */
export function boundedSolanaConnection(rpcUrl: string, timeoutMs = DEFAULT_RPC_TIMEOUT_MS): Connection {
  return new Connection(rpcUrl, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: (input, init) =>
      fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }).catch((error: Error) => {
        const cause = error.cause as Error | undefined;
        throw new Error(`${error.message}${cause ? `: ${String(cause.message ?? cause)}` : ''}`);
      }),
  });
}
