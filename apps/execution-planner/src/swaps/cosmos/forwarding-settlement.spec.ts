import { Logger } from '@nestjs/common';
import type { IbcPacketProgress, NobleForwardingProgress } from '@swapgw/chains/families';
import type { SwapStepPacket } from '@swapgw/contracts';
import { SettlementBench } from '../../../test/support/settlement-bench';
import type { FakeForwards } from '../../../test/support/settlement-fakes';
import { NOW_MS } from '../../../test/support/swap-fixtures';
import { FORWARD_FAILED } from '../swap-progress.service';
import type { SettlementPoller } from '../settlement-poller';

const DEPOSIT_HASH = '0x' + 'ab'.repeat(32);
const PAYOUT_HASH = 'AB'.repeat(32);
const RECEIVED_HASH = 'CD'.repeat(32);
const SETTLED_HASH = 'EF'.repeat(32);
const FORWARDING = 'noble1forwardingaccount';
const FALLBACK = 'noble1recipientkey';

const forward = (change: Partial<IbcPacketProgress>): IbcPacketProgress => ({
  state: 'sent',
  sequence: '4',
  sourceChannel: 'channel-1',
  destinationChain: 'osmosis-devnet',
  destinationChannel: 'channel-2',
  timeoutAtMs: NOW_MS + 600_000,
  receivedTxHash: null,
  settledTxHash: null,
  acknowledgementError: null,
  refunded: false,
  ...change,
});
const home = (change: Partial<IbcPacketProgress>): IbcPacketProgress =>
  forward({ sequence: '9', sourceChannel: 'channel-0', destinationChain: 'cosmoshub-devnet', ...change });

const progress = (change: Partial<NobleForwardingProgress>): NobleForwardingProgress => ({
  payoutTxHash: PAYOUT_HASH,
  packets: [],
  outcome: 'pending',
  failure: null,
  ...change,
});

