import { Connection } from '@solana/web3.js';
import { chainRpcMetrics } from '@swapgw/runtime';
import { FetchRequest, JsonRpcPayload, JsonRpcProvider, JsonRpcResult, Network, Networkish } from 'ethers';
import { MulticallReads } from './evm/multicall-reads';

/** How long an RPC call may take when the caller does not say (RPC_TIMEOUT_MS's default). */
export const DEFAULT_RPC_TIMEOUT_MS = 5000;

/**
 * A JSON-RPC provider that counts every request it sends (`swapgw_rpc_requests_total`, by chain
 * and method), where it is sent: what a node provider bills and rate-limits. Plain `eth_call` reads
 * asked in the same turn of the event loop are sent as one Multicall3 `aggregate3` call.
 */
export class CountedJsonRpcProvider extends JsonRpcProvider {
  constructor(
    /** The chain's id in the registry (the metric's `chain` label). */
    readonly chainLabel: string,
    url: string | FetchRequest,
    network: Networkish,
    options: ConstructorParameters<typeof JsonRpcProvider>[2],
    /** How long a batch of plain reads waits for more after its first (MulticallReads); 0: the next turn. */
    readBatchWindowMs = 0,
  ) {
    super(url, network, options);
    this.reads = new MulticallReads((payload) => this.sendCounted(payload), readBatchWindowMs);
  }

  /** Plain reads leave together as one Multicall3 call (MulticallReads). */
  private readonly reads: MulticallReads;

  /** Whether the chain has Multicall3, asked now rather than on the first batch (start-up warm-up). */
  multicall3Present(): Promise<boolean> {
    return this.reads.warmUp();
  }

  override _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    return Array.isArray(payload) ? this.sendCounted(payload) : this.reads.request(payload);
  }

  private sendCounted(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    for (const request of Array.isArray(payload) ? payload : [payload])
      chainRpcMetrics.requestSent(this.chainLabel, request.method);
    return super._send(payload);
  }
}

/**
 * How long the providers of per-wallet reads (planning and signing: a wallet's balance, allowance
 * and permit nonce, which no other request shares) let a batch of plain view reads gather
 * (MulticallReads): a burst of payloads makes its reads one handler at a time, and they leave as
 * one Multicall3 call per window instead of one request each, for 10 ms more on a payload that
 * takes far longer to sign. (ethers' own JSON-RPC batching waits as long by default.)
 */
export const WALLET_READ_BATCH_WINDOW_MS = 10;

/** The options of a bounded provider: one request per HTTP call, no reuse of an earlier answer. */
export function boundedProviderSettings(rpcUrl: string, evmChainId: number, timeoutMs: number) {
  const request = new FetchRequest(rpcUrl);
  request.timeout = timeoutMs;
  const network = Network.from(evmChainId);
  return { request, network, options: { staticNetwork: network, batchMaxCount: 1, cacheTimeout: -1 } };
}

/**
 * An ethers provider whose every call is bounded by `timeoutMs`, with a static network: no
 * eth_chainId probe loop that retries forever while a node is down, and no 250 ms reuse of an
 * identical request's answer (a status look-up or a balance check must see the chain now).
 * `chainLabel` names the chain in the RPC request count (the registry's id); `readBatchWindowMs`
 * is how long plain view reads gather into one Multicall3 call (CountedJsonRpcProvider).
 */
export function boundedEvmProvider(
  rpcUrl: string,
  evmChainId: number,
  timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
  chainLabel = String(evmChainId),
  readBatchWindowMs = 0,
): JsonRpcProvider {
  const { request, network, options } = boundedProviderSettings(rpcUrl, evmChainId, timeoutMs);
  return new CountedJsonRpcProvider(chainLabel, request, network, options, readBatchWindowMs);
}

/**
 * A Solana Connection whose every RPC call is bounded by `timeoutMs`, so an unreachable node fails
 * the call promptly instead of hanging it. Failures are rethrown as this realm's Error: web3.js's
 * RPC client only settles a call for errors that are `instanceof Error` here, and undici's come
 * from Node's own realm under jest.
 */
export function boundedSolanaConnection(
  rpcUrl: string,
  timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
  chainLabel = 'solana',
): Connection {
  return new Connection(rpcUrl, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: (input, init) => {
      countSolanaRequests(chainLabel, init?.body);
      return fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }).catch((error: Error) => {
        const cause = error.cause as Error | undefined;
        throw new Error(`${error.message}${cause ? `: ${String(cause.message ?? cause)}` : ''}`);
      });
    },
  });
}

const JSON_RPC_METHOD = /"method"\s*:\s*"([A-Za-z0-9_]{1,64})"/g;

/** Counts the JSON-RPC requests of a web3.js request body (one, or a batch) by method. */
function countSolanaRequests(chainLabel: string, body: unknown): void {
  if (typeof body !== 'string') return;
  for (const match of body.matchAll(JSON_RPC_METHOD)) chainRpcMetrics.requestSent(chainLabel, match[1]);
}
