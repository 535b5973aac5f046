import { Logger } from '@nestjs/common';
import { ManualClock } from '@swapgw/runtime';
import { FakeMints, FakePackets, FakeThornode } from '../../../test/support/settlement-fakes';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from '../../../test/support/swap-fakes';
import { buildRequestFor, NOW_MS, planFor, stepRef } from '../../../test/support/swap-fixtures';
import { RepricingSignal } from '../repricing-signal';
import { SwapPlanner } from '../swap-planner.service';
import { SwapProgress } from '../swap-progress.service';
import { SettlementPoller } from '../settlement-poller';

const BURN_HASH = 'AB'.repeat(32);
const MINT_SIGNATURE = '5'.repeat(87);

describe('SettlementPoller: CCTP mints of burns on Noble', () => {
  let store: InMemorySwapRepository;
  let progress: SwapProgress;
  let mints: FakeMints;
  let settlement: SettlementPoller;
  let builder: SwapPlanner;
  const config = plannerConfigOf({});

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    store = new InMemorySwapRepository();
    const clock = new ManualClock(NOW_MS);
    progress = new SwapProgress(store, clock, config, new RepricingSignal());
    builder = new SwapPlanner(
      store,
      new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 } }),
      config,
      clock,
    );
    mints = new FakeMints();
    settlement = new SettlementPoller(store, progress, new FakeThornode(), new FakePackets(), config, mints);
  });

  /** A swap whose last step is a burn (settlement `cctp`, as the planner sets it), confirmed on its chain. */
  async function burnConfirmed(key = 'swap-cctp'): Promise<string> {
    const { swapId } = await builder.build(buildRequestFor(planFor(key), key));
    const last = store.steps.get(`${swapId}:2`);
    if (!last) throw new Error('no step 2');
    last.settlement = 'cctp';
    for (const stepIndex of [1, 2])
      await store.transaction((tx) =>
        progress.stepConfirmed(
          {
            ...stepRef(swapId, stepIndex),
            txHash: stepIndex === 2 ? BURN_HASH : '0x' + '01'.repeat(32),
            blockNumber: 7,
            confirmations: 1,
            confirmedAtMs: NOW_MS,
          },
          tx,
        ),
      );
    store.outbox.length = 0;
    return swapId;
  }

  it('keeps the burn settling (the swap confirming) until the destination paid it; then the swap completes', async () => {
    const swapId = await burnConfirmed();
    expect(store.swap(swapId).status).toBe('confirming');
    expect(store.stepsOf(swapId)[1]).toMatchObject({ status: 'settling', txHash: BURN_HASH });

    // The burn not readable yet, then read but not minted: nothing changes, nothing is told.
    expect(await settlement.checkOnce('cctp')).toBe(0);
    mints.answer = { nonce: '3', destinationChain: 'solana-devnet', mintTxHash: null };
    expect(await settlement.checkOnce('cctp')).toBe(0);
    expect(mints.asked).toEqual([
      ['devnet-a', BURN_HASH],
      ['devnet-a', BURN_HASH],
    ]);
    expect(store.messagesOf(swapId)).toEqual([]);
    expect(store.swap(swapId).status).toBe('confirming');

    mints.answer = { nonce: '3', destinationChain: 'solana-devnet', mintTxHash: MINT_SIGNATURE };
    expect(await settlement.checkOnce('cctp')).toBe(1);
    expect(store.swap(swapId).status).toBe('completed');
    expect(store.stepsOf(swapId)[1].status).toBe('confirmed');
    expect(store.messagesOf(swapId).map((m) => m.type)).toEqual(['swap.step-confirmed', 'swap.completed']);
    // Decided once: nothing is left settling.
    expect(await settlement.checkOnce('cctp')).toBe(0);
  });

  it('asks again at the next pass when a chain cannot answer', async () => {
    const swapId = await burnConfirmed();
    mints.answer = new Error('connect ECONNREFUSED');
    expect(await settlement.checkOnce('cctp')).toBe(0);
    expect(store.stepsOf(swapId)[1].status).toBe('settling');
    mints.answer = { nonce: '3', destinationChain: 'solana-devnet', mintTxHash: MINT_SIGNATURE };
    expect(await settlement.checkOnce('cctp')).toBe(1);
    expect(store.swap(swapId).status).toBe('completed');
  });
});
