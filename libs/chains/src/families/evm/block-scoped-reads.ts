import { AsyncLocalStorage } from 'node:async_hooks';
import { isError, toQuantity } from 'ethers';
import { CountedJsonRpcProvider } from '../bounded-rpc';

/**
 * Where the block parameter sits in the reads whose answer is a function of one block's state.
 * `eth_getTransactionCount` is pinned only for a block tag, never for `pending` (the mempool).
 */
const BLOCK_PARAMETER_INDEX: Readonly<Record<string, number>> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_getTransactionCount: 1,
};

/** Blocks whose answers are kept: the head and the one before it (a request still reading it). */
const BLOCKS_KEPT = 2;
/** The most answers kept for one block: past it, reads are still shared while in flight, not kept. */
const MAX_ANSWERS_PER_BLOCK = 5_000;

/**
 * Every head read started in this process gets the next number: a head read is fresh for a caller
 * when it started after the caller began (its number is above the caller's mark), so no answer is
 * older than the chain's head at the moment it was asked for.
 */
let headReadsStarted = 0;

/** One request's view of the chains: the block of each chain it read, fixed at its first read. */
interface ChainStateScope {
  /** headReadsStarted when the request began. */
  readonly mark: number;
  readonly blocks: Map<string, number>;
}

const scopes = new AsyncLocalStorage<ChainStateScope>();

/**
 * Runs `work` as one request on the chains' state: every block-scoped read it makes on a chain
 * reads the same block, the first head read on that chain started after `work` began (never a
 * state older than the request). `blocksRead()` names those blocks inside `work`.
 */
export function withChainStateScope<T>(work: () => Promise<T>): Promise<T> {
  return scopes.run({ mark: headReadsStarted, blocks: new Map() }, work);
}

/** The block each chain was read at in the current scope ({} outside one, or before any read). */
export function blocksRead(): Record<string, number> {
  const scope = scopes.getStore();
  return scope ? Object.fromEntries(scope.blocks) : {};
}

/**
 * An EVM provider whose reads of chain state (`eth_call`, balances, code, storage, nonces at a
 * block) are pinned to a block and answered once per block: every request of the same block shares
 * one RPC call per distinct read, and nothing of an older block is served. The block is the chain's
 * head as read by an `eth_blockNumber` that started after the request began; concurrent requests
 * share that head read, and requests that arrive while one is in flight wait for the next one, so a
 * flood costs one head read per round trip rather than one per request.
 *
 * A revert is an answer of the block (kept); a node that fails or times out is not (the next
 * caller asks again). Writes, `pending` reads, gas estimates and fee reads pass through unpinned.
 */
export class BlockScopedEvmProvider extends CountedJsonRpcProvider {
  private latestHead?: { readNumber: number; block: number };
  private headInFlight?: { readNumber: number; block: Promise<number> };
  private upcomingHeadRead?: Promise<number>;
  private readonly answers = new Map<number, Map<string, Promise<unknown>>>();

  override async send(method: string, params: unknown[] | Record<string, unknown>): Promise<unknown> {
    if (method === 'eth_blockNumber') return toQuantity(await this.blockForCaller());
    const index = BLOCK_PARAMETER_INDEX[method];
    if (index === undefined || !Array.isArray(params)) return super.send(method, params);
    const tag = params[index] ?? 'latest';
    if (tag !== 'latest' && !isBlockNumber(tag)) return super.send(method, params);
    const block = tag === 'latest' ? await this.blockForCaller() : Number(BigInt(tag as string));
    const pinned = [...params];
    while (pinned.length <= index) pinned.push(undefined);
    pinned[index] = toQuantity(block);
    return this.answerAt(block, method, pinned);
  }

  /** Answers kept now, over every kept block (tests and metrics). */
  get answersKept(): number {
    let count = 0;
    for (const answers of this.answers.values()) count += answers.size;
    return count;
  }

  private answerAt(block: number, method: string, params: unknown[]): Promise<unknown> {
    let answers = this.answers.get(block);
    if (!answers) {
      answers = new Map();
      this.answers.set(block, answers);
      this.forgetBlocksBefore(block - BLOCKS_KEPT + 1);
    }
    const key = `${method}:${JSON.stringify(params)}`;
    const kept = answers.get(key);
    if (kept) return kept;
    const answer = super.send(method, params);
    const blockAnswers = answers;
    if (blockAnswers.size < MAX_ANSWERS_PER_BLOCK) {
      blockAnswers.set(key, answer);
      answer.catch((error: unknown) => {
        if (!isError(error, 'CALL_EXCEPTION')) blockAnswers.delete(key);
      });
    }
    return answer;
  }

  private forgetBlocksBefore(oldestKept: number): void {
    for (const block of this.answers.keys()) if (block < oldestKept) this.answers.delete(block);
  }

  /** The block the caller reads: its scope's block of this chain, else a head fresh for it. */
  private async blockForCaller(): Promise<number> {
    const scope = scopes.getStore();
    const pinned = scope?.blocks.get(this.chainLabel);
    if (pinned !== undefined) return pinned;
    const block = await this.headAfter(scope ? scope.mark : headReadsStarted);
    // The first read of this chain in the scope fixes its block (a concurrent one may have won).
    if (scope && !scope.blocks.has(this.chainLabel)) scope.blocks.set(this.chainLabel, block);
    return scope?.blocks.get(this.chainLabel) ?? block;
  }

  /**
   * The head as read by an `eth_blockNumber` started after `mark`. Callers that find none join the
   * upcoming read, which starts on the next turn of the event loop (so that every caller of this
   * turn shares it) and, while an older read is in flight, once that one answered: at most one
   * head read is in flight per chain.
   */
  private headAfter(mark: number): Promise<number> {
    if (this.latestHead && this.latestHead.readNumber > mark) return Promise.resolve(this.latestHead.block);
    if (this.headInFlight && this.headInFlight.readNumber > mark) return this.headInFlight.block;
    if (!this.upcomingHeadRead) {
      const before = this.headInFlight?.block.catch(() => undefined) ?? Promise.resolve(undefined);
      this.upcomingHeadRead = before.then(nextTurn).then(() => {
        this.upcomingHeadRead = undefined;
        return this.readHead();
      });
    }
    return this.upcomingHeadRead;
  }

  private readHead(): Promise<number> {
    const readNumber = ++headReadsStarted;
    const block = (super.send('eth_blockNumber', []) as Promise<string>).then(
      (answer) => {
        const head = Number(BigInt(answer));
        if (!this.latestHead || this.latestHead.readNumber < readNumber)
          this.latestHead = { readNumber, block: head };
        if (this.headInFlight?.readNumber === readNumber) this.headInFlight = undefined;
        return head;
      },
      (error: unknown) => {
        if (this.headInFlight?.readNumber === readNumber) this.headInFlight = undefined;
        throw error;
      },
    );
    this.headInFlight = { readNumber, block };
    return block;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function isBlockNumber(tag: unknown): boolean {
  return typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag);
}
