import { Interface } from 'ethers';
import { bitcoinDepositNonce } from '@swapgw/chains/bitcoin-bridge';
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

/**
 * The relayer's payout on one EVM chain of a Bitcoin deposit, by the deposit's txid (THORNode's
 * inbound hash): bridgePayoutLookup under the deposit's nonce (bitcoinDepositNonce).
 */
export function bitcoinDepositPayoutLookup(
  rpcUrl: string,
  bridgeAddress: string,
  bitcoinBridgeChainId: bigint,
): (inboundHash: string) => Promise<{ hash: string; amount: bigint } | undefined> {
  const byNonce = bridgePayoutLookup(rpcUrl, bridgeAddress, bitcoinBridgeChainId);
  return (hash) => byNonce(bitcoinDepositNonce(hash.toLowerCase()));
}
