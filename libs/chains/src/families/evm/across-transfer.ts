import { getAddress, JsonRpcProvider, Log, toBeHex, zeroPadValue } from 'ethers';
import type { BridgeTransferView } from '@swapgw/contracts';
import type { ChainRegistry } from '../../chain-registry';
import { boundedEvmProvider } from '../bounded-rpc';
import {
  ACROSS_FILLED_RELAY_TOPIC,
  ACROSS_FUNDS_DEPOSITED_TOPIC,
  ACROSS_SPOKE_POOL_INTERFACE,
} from './across-calldata';

/** Blocks per eth_getLogs call when looking for a fill (providers cap the range of one call). */
const LOG_CHUNK_BLOCKS = 10_000;
/** At most this many chunks back from the destination's head: a fill older than that reads as not found. */
const MAX_LOG_CHUNKS = 20;
const CLOCK_SLACK_MS = 60_000;

/**
 * The Across transfer a transaction started, as Across itself identifies it: the FundsDeposited
 * event of the chain's SpokePool in the transaction's receipt (deposit id, destination, recipient,
 * output, fill deadline), and on the destination chain the FilledRelay of that origin chain and
 * deposit id (the fill's transaction and time). Undefined when the transaction made no deposit into
 * the chain's SpokePool (or its receipt is not there yet). The fill is `unknown` when the
 * destination is not a chain with an RPC here or did not answer; `expired` once the destination's
 * head is past the fill deadline without a fill (Across then refunds the depositor on the origin).
 */
export async function acrossTransferOf(
  registry: ChainRegistry,
  chainId: string,
  txHash: string,
  timeoutMs: number,
): Promise<BridgeTransferView | undefined> {
  const origin = registry.find(chainId);
  const spokePool = registry.deployments(chainId)?.across?.spokePool;
  if (!origin?.rpcUrl || origin.evmChainId === undefined || !spokePool) return undefined;
  const provider = boundedEvmProvider(origin.rpcUrl, origin.evmChainId, timeoutMs, origin.id);
  let receipt;
  let depositedAtMs: number;
  try {
    receipt = await provider.getTransactionReceipt(txHash);
    const block = receipt ? await provider.getBlock(receipt.blockNumber) : null;
    depositedAtMs = (block?.timestamp ?? 0) * 1000;
  } finally {
    provider.destroy();
  }
  const log = receipt?.logs.find(
    (l) => l.topics[0] === ACROSS_FUNDS_DEPOSITED_TOPIC && getAddress(l.address) === getAddress(spokePool),
  );
  if (!receipt || !log) return undefined;
  const deposit = fundsDepositedOf(log);
  const destinationChainId = Number(deposit.destinationChainId);
  const destination = registry
    .list()
    .find((chain) => chain.family === 'evm' && chain.evmChainId === destinationChainId);
  const transfer: BridgeTransferView = {
    protocol: 'across',
    depositId: deposit.depositId.toString(),
    originChain: chainId,
    destinationChain: destination?.id ?? `eip155:${destinationChainId}`,
    recipient: bytes32ToAddress(deposit.recipient),
    outputToken: bytes32ToAddress(deposit.outputToken),
    outputAmount: deposit.outputAmount.toString(),
    fillDeadlineMs: Number(deposit.fillDeadline) * 1000,
    fill: { status: 'unknown' },
  };
  const destinationPool = destination ? registry.deployments(destination.id)?.across?.spokePool : undefined;
  if (!destination?.rpcUrl || !destinationPool) return transfer;
  const destinationProvider = boundedEvmProvider(
    destination.rpcUrl,
    destinationChainId,
    timeoutMs,
    destination.id,
  );
  try {
    transfer.fill = await fillOf(destinationProvider, destinationPool, origin.evmChainId, deposit.depositId, {
      depositedAtMs,
      fillDeadlineMs: transfer.fillDeadlineMs,
    });
  } catch {
    // The destination did not answer: the deposit is known, its fill is not.
  } finally {
    destinationProvider.destroy();
  }
  return transfer;
}

async function fillOf(
  provider: JsonRpcProvider,
  spokePool: string,
  originChainId: number,
  depositId: bigint,
  times: { depositedAtMs: number; fillDeadlineMs: number },
): Promise<BridgeTransferView['fill']> {
  const head = await provider.getBlock('latest');
  if (!head) return { status: 'unknown' };
  const topics = [
    ACROSS_FILLED_RELAY_TOPIC,
    zeroPadValue(toBeHex(originChainId), 32),
    zeroPadValue(toBeHex(depositId), 32),
  ];
  // Newest blocks first, a chunk at a time, back to the deposit's time (a fill cannot precede it;
  // a minute of slack for the two chains' clocks).
  let found: Log | undefined;
  for (let chunk = 0, to = head.number; chunk < MAX_LOG_CHUNKS && to >= 0 && !found; chunk++) {
    const from = Math.max(0, to - LOG_CHUNK_BLOCKS + 1);
    const logs = await provider.getLogs({ address: spokePool, topics, fromBlock: from, toBlock: to });
    found = logs[0];
    const start = from > 0 ? await provider.getBlock(from) : null;
    if (!start || start.timestamp * 1000 < times.depositedAtMs - CLOCK_SLACK_MS) break;
    to = from - 1;
  }
  if (found) {
    const block = await provider.getBlock(found.blockNumber);
    return {
      status: 'filled',
      txHash: found.transactionHash,
      ...(block ? { filledAtMs: block.timestamp * 1000 } : {}),
    };
  }
  return { status: head.timestamp * 1000 > times.fillDeadlineMs ? 'expired' : 'pending' };
}

/** The arguments of a log whose topic0 is FundsDeposited (the interface declares that event). */
function fundsDepositedOf(log: Log) {
  const event = ACROSS_SPOKE_POOL_INTERFACE.parseLog(log);
  if (!event) throw new Error(`log ${log.transactionHash}:${log.index} is not FundsDeposited`);
  return event.args;
}

function bytes32ToAddress(word: string): string {
  return getAddress(`0x${word.slice(-40)}`);
}
