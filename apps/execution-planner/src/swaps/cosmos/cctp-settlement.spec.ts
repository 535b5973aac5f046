import { Logger } from '@nestjs/common';
import type { FakeMints } from '../../../test/support/settlement-fakes';
import { SettlementBench } from '../../../test/support/settlement-bench';
import type { SettlementPoller } from '../settlement-poller';
import { ManualClock } from '@swapgw/runtime';
import { devnetBridgeInterface } from '@swapgw/chains/families';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from '../../../test/support/swap-fakes';
import { buildRequestFor, NOW_MS, planFor } from '../../../test/support/swap-fixtures';
import { SwapPlanner } from '../swap-planner.service';
import { BRIDGE_REFUNDED } from '../swap-progress.service';

const BURN_HASH = 'AB'.repeat(32);
const MINT_SIGNATURE = '5'.repeat(87);
const BRIDGE = '0x' + 'b7'.repeat(20);
const REFUND_TXID = 'c4'.repeat(32);

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

  it('fails the swap with BRIDGE_REFUNDED, the refund in the details, when the source end sent the deposit back', async () => {
    const swapId = await burnConfirmed();
    mints.answer = {
      nonce: '7',
      destinationChain: 'noble-devnet',
      mintTxHash: null,
      refundTxHash: REFUND_TXID,
    };
    expect(await settlement.checkOnce('cctp')).toBe(1);
    expect(store.swap(swapId)).toMatchObject({
      status: 'failed',
      failureReason: BRIDGE_REFUNDED,
      failureDetails: expect.objectContaining({ txHash: BURN_HASH, refundTxIds: [REFUND_TXID] }),
    });
    expect(store.stepsOf(swapId)[1].status).toBe('failed');
    expect(store.messagesOf(swapId).map((m) => m.type)).toEqual(['swap.failed']);
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

describe('SwapPlanner with a devnet-bridge deposit from an EVM chain towards Noble', () => {
  const NOBLE_RECIPIENT = 'noble1qurswpc8qurswpc8qurswpc8qurswpc8msjjc0';

  it('plans the approve of the bridge and its depositTo, only the deposit settled by Noble’s mint', async () => {
    const store = new InMemorySwapRepository();
    const planner = new SwapPlanner(
      store,
      new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 }, 'noble-devnet': { family: 'cosmos' } }),
      plannerConfigOf(),
      new ManualClock(NOW_MS),
    );
    const usdc = planFor('q-noble').tokenIn;
    const uusdc = { chain: 'noble-devnet', symbol: 'USDC', address: 'uusdc', decimals: 6 };
    const amounts = { amountIn: '1500000', expectedAmountOut: '1499250' };
    const plan = {
      ...planFor('q-noble'),
      toChain: 'noble-devnet',
      tokenOut: uusdc,
      ...amounts,
      providers: ['devnet-bridge'],
      legs: [
        {
          kind: 'bridge' as const,
          chain: 'devnet-a',
          provider: 'devnet-bridge',
          tokenIn: usdc,
          tokenOut: uusdc,
          ...amounts,
          minAmountOut: '1499250',
          spender: BRIDGE,
          destinationChain: 'noble-devnet',
          destinationBridgeChainId: 4,
          estimatedDurationSeconds: 10,
        },
      ],
    };
    const { swapId } = await planner.build({
      ...buildRequestFor(plan, 'swap-noble'),
      recipient: NOBLE_RECIPIENT,
      gasPayment: 'user',
    });
    const steps = store.stepsOf(swapId);
    expect(steps.map((step) => [step.kind, step.settlement])).toEqual([
      ['approve', null],
      ['bridge', 'cctp'],
    ]);
    const deposit = steps[1].spec as { call?: { to: string; data: string } };
    expect(deposit.call?.to).toBe(BRIDGE);
    const [amount, destinationChainId] = devnetBridgeInterface.decodeFunctionData(
      'depositTo',
      deposit.call!.data,
    );
    expect([amount, destinationChainId]).toEqual([1_500_000n, 4n]);
  });
});
