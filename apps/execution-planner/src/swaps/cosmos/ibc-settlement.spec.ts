import { Logger } from '@nestjs/common';
import type { SwapStepPacket } from '@swapgw/contracts';
import { SettlementBench } from '../../../test/support/settlement-bench';
import type { FakePackets } from '../../../test/support/settlement-fakes';
import { NOW_MS } from '../../../test/support/swap-fixtures';
import { BRIDGE_REFUNDED } from '../swap-progress.service';
import type { SettlementPoller } from '../settlement-poller';

const TRANSFER_HASH = 'AB'.repeat(32);
const SETTLED_HASH = 'CD'.repeat(32);

const packet = (change: Partial<SwapStepPacket>): SwapStepPacket => ({
  state: 'sent',
  sequence: '4',
  sourceChannel: 'channel-0',
  destinationChain: 'osmosis-devnet',
  destinationChannel: 'channel-0',
  timeoutAtMs: NOW_MS + 3_600_000,
  receivedTxHash: null,
  settledTxHash: null,
  acknowledgementError: null,
  refunded: false,
  ...change,
});

describe('SettlementPoller: IBC packets', () => {
  let store: SettlementBench['store'];
  let packets: FakePackets;
  let settlement: SettlementPoller;

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    const bench = new SettlementBench();
    ({ store, packets, poller: settlement } = bench);
    transferConfirmed = (key = 'swap-ibc') => bench.lastStepSettling('ibc', TRANSFER_HASH, key);
  });

  /** A swap whose last step is an IBC transfer (settlement `ibc`, as the planner sets it), confirmed on its chain. */
  let transferConfirmed: (key?: string) => Promise<string>;

  const packetEvents = (swapId: string) =>
    store
      .messagesOf(swapId)
      .filter((m) => m.type === 'swap.step-packet')
      .map((m) => (m.payload as { packet: SwapStepPacket }).packet.state);

  it('keeps the transfer settling, telling each move of its packet once, until it is acknowledged; then the swap completes', async () => {
    const swapId = await transferConfirmed();
    expect(store.swap(swapId).status).toBe('confirming');
    expect(store.stepsOf(swapId)[1]).toMatchObject({ status: 'settling', txHash: TRANSFER_HASH });

    // Not readable yet (or no packet): nothing told.
    expect(await settlement.checkOnce('ibc')).toBe(0);
    expect(packets.asked).toEqual([['devnet-a', TRANSFER_HASH]]);
    expect(store.messagesOf(swapId)).toEqual([]);

    packets.answer = packet({});
    expect(await settlement.checkOnce('ibc')).toBe(0);
    expect(await settlement.checkOnce('ibc')).toBe(0);
    packets.answer = packet({ state: 'received', receivedTxHash: SETTLED_HASH });
    expect(await settlement.checkOnce('ibc')).toBe(0);
    expect(packetEvents(swapId)).toEqual(['sent', 'received']);
    expect(store.stepsOf(swapId)[1].packet).toMatchObject({ state: 'received' });
    expect(store.swap(swapId).status).toBe('confirming');

    packets.answer = packet({ state: 'acknowledged', settledTxHash: SETTLED_HASH });
    expect(await settlement.checkOnce('ibc')).toBe(1);
    expect(store.swap(swapId).status).toBe('completed');
    expect(store.stepsOf(swapId)[1].status).toBe('confirmed');
    expect(store.messagesOf(swapId).map((m) => m.type)).toEqual([
      'swap.step-packet',
      'swap.step-packet',
      'swap.step-packet',
      'swap.step-confirmed',
      'swap.completed',
    ]);
    expect(await settlement.checkOnce('ibc')).toBe(0);
  });

  it('fails the swap with BRIDGE_REFUNDED, the packet in the details, when it timed out or was refused', async () => {
    const swapId = await transferConfirmed();
    packets.answer = packet({ state: 'timed_out', settledTxHash: SETTLED_HASH, refunded: true });
    expect(await settlement.checkOnce('ibc')).toBe(1);
    expect(store.swap(swapId)).toMatchObject({
      status: 'failed',
      failureReason: BRIDGE_REFUNDED,
      failureDetails: expect.objectContaining({
        txHash: TRANSFER_HASH,
        packet: expect.objectContaining({ state: 'timed_out', refunded: true }),
        refundTxIds: [SETTLED_HASH],
      }),
    });
    expect(store.stepsOf(swapId)[1].status).toBe('failed');
    expect(store.messagesOf(swapId).map((m) => m.type)).toEqual(['swap.step-packet', 'swap.failed']);

    const refused = await transferConfirmed('swap-ibc-refused');
    packets.answer = packet({ state: 'acknowledged', acknowledgementError: 'ABCI code: 5', refunded: true });
    expect(await settlement.checkOnce('ibc')).toBe(1);
    expect(store.swap(refused)).toMatchObject({ status: 'failed', failureReason: BRIDGE_REFUNDED });
  });

  it('asks again at the next pass when a chain cannot answer', async () => {
    const swapId = await transferConfirmed();
    packets.answer = new Error('connect ECONNREFUSED');
    expect(await settlement.checkOnce('ibc')).toBe(0);
    expect(store.stepsOf(swapId)[1].status).toBe('settling');
    packets.answer = packet({ state: 'acknowledged' });
    expect(await settlement.checkOnce('ibc')).toBe(1);
  });
});
