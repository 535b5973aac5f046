import { id, Interface, JsonRpcPayload, JsonRpcResult } from 'ethers';
import { type Aggregate3Call, encodeAggregate3Calls, selectorOf } from './abi-words';

/**
 * Multicall3, at the address it has on every EVM chain that has it (mainnets, L2s and testnets:
 * deployed by the same keyless transaction), and on the devnet and the mainnet replica.
 */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

const multicall3 = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
]);
const AGGREGATE3_SELECTOR = selectorOf(multicall3, 'aggregate3');

/** aggregate3's calldata for `calls`: encoded by hand (abi-words.ts), by ethers for what that declines. */
function aggregate3CallData(calls: Aggregate3Call[]): string {
  const encoded = encodeAggregate3Calls(calls);
  return encoded !== null
    ? AGGREGATE3_SELECTOR + encoded
    : multicall3.encodeFunctionData('aggregate3', [calls]);
}

/**
 * The most reads one `aggregate3` carries. Each sub-call gets 63/64 of the gas left and a node caps
 * an eth_call's gas (anvil at the block gas limit, geth at 50M): 50 Uniswap V3 quotes (≤ 200k gas
 * each) fit with room, and the calldata stays far below a node's request size limit.
 */
export const MAX_READS_PER_MULTICALL = 50;

/**
 * The reads batched: views whose answer, and revert, do not depend on who calls (inside
 * aggregate3 the caller is Multicall3, not the zero address a plain eth_call has). A call whose
 * revert names its caller (an ERC-20 `transferFrom` simulated without an allowance names
 * `msg.sender`) would answer differently, so only these selectors are batched.
 */
const SENDER_INDEPENDENT_READS = new Set(
  [
    // ERC-20 and EIP-2612
    'balanceOf(address)',
    'allowance(address,address)',
    'nonces(address)',
    'decimals()',
    'symbol()',
    'name()',
    'totalSupply()',
    'DOMAIN_SEPARATOR()',
    // Permit2
    'allowance(address,address,address)',
    'nonceBitmap(address,uint256)',
    // Uniswap V2 factory, pair and Router02
    'getPair(address,address)',
    'getReserves()',
    'token0()',
    'token1()',
    'getAmountsOut(uint256,address[])',
    'getAmountsIn(uint256,address[])',
    // Uniswap V3 factory, pool and QuoterV2
    'getPool(address,address,uint24)',
    'slot0()',
    'liquidity()',
    'quoteExactInputSingle((address,address,uint256,uint24,uint160))',
    'quoteExactOutputSingle((address,address,uint256,uint24,uint160))',
  ].map((signature) => id(signature).slice(0, 10)),
);

/** Sends one JSON-RPC request to the node (counted where it is sent). */
export type SendToNode = (payload: JsonRpcPayload) => Promise<JsonRpcResult[]>;

interface PendingRead {
  payload: JsonRpcPayload;
  target: string;
  data: string;
  resolve(results: JsonRpcResult[]): void;
  reject(error: unknown): void;
}

/**
 * Read-only `eth_call`s leave as one `eth_call` to Multicall3's `aggregate3` per block tag and
 * batch, not one request each (issue 44: RPC calls per swap, which node providers bill and
 * rate-limit). A batch takes the reads asked in one turn of the event loop, and, while a batch of
 * the same tag is in flight, every read asked until it answers: a quiet chain's read leaves at once
 * and alone, a flood of a thousand wallets' balance, allowance and permit-nonce reads leaves in a
 * few calls. Each read is answered as the node would have answered it alone: its return data, or a
 * JSON-RPC `execution reverted` error carrying the revert data (ethers raises the same
 * CALL_EXCEPTION). Nothing is kept: every batch leaves after the reads in it were asked, so no
 * answer is older than a direct read at the moment it was asked.
 *
 * Only plain reads of known views are batched (SENDER_INDEPENDENT_READS): `{to, data}` at
 * `latest` or a block number, with no `from`, `value`, gas or state override. A batch of one read
 * goes out as it is. A chain without Multicall3 at its address (the first batch asks
 * `eth_getCode` once) gets every read sent directly.
 */
export class MulticallReads {
  /** Reads waiting for their batch, by block tag. */
  private readonly pending = new Map<string, PendingRead[]>();
  /** Tags whose batch leaves on the next turn. */
  private readonly scheduled = new Set<string>();
  /** Batches sent and not yet answered, by block tag. */
  private readonly inFlight = new Map<string, number>();
  /** Whether the chain has Multicall3: unknown until the first batch asks. */
  private available?: Promise<boolean>;

  /**
   * @param windowMs how long a batch waits for more reads after its first one: 0 for the next turn
   *   of the event loop; a few milliseconds gather a flood's reads that arrive one handler at a time.
   */
  constructor(
    private readonly send: SendToNode,
    private readonly windowMs = 0,
    private readonly address = MULTICALL3_ADDRESS,
  ) {}

