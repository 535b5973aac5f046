import { Logger } from '@nestjs/common';
import type { FakeMints } from '../../../test/support/settlement-fakes';
import { SettlementBench } from '../../../test/support/settlement-bench';
import type { SettlementPoller } from '../settlement-poller';

const BURN_HASH = 'AB'.repeat(32);
const MINT_SIGNATURE = '5'.repeat(87);

describe('SettlementPoller: CCTP mints of burns on Noble', () => {
  let store: SettlementBench['store'];
  let mints: FakeMints;
  let settlement: SettlementPoller;

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    const bench = new SettlementBench();
    ({ store, mints, poller: settlement } = bench);
    burnConfirmed = (key = 'swap-cctp') => bench.lastStepSettling('cctp', BURN_HASH, key);
  });

  /** A swap whose last step is a burn (settlement `cctp`, as the planner sets it), confirmed on its chain. */
  let burnConfirmed: (key?: string) => Promise<string>;

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
