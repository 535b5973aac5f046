import { Logger } from '@nestjs/common';
import { id } from 'ethers';
import type { SwapStepThorchain } from '@swapgw/contracts';
import { SettlementBench } from '../../test/support/settlement-bench';
import type { FakeThornode } from '../../test/support/settlement-fakes';
import { ManualClock } from '@swapgw/runtime';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from '../../test/support/swap-fakes';
import { buildRequestFor, NOW_MS, planFor, ROUTER } from '../../test/support/swap-fixtures';
import { SwapPlanner } from './swap-planner.service';
import { BRIDGE_REFUNDED } from './swap-progress.service';
import type { SettlementPoller } from './settlement-poller';

const DEPOSIT_HASH = '0x' + 'ab'.repeat(32);

describe('SettlementPoller: THORChain deposits', () => {
  let store: SettlementBench['store'];
  let thornode: FakeThornode;
  let settlement: SettlementPoller;
  const config = plannerConfigOf({ THORNODE_URL: 'http://thornode.test' });

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    const bench = new SettlementBench(config);
    ({ store, thornode, poller: settlement } = bench);
    depositConfirmed = () => bench.lastStepSettling('thorchain', DEPOSIT_HASH, 'swap-thorchain', 'q1');
  });

  /**
   * A swap whose last step is a THORChain deposit (the step's settlement as the planner sets it for a
   * `thorchain` leg), its deposit confirmed on its chain.
   */
  let depositConfirmed: () => Promise<string>;

  const thorchainEvents = (swapId: string) =>
    store
      .messagesOf(swapId)
      .filter((m) => m.type === 'swap.step-thorchain')
      .map((m) => (m.payload as { thorchain: SwapStepThorchain }).thorchain);

  it('keeps a confirmed THORChain deposit settling, the swap confirming, telling each change of its phase once, until THORChain completes it', async () => {
    const swapId = await depositConfirmed();
    expect(store.swap(swapId).status).toBe('confirming');
    expect(store.stepsOf(swapId)[1]).toMatchObject({
      status: 'settling',
      txHash: DEPOSIT_HASH,
      thorchain: null,
    });

    thornode.answer = { phase: 'confirming', remainingSeconds: 600, outTxIds: [] };
    expect(await settlement.checkOnce('thorchain')).toBe(0);
    expect(thornode.asked).toEqual([DEPOSIT_HASH]);
    expect(store.swap(swapId).status).toBe('confirming');
    // The same phase again (its remaining seconds changed): nothing new to tell.
    thornode.answer = { phase: 'confirming', remainingSeconds: 540, outTxIds: [] };
    expect(await settlement.checkOnce('thorchain')).toBe(0);
    thornode.answer = { phase: 'streaming', streaming: { count: 1, quantity: 3 }, outTxIds: [] };
    expect(await settlement.checkOnce('thorchain')).toBe(0);
    thornode.answer = { phase: 'streaming', streaming: { count: 1, quantity: 3 }, outTxIds: [] };
    expect(await settlement.checkOnce('thorchain')).toBe(0);
    thornode.answer = { phase: 'streaming', streaming: { count: 3, quantity: 3 }, outTxIds: [] };
    expect(await settlement.checkOnce('thorchain')).toBe(0);
    thornode.answer = { phase: 'outbound-delay', remainingSeconds: 12, outTxIds: [] };
    expect(await settlement.checkOnce('thorchain')).toBe(0);
    expect(store.stepsOf(swapId)[1]).toMatchObject({
      status: 'settling',
      thorchain: { phase: 'outbound-delay', streaming: null, outTxIds: [] },
    });
    expect(store.swap(swapId).status).toBe('confirming');

    thornode.answer = { phase: 'completed', outTxIds: ['F00D'] };
    expect(await settlement.checkOnce('thorchain')).toBe(1);
    expect(store.swap(swapId).status).toBe('completed');
    expect(store.stepsOf(swapId)[1]).toMatchObject({
      status: 'confirmed',
      thorchain: { phase: 'completed', streaming: null, outTxIds: ['F00D'] },
    });
    expect(thorchainEvents(swapId)).toEqual([
      { phase: 'confirming', streaming: null, outTxIds: [] },
      { phase: 'streaming', streaming: { count: 1, quantity: 3 }, outTxIds: [] },
      { phase: 'streaming', streaming: { count: 3, quantity: 3 }, outTxIds: [] },
      { phase: 'outbound-delay', streaming: null, outTxIds: [] },
      { phase: 'completed', streaming: null, outTxIds: ['F00D'] },
    ]);
    expect(store.messagesOf(swapId).map((m) => m.type)).toEqual([
      ...Array(5).fill('swap.step-thorchain'),
      'swap.step-confirmed',
      'swap.completed',
    ]);
    // The event names the step as every step event does.
    expect(store.messagesOf(swapId)[0].payload).toMatchObject({
      swapId,
      status: 'confirming',
      step: { current: 2, total: 2 },
      chain: 'devnet-a',
      txHash: DEPOSIT_HASH,
    });
    // Decided once: nothing settling any more.
    expect(await settlement.checkOnce('thorchain')).toBe(0);
  });

  it('fails the swap with BRIDGE_REFUNDED, the refund named, when THORChain refunded the deposit', async () => {
    const swapId = await depositConfirmed();
    thornode.answer = { phase: 'refunded', outTxIds: ['BEEF'] };
    expect(await settlement.checkOnce('thorchain')).toBe(1);
    expect(store.swap(swapId)).toMatchObject({
      status: 'failed',
      failureReason: BRIDGE_REFUNDED,
      failureDetails: expect.objectContaining({
        chain: 'devnet-a',
        txHash: DEPOSIT_HASH,
        refundTxIds: ['BEEF'],
        thorchain: { phase: 'refunded', streaming: null, outTxIds: ['BEEF'] },
      }),
    });
    expect(store.stepsOf(swapId)[1].status).toBe('failed');
    expect(store.messagesOf(swapId).map((m) => m.type)).toEqual(['swap.step-thorchain', 'swap.failed']);
    expect(thorchainEvents(swapId)).toEqual([{ phase: 'refunded', streaming: null, outTxIds: ['BEEF'] }]);
  });

  it('asks again at the next pass when THORNode cannot answer', async () => {
    const swapId = await depositConfirmed();
    thornode.answer = new Error('THORNode answered HTTP 503');
    expect(await settlement.checkOnce('thorchain')).toBe(0);
    expect(store.stepsOf(swapId)[1].status).toBe('settling');
    thornode.answer = { phase: 'completed', outTxIds: [] };
    expect(await settlement.checkOnce('thorchain')).toBe(1);
  });

  it('completes on confirmation, as before, when the planner has no THORNODE_URL', async () => {
    const bench = new SettlementBench(plannerConfigOf());
    const swapId = await bench.lastStepSettling('thorchain', DEPOSIT_HASH, 'swap-thorchain', 'q1');
    expect(bench.store.swap(swapId).status).toBe('completed');
  });
});

