import { Interface } from 'ethers';
import { DEVNET_BRIDGE_ABI } from '../contracts/abis';
import { evmRpc } from '../evm-json-rpc';

const bridge = new Interface(DEVNET_BRIDGE_ABI);

/**
 * The relayer's payouts on one EVM chain of transfers from one source: `nonce` → the transaction of
 * the bridge's `Release(sourceChainId, nonce, …)` event and the amount released, or undefined while
 * the relayer has not released it (the bridge releases a nonce once).
 */
export function bridgePayoutLookup(
  rpcUrl: string,
  bridgeAddress: string,
  sourceChainId: bigint,
): (nonce: bigint) => Promise<{ hash: string; amount: bigint } | undefined> {
  return async (nonce) => {
    const topics = bridge.encodeFilterTopics('Release', [sourceChainId, nonce]);
    const logs = (await evmRpc(rpcUrl, 'eth_getLogs', [
      { address: bridgeAddress, fromBlock: '0x0', toBlock: 'latest', topics },
    ])) as { transactionHash: string; topics: string[]; data: string }[];
    const [log] = logs;
    const release = log ? bridge.parseLog(log) : null;
    return release ? { hash: log.transactionHash, amount: release.args.amount as bigint } : undefined;
  };
}
