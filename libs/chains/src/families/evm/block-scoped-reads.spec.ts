import { JsonRpcError, JsonRpcPayload, JsonRpcResult, Network, isError, toQuantity } from 'ethers';
import { BlockScopedEvmProvider, blocksRead, withChainStateScope } from './block-scoped-reads';

const NETWORK = Network.from(31337);
const REVERTING = '0xdead';

/**
 * A node behind the provider's transport: answers eth_blockNumber with `head` (each answer held
 * until released when `holdHeads` is on), eth_call with the block it was asked at (or a revert),
 * and fails a call whose data is `failing`. Records every request.
 */
class FakeNode extends BlockScopedEvmProvider {
  head = 100;
  holdHeads = false;
  failing?: string;
  readonly sent: JsonRpcPayload[] = [];
  private readonly heldHeads: Array<() => void> = [];

  constructor() {
    super('devnet-a', 'http://127.0.0.1:1', NETWORK, { staticNetwork: NETWORK, batchMaxCount: 1 });
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const requests = Array.isArray(payload) ? payload : [payload];
    return Promise.all(requests.map((request) => this.answer(request))) as Promise<JsonRpcResult[]>;
  }

  /** Lets the oldest held eth_blockNumber answer (with the head as it is now). */
  releaseHead(): void {
    this.heldHeads.shift()?.();
  }

  count(method: string): number {
    return this.sent.filter((request) => request.method === method).length;
  }

  private async answer(request: JsonRpcPayload): Promise<JsonRpcResult | JsonRpcError> {
    this.sent.push(request);
    const params = request.params as unknown[];
    if (request.method === 'eth_blockNumber') {
      const head = this.head; // the head when the node got the request
      if (this.holdHeads) await new Promise<void>((release) => this.heldHeads.push(release));
      return { id: request.id, result: toQuantity(head) };
    }
    if (request.method === 'eth_call') {
      const { data } = params[0] as { data: string };
      if (data === this.failing) throw new Error('connection reset');
      if (data === REVERTING)
        return { id: request.id, error: { code: 3, message: 'execution reverted', data: '0x' } };
      return { id: request.id, result: params[1] as string };
    }
    return { id: request.id, result: '0x7' };
  }
}

const call = (node: FakeNode, data = '0x01') =>
  node.send('eth_call', [{ to: '0x' + '11'.repeat(20), data }, 'latest']) as Promise<string>;
/** Long enough for the provider's queued requests to reach the node. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('BlockScopedEvmProvider', () => {
  it("pins a read of 'latest' to the head, and concurrent readers share one head read and one call", async () => {
    const node = new FakeNode();
    const answers = await Promise.all([call(node), call(node), call(node)]);
    expect(answers).toEqual([toQuantity(100), toQuantity(100), toQuantity(100)]);
    expect(node.count('eth_blockNumber')).toBe(1);
    expect(node.count('eth_call')).toBe(1);
    node.destroy();
  });

  it('never answers from a head read that started before the read was asked', async () => {
    const node = new FakeNode();
    node.holdHeads = true;
    const early = call(node);
    await flush();
    // The chain moves while the first head read is in flight; a read asked now must see it.
    node.head = 101;
    const late = call(node);
    const alsoLate = call(node);
    node.releaseHead();
    await expect(early).resolves.toBe(toQuantity(100)); // its head read was asked before the move
    await flush();
    node.releaseHead();
    await expect(late).resolves.toBe(toQuantity(101));
    await expect(alsoLate).resolves.toBe(toQuantity(101));
    // The two late readers shared the second head read.
    expect(node.count('eth_blockNumber')).toBe(2);
    node.destroy();
  });

  it('reads again at a new block, keeps a revert for its block and forgets a failed read', async () => {
    const node = new FakeNode();
    await call(node);
    node.head = 101;
    await expect(call(node)).resolves.toBe(toQuantity(101));
    expect(node.count('eth_call')).toBe(2);

    const reverted = async () => {
      try {
        await call(node, REVERTING);
        return 'answered';
      } catch (error) {
        return isError(error, 'CALL_EXCEPTION') ? 'reverted' : String(error);
      }
    };
    expect(await reverted()).toBe('reverted');
    expect(await reverted()).toBe('reverted');
    expect(node.count('eth_call')).toBe(3); // the revert is the block's answer: asked once

    node.failing = '0x02';
    await expect(call(node, '0x02')).rejects.toThrow();
    node.failing = undefined;
    await expect(call(node, '0x02')).resolves.toBe(toQuantity(101));
    expect(node.count('eth_call')).toBe(5); // a failure is not an answer: asked again
    node.destroy();
  });

  it('keeps the answers of the head and the block before it only', async () => {
    const node = new FakeNode();
    for (const head of [100, 101, 102, 103]) {
      node.head = head;
      await call(node);
    }
    expect(node.answersKept).toBe(2);
    node.destroy();
  });

  it('reads every chain of one request at one block, named by blocksRead, even when the head moves', async () => {
    const node = new FakeNode();
    const seen = await withChainStateScope(async () => {
      const first = await call(node);
      node.head = 105;
      const second = await call(node, '0x03');
      const balance = await node.send('eth_getBalance', ['0x' + '22'.repeat(20), 'latest']);
      return { first, second, balance, blocks: blocksRead() };
    });
    expect(seen.first).toBe(toQuantity(100));
    expect(seen.second).toBe(toQuantity(100));
    expect(seen.blocks).toEqual({ 'devnet-a': 100 });
    const getBalance = node.sent.find((request) => request.method === 'eth_getBalance');
    expect((getBalance?.params as unknown[])[1]).toBe(toQuantity(100));
    // Outside the scope, the next read sees the new head.
    await expect(call(node)).resolves.toBe(toQuantity(105));
    node.destroy();
  });

  it('leaves mempool reads and writes unpinned', async () => {
    const node = new FakeNode();
    await node.send('eth_getTransactionCount', ['0x' + '22'.repeat(20), 'pending']);
    await node.send('eth_sendRawTransaction', ['0x00']);
    expect(node.count('eth_blockNumber')).toBe(0);
    const nonce = node.sent.find((request) => request.method === 'eth_getTransactionCount');
    expect((nonce?.params as unknown[])[1]).toBe('pending');
    node.destroy();
  });
});
