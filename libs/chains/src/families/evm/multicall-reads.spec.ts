import { Interface, JsonRpcPayload, JsonRpcResult } from 'ethers';
import { MAX_READS_PER_MULTICALL, MULTICALL3_ADDRESS, MulticallReads } from './multicall-reads';

const multicall3 = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
]);
const TOKEN = '0x' + '11'.repeat(20);
/** balanceOf(…) with `suffix` as its argument bytes: a read the batcher takes. */
const balanceRead = (suffix: string) => `0x70a08231${suffix.slice(2)}`;
const REVERTING = balanceRead('0xdead');

/**
 * A node with Multicall3 (unless `hasMulticall` is off): a plain call with data `0x<d>` answers
 * `0x00<d>`, `REVERTING` reverts with `0x08c379a0`; aggregate3 runs each sub-call the same way.
 * Records every request it was sent.
 */
class FakeNode {
  hasMulticall = true;
  failAggregate = false;
  readonly sent: JsonRpcPayload[] = [];

  readonly send = async (payload: JsonRpcPayload): Promise<JsonRpcResult[]> => {
    this.sent.push(payload);
    const params = payload.params as unknown[];
    if (payload.method === 'eth_getCode')
      return [{ id: payload.id, result: this.hasMulticall ? '0x6080' : '0x' }];
    if (payload.method !== 'eth_call') return [{ id: payload.id, result: '0x7' }];
    const { to, data } = params[0] as { to: string; data: string };
    if (to === MULTICALL3_ADDRESS) {
      if (this.failAggregate)
        return [{ id: payload.id, error: { code: -32000, message: 'gas cap' } } as never];
      const [calls] = multicall3.decodeFunctionData('aggregate3', data) as unknown as [
        Array<{ target: string; callData: string }>,
      ];
      const results = calls.map((call) =>
        call.callData === REVERTING
          ? { success: false, returnData: '0x08c379a0' }
          : { success: true, returnData: answerOf(call.callData) },
      );
      return [{ id: payload.id, result: multicall3.encodeFunctionResult('aggregate3', [results]) }];
    }
    if (data === REVERTING)
      return [
        { id: payload.id, error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } } as never,
      ];
    return [{ id: payload.id, result: answerOf(data) }];
  };

  count(method: string, to?: string): number {
    return this.sent.filter(
      (p) => p.method === method && (!to || (p.params as Array<{ to?: string }>)[0]?.to === to),
    ).length;
  }
}

const answerOf = (data: string) => `0x00${data.slice(2)}`;
let nextId = 1;
const read = (data: string, tag: string = 'latest', extra: Record<string, unknown> = {}): JsonRpcPayload => ({
  id: nextId++,
  jsonrpc: '2.0',
  method: 'eth_call',
  params: [{ to: TOKEN, data, ...extra }, tag],
});