  /** A read this batches, with its block tag; null for any other request. */
  static batchableRead(payload: JsonRpcPayload): { tag: string; target: string; data: string } | null {
    if (payload.method !== 'eth_call' || !Array.isArray(payload.params)) return null;
    const [call, tag = 'latest', ...rest] = payload.params as [unknown, unknown, ...unknown[]];
    if (rest.length > 0 || typeof tag !== 'string') return null;
    if (tag !== 'latest' && !/^0x[0-9a-f]+$/i.test(tag)) return null;
    if (!call || typeof call !== 'object') return null;
    const { to, data, ...others } = call as Record<string, unknown>;
    if (Object.keys(others).length > 0 || typeof to !== 'string' || typeof data !== 'string') return null;
    if (!SENDER_INDEPENDENT_READS.has(data.slice(0, 10).toLowerCase())) return null;
    return { tag, target: to, data };
  }

  /**
   * Asks now whether the chain has Multicall3 (what the first batch would ask): a start-up
   * warm-up, so the first flood's reads do not wait for an `eth_getCode` first. Asked once; a
   * failed ask is asked again by the next batch.
   */
  warmUp(): Promise<boolean> {
    return this.isAvailable(0);
  }

  /** Sends `payload` in its tag's next batch when it is a plain read of a known view, else at once. */
  request(payload: JsonRpcPayload): Promise<JsonRpcResult[]> {
    const read = MulticallReads.batchableRead(payload);
    if (!read || read.target.toLowerCase() === this.address.toLowerCase()) return this.send(payload);
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(read.tag) ?? [];
      queue.push({ payload, target: read.target, data: read.data, resolve, reject });
      this.pending.set(read.tag, queue);
      if (!this.inFlight.get(read.tag)) this.schedule(read.tag);
    });
  }

  /**
   * The tag's batch leaves on the next turn, after the I/O callbacks of this one (every handler
   * woken by the same poll joins it), or `windowMs` after its first read. While a batch of the tag
   * is in flight, reads wait for its answer and leave together then: a quiet chain's read goes out
   * at once, a flood's reads leave in as few calls as the node's round trips allow.
   */
  private schedule(tag: string): void {
    if (this.scheduled.has(tag)) return;
    this.scheduled.add(tag);
    const after = (leave: () => void) =>
      this.windowMs > 0 ? void setTimeout(leave, this.windowMs) : void setImmediate(leave);
    after(() => {
      this.scheduled.delete(tag);
      const reads = this.pending.get(tag) ?? [];
      this.pending.delete(tag);
      for (let start = 0; start < reads.length; start += MAX_READS_PER_MULTICALL) {
        this.inFlight.set(tag, (this.inFlight.get(tag) ?? 0) + 1);
        void this.sendBatch(tag, reads.slice(start, start + MAX_READS_PER_MULTICALL)).finally(() => {
          const left = (this.inFlight.get(tag) ?? 1) - 1;
          if (left > 0) this.inFlight.set(tag, left);
          else this.inFlight.delete(tag);
          if (left <= 0 && this.pending.has(tag)) this.schedule(tag);
        });
      }
    });
  }

  private async sendBatch(tag: string, reads: PendingRead[]): Promise<void> {
    if (reads.length === 1 || !(await this.isAvailable(reads[0].payload.id))) return this.sendEach(reads);
    let answer: JsonRpcResult;
    try {
      const calls = reads.map((read) => ({ target: read.target, allowFailure: true, callData: read.data }));
      [answer] = await this.send({
        id: reads[0].payload.id,
        jsonrpc: '2.0',
        method: 'eth_call',
        params: [{ to: this.address, data: aggregate3CallData(calls) }, tag],
      });
    } catch (error) {
      // The node did not answer: every read of the batch fails as it would have alone.
      for (const read of reads) read.reject(error);
      return;
    }
    const results = 'error' in answer ? null : aggregate3Results(answer.result);
    if (!results || results.length !== reads.length) {
      // The batch as a whole was refused (a gas cap, a size limit), or answered with what Multicall3
      // would not answer: no code there now (a chain reset, a node still being set up), so the next
      // batch asks again whether it is there. Each read is asked alone.
      if (!('error' in answer)) this.available = undefined;
      return this.sendEach(reads);
    }
    reads.forEach((read, index) => {
      const { success, returnData } = results[index];
      const id = read.payload.id;
      read.resolve([
        success
          ? { id, result: returnData }
          : ({ id, error: { code: 3, message: 'execution reverted', data: returnData } } as never),
      ]);
    });
  }

  private async sendEach(reads: PendingRead[]): Promise<void> {
    await Promise.all(reads.map((read) => this.send(read.payload).then(read.resolve, read.reject)));
  }

  /** Whether Multicall3 has code on the chain, asked once (a failed ask is asked again next batch). */
  private async isAvailable(requestId: JsonRpcPayload['id']): Promise<boolean> {
    this.available ??= this.send({
      id: requestId,
      jsonrpc: '2.0',
      method: 'eth_getCode',
      params: [this.address, 'latest'],
    }).then(
      ([answer]) => 'result' in answer && typeof answer.result === 'string' && answer.result.length > 2,
      (error: unknown) => {
        this.available = undefined;
        throw error;
      },
    );
    try {
      return await this.available;
    } catch {
      return false;
    }
  }
}

/** aggregate3's answer, or null when the data is not one (an address without Multicall3's code). */
function aggregate3Results(data: unknown): Array<{ success: boolean; returnData: string }> | null {
  if (typeof data !== 'string') return null;
  try {
    const [results] = multicall3.decodeFunctionResult('aggregate3', data);
    return (results as Array<{ success: boolean; returnData: string }>).map(({ success, returnData }) => ({
      success,
      returnData,
    }));
  } catch {
    return null;
  }
}