describe('SwapPlanner with a thorchain leg', () => {
  const VAULT = '0x' + 'b2'.repeat(20);
  const RECIPIENT = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';

  it('plans the approve of the router and the router deposit, only the deposit settled by THORChain', async () => {
    const store = new InMemorySwapRepository();
    const clock = new ManualClock(NOW_MS);
    const planner = new SwapPlanner(
      store,
      new FakeSwapChains({
        'devnet-a': { evmChainId: 31337 },
        'bitcoin-devnet': { family: 'bitcoin', bitcoinNetwork: 'regtest' },
      }),
      plannerConfigOf({ THORNODE_URL: 'http://thornode.test' }),
      clock,
    );
    const usdc = planFor('q-thor').tokenIn;
    const btc = { chain: 'bitcoin-devnet', symbol: 'BTC', address: null, decimals: 8 };
    const amounts = { amountIn: '900000000', expectedAmountOut: '998000' };
    const plan = {
      ...planFor('q-thor'),
      toChain: 'bitcoin-devnet',
      tokenOut: btc,
      ...amounts,
      providers: ['thorchain'],
      legs: [
        {
          kind: 'bridge' as const,
          chain: 'devnet-a',
          provider: 'thorchain',
          tokenIn: usdc,
          tokenOut: btc,
          ...amounts,
          minAmountOut: '993000',
          spender: ROUTER,
          destinationChain: 'bitcoin-devnet',
          estimatedDurationSeconds: 30,
          thorchain: {
            asset: 'BTC.BTC',
            streamingInterval: 0,
            streamingQuantity: 0,
            expiry: Math.floor(NOW_MS / 1000) + 900,
            inboundAddress: VAULT,
          },
        },
      ],
    };
    const { swapId } = await planner.build({ ...buildRequestFor(plan, 'swap-thor'), recipient: RECIPIENT });
    const steps = store.stepsOf(swapId);
    expect(steps.map((step) => [step.kind, step.settlement])).toEqual([
      ['approve', null],
      ['bridge', 'thorchain'],
    ]);
    const deposit = steps[1].spec as { call?: { to: string; data: string } };
    expect(deposit.call?.to).toBe(ROUTER);
    // depositWithExpiry(address,address,uint256,string,uint256)
    expect(deposit.call?.data.slice(0, 10)).toBe(
      id('depositWithExpiry(address,address,uint256,string,uint256)').slice(0, 10),
    );
  });
});