describe('MulticallReads', () => {
  it('sends the reads of one turn as one aggregate3 call and answers each with its own result', async () => {
    const node = new FakeNode();
    const reads = new MulticallReads(node.send);
    const payloads = ['0x01', '0x02', '0x03'].map((suffix) => read(balanceRead(suffix)));
    const answers = await Promise.all(payloads.map((payload) => reads.request(payload)));
    expect(answers).toEqual(
      payloads.map((payload, i) => [{ id: payload.id, result: answerOf(balanceRead(`0x0${i + 1}`)) }]),
    );
    expect(node.count('eth_call', MULTICALL3_ADDRESS)).toBe(1);
    expect(node.count('eth_call')).toBe(1);
    expect(node.count('eth_getCode')).toBe(1);

    // Later turns ask for Multicall3 no more.
    await Promise.all([reads.request(read(balanceRead('0x04'))), reads.request(read(balanceRead('0x05')))]);
    expect(node.count('eth_getCode')).toBe(1);
    expect(node.count('eth_call')).toBe(2);
  });

  it('holds reads asked while a batch is in flight for the next batch, sent when it answers', async () => {
    const node = new FakeNode();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const reads = new MulticallReads(async (payload) => {
      if (payload.method === 'eth_call' && calls++ === 0) await held;
      return node.send(payload);
    });
    const first = reads.request(read(balanceRead('0x01')));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Asked in three different turns while the first read is at the node.
    const later: Array<Promise<unknown>> = [];
    for (const suffix of ['0x02', '0x03', '0x04']) {
      later.push(reads.request(read(balanceRead(suffix))));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(node.count('eth_call')).toBe(0);
    release();
    await Promise.all([first, ...later]);
    // The first alone, the three held ones in one aggregate3.
    expect(node.count('eth_call')).toBe(2);
    expect(node.count('eth_call', MULTICALL3_ADDRESS)).toBe(1);
  });

  it('gathers the reads of a window into one batch when given one', async () => {
    // The window is measured on jest's clock, not the machine's: a loaded CI runner cannot stretch it.
    jest.useFakeTimers();
    try {
      const node = new FakeNode();
      const reads = new MulticallReads(node.send, 30);
      const answers: Array<Promise<unknown>> = [];
      for (const suffix of ['0x01', '0x02', '0x03']) {
        answers.push(reads.request(read(balanceRead(suffix))));
        jest.advanceTimersByTime(5);
      }
      // 10 ms into the window: nothing has left yet.
      expect(node.sent).toHaveLength(0);
      jest.advanceTimersByTime(20);
      await Promise.all(answers);
      expect(node.count('eth_call')).toBe(1);
      expect(node.count('eth_call', MULTICALL3_ADDRESS)).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('answers a reverted read with the revert, as the node would, and the others normally', async () => {
    const node = new FakeNode();
    const reads = new MulticallReads(node.send);
    const [ok, reverted] = await Promise.all([
      reads.request(read(balanceRead('0x01'))),
      reads.request(read(REVERTING)),
    ]);
    expect(ok[0]).toEqual({ id: expect.any(Number), result: answerOf(balanceRead('0x01')) });
    expect(reverted[0]).toEqual({
      id: expect.any(Number),
      error: { code: 3, message: 'execution reverted', data: '0x08c379a0' },
    });
  });

  it('keeps reads of different blocks apart and splits large turns', async () => {
    const node = new FakeNode();
    const reads = new MulticallReads(node.send);
    const many = Array.from({ length: MAX_READS_PER_MULTICALL + 1 }, (_, i) =>
      read(balanceRead(`0x${(i + 16).toString(16)}`)),
    );
    await Promise.all([
      ...many.map((payload) => reads.request(payload)),
      reads.request(read(balanceRead('0x01'), '0x10')),
      reads.request(read(balanceRead('0x02'), '0x10')),
    ]);
    const tags = node.sent.filter((p) => p.method === 'eth_call').map((p) => (p.params as unknown[])[1]);
    // latest: one full batch and the one left over (sent alone); block 0x10: one batch.
    expect(tags.sort()).toEqual(['0x10', 'latest', 'latest']);
  });

  it('sends a read alone in its turn, and anything but a plain read of a known view, as it is', async () => {
    const node = new FakeNode();
    const reads = new MulticallReads(node.send);
    await reads.request(read(balanceRead('0x01')));
    await Promise.all([
      reads.request(read(balanceRead('0x02'), 'latest', { from: TOKEN })),
      reads.request(read(balanceRead('0x03'), 'pending')),
      reads.request({
        ...read(balanceRead('0x04')),
        params: [{ to: TOKEN, data: balanceRead('0x04') }, 'latest', {}],
      }),
      reads.request({ id: 99, jsonrpc: '2.0', method: 'eth_blockNumber', params: [] }),
      // transferFrom(…): its revert names the caller, which inside aggregate3 would be Multicall3.
      reads.request(read('0x23b872dd' + '00'.repeat(96))),
    ]);
    expect(node.count('eth_call', MULTICALL3_ADDRESS)).toBe(0);
    expect(node.count('eth_getCode')).toBe(0);
    expect(node.sent).toHaveLength(6);
  });

  it('sends every read directly on a chain without Multicall3, or when the batch is refused or not understood', async () => {
    const without = new FakeNode();
    without.hasMulticall = false;
    const reads = new MulticallReads(without.send);
    const answers = await Promise.all([
      reads.request(read(balanceRead('0x01'))),
      reads.request(read(balanceRead('0x02'))),
    ]);
    expect(answers.map(([answer]) => (answer as { result: string }).result)).toEqual([
      answerOf(balanceRead('0x01')),
      answerOf(balanceRead('0x02')),
    ]);
    expect(without.count('eth_call', MULTICALL3_ADDRESS)).toBe(0);
    expect(without.count('eth_call')).toBe(2);

    const failing = new FakeNode();
    failing.failAggregate = true;
    const retried = new MulticallReads(failing.send);
    const again = await Promise.all([
      retried.request(read(balanceRead('0x01'))),
      retried.request(read(balanceRead('0x02'))),
    ]);
    expect(again.map(([answer]) => (answer as { result: string }).result)).toEqual([
      answerOf(balanceRead('0x01')),
      answerOf(balanceRead('0x02')),
    ]);
    expect(failing.count('eth_call')).toBe(3);

    // Code at the address that does not answer like Multicall3 (empty return data).
    const empty = new FakeNode();
    const notMulticall = new MulticallReads(async (payload) =>
      (payload.params as Array<{ to?: string }>)[0]?.to === MULTICALL3_ADDRESS
        ? [{ id: payload.id, result: '0x' }]
        : empty.send(payload),
    );
    const third = await Promise.all([
      notMulticall.request(read(balanceRead('0x01'))),
      notMulticall.request(read(balanceRead('0x02'))),
    ]);
    expect(third.map(([answer]) => (answer as { result: string }).result)).toEqual([
      answerOf(balanceRead('0x01')),
      answerOf(balanceRead('0x02')),
    ]);
    // Whether Multicall3 is there is asked again before the next batch.
    await Promise.all([
      notMulticall.request(read(balanceRead('0x03'))),
      notMulticall.request(read(balanceRead('0x04'))),
    ]);
    expect(empty.count('eth_getCode')).toBe(2);
  });

  it('rejects every read of a batch whose request failed in transport', async () => {
    const node = new FakeNode();
    const reads = new MulticallReads(async (payload) => {
      if (payload.method === 'eth_call') throw new Error('connection reset');
      return node.send(payload);
    });
    const results = await Promise.allSettled([
      reads.request(read(balanceRead('0x01'))),
      reads.request(read(balanceRead('0x02'))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