describe('SettlementPoller: the route after a Noble forwarding deposit', () => {
  let bench: SettlementBench;
  let forwards: FakeForwards;
  let settlement: SettlementPoller;

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    bench = new SettlementBench();
    ({ forwards, poller: settlement } = bench);
  });

  /** A swap whose last step is a deposit paying a forwarding account (settlement `forwarding`), confirmed. */
  const depositConfirmed = async (key = 'swap-forwarding') => {
    const swapId = await bench.lastStepSettling('forwarding', DEPOSIT_HASH, key);
    const step = bench.store.steps.get(`${swapId}:2`)!;
    step.spec = {
      ...step.spec,
      nobleForwarding: {
        chain: 'noble-devnet',
        channel: 'channel-1',
        recipient: 'osmo1contract',
        fallback: FALLBACK,
        memo: '{"wasm":{}}',
        address: FORWARDING,
      },
    };
    return swapId;
  };
  const told = (swapId: string) =>
    bench.store
      .messagesOf(swapId)
      .filter((m) => m.type === 'swap.step-packet')
      .map((m) => {
        const { packet } = m.payload as { packet: SwapStepPacket };
        return `${packet.destinationChain}:${packet.state}`;
      });

  it('keeps the deposit settling through the payout, the forward and the swap; completes once the output is home', async () => {
    const swapId = await depositConfirmed();
    expect(bench.store.swap(swapId).status).toBe('confirming');
    expect(bench.store.stepsOf(swapId)[1]).toMatchObject({ status: 'settling', txHash: DEPOSIT_HASH });

    // The deposit's receipt not readable, then the payout not read yet: nothing told.
    expect(await settlement.checkOnce('forwarding')).toBe(0);
    forwards.answer = progress({ payoutTxHash: null });
    expect(await settlement.checkOnce('forwarding')).toBe(0);
    expect(forwards.asked).toEqual([
      ['devnet-a', DEPOSIT_HASH, FORWARDING],
      ['devnet-a', DEPOSIT_HASH, FORWARDING],
    ]);
    expect(bench.store.messagesOf(swapId)).toEqual([]);

    forwards.answer = progress({ packets: [forward({})] });
    expect(await settlement.checkOnce('forwarding')).toBe(0);
    expect(await settlement.checkOnce('forwarding')).toBe(0);
    forwards.answer = progress({ packets: [forward({ state: 'received', receivedTxHash: RECEIVED_HASH })] });
    expect(await settlement.checkOnce('forwarding')).toBe(0);
    // The forward acknowledged and the output's packet home already received, read in one pass.
    forwards.answer = progress({
      packets: [
        forward({ state: 'acknowledged', receivedTxHash: RECEIVED_HASH, settledTxHash: SETTLED_HASH }),
        home({ state: 'received', receivedTxHash: SETTLED_HASH }),
      ],
    });
    expect(await settlement.checkOnce('forwarding')).toBe(0);
    expect(told(swapId)).toEqual([
      'osmosis-devnet:sent',
      'osmosis-devnet:received',
      'osmosis-devnet:acknowledged',
      'cosmoshub-devnet:received',
    ]);
    expect(bench.store.stepsOf(swapId)[1].packet).toMatchObject({
      destinationChain: 'cosmoshub-devnet',
      state: 'received',
    });
    expect(bench.store.swap(swapId).status).toBe('confirming');

    forwards.answer = progress({
      packets: [
        forward({ state: 'acknowledged', receivedTxHash: RECEIVED_HASH, settledTxHash: SETTLED_HASH }),
        home({ state: 'acknowledged', receivedTxHash: SETTLED_HASH, settledTxHash: SETTLED_HASH }),
      ],
      outcome: 'delivered',
    });
    expect(await settlement.checkOnce('forwarding')).toBe(1);
    expect(bench.store.swap(swapId).status).toBe('completed');
    expect(bench.store.stepsOf(swapId)[1].status).toBe('confirmed');
    expect(
      bench.store
        .messagesOf(swapId)
        .map((m) => m.type)
        .slice(-3),
    ).toEqual(['swap.step-packet', 'swap.step-confirmed', 'swap.completed']);
    expect(await settlement.checkOnce('forwarding')).toBe(0);
  });

  it('fails the swap with FORWARD_FAILED, saying where the funds are, when the swap on arrival is refused', async () => {
    const swapId = await depositConfirmed();
    const refused = forward({
      state: 'acknowledged',
      acknowledgementError: 'ABCI code: 7: error handling packet: see events for details',
      refunded: true,
      settledTxHash: SETTLED_HASH,
    });
    const fundsAt = {
      chain: 'noble-devnet',
      address: FORWARDING,
      holder: 'forwarding-account' as const,
      recovery: `MsgClearAccount with fallback sends them to ${FALLBACK}`,
    };
    forwards.answer = progress({
      packets: [refused],
      outcome: 'failed',
      failure: { message: 'the swap on arrival failed', fundsAt },
    });
    expect(await settlement.checkOnce('forwarding')).toBe(1);
    expect(bench.store.swap(swapId)).toMatchObject({
      status: 'failed',
      failureReason: FORWARD_FAILED,
      failureDetails: expect.objectContaining({
        txHash: DEPOSIT_HASH,
        payoutTxHash: PAYOUT_HASH,
        message: 'the swap on arrival failed',
        fundsAt,
        packet: expect.objectContaining({ state: 'acknowledged', refunded: true }),
      }),
    });
    expect(bench.store.stepsOf(swapId)[1].status).toBe('failed');
    expect(bench.store.messagesOf(swapId).map((m) => m.type)).toEqual(['swap.step-packet', 'swap.failed']);
  });

  it('asks again at the next pass when a chain cannot answer', async () => {
    const swapId = await depositConfirmed();
    forwards.answer = new Error('connect ECONNREFUSED');
    expect(await settlement.checkOnce('forwarding')).toBe(0);
    expect(bench.store.stepsOf(swapId)[1].status).toBe('settling');
    forwards.answer = progress({ packets: [forward({ state: 'acknowledged' })], outcome: 'delivered' });
    expect(await settlement.checkOnce('forwarding')).toBe(1);
    expect(bench.store.swap(swapId).status).toBe('completed');
  });
});
