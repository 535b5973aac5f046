import type { SwapStepConfirmedEvent } from '@swapgw/contracts';
import { resourceOf } from '../swap/swap-resource';
import type { SwapViewEntity } from '../swap/swap-view.entity';
import { feesPaidBy } from './fees-paid';

const usdc = { chain: 'devnet-a', symbol: 'USDC', address: '0x' + '11'.repeat(20), decimals: 6 };
const view = {
  swapId: '6f1c1a52-4a5e-4f4e-9b3e-0c2d8f6b7a10',
  owner: 'alice',
  status: 'completed',
  steps: [
    { index: 1, kind: 'approve' },
    { index: 2, kind: 'swap' },
  ],
  failureReason: null,
  createdAtMs: 1,
  updatedAtMs: 2,
  quoted: {
    quoteId: 'q',
    routeId: 'r',
    fromChain: 'devnet-a',
    toChain: 'devnet-a',
    tokenIn: usdc,
    tokenOut: { ...usdc, symbol: 'WETH', decimals: 18 },
    amountIn: '20000000',
    expectedAmountOut: '1000',
    minAmountOut: '990',
    integratorFees: [
      { recipient: '0xA1', amount: '400000', token: usdc },
      { recipient: '0xB2', amount: '100000', token: usdc },
    ],
  },
} as unknown as SwapViewEntity;
const txHash = '0x' + 'f0'.repeat(32);
const confirmed = (current: number, extra: Partial<SwapStepConfirmedEvent> = {}) =>
  ({
    swapId: view.swapId,
    status: 'completed',
    step: { current, total: 2 },
    chain: 'devnet-a',
    txHash,
    ...extra,
  }) as SwapStepConfirmedEvent;

describe('feesPaidBy', () => {
  it('names every fee of the plan for the confirmed swap transaction, with its hash', () => {
    expect(feesPaidBy(view, confirmed(2))).toEqual([
      {
        swapId: view.swapId,
        owner: 'alice',
        chain: 'devnet-a',
        token: usdc,
        recipient: '0xA1',
        amount: '400000',
        txHash,
      },
      {
        swapId: view.swapId,
        owner: 'alice',
        chain: 'devnet-a',
        token: usdc,
        recipient: '0xB2',
        amount: '100000',
        txHash,
      },
    ]);
  });

  it('names none for an approve, a skipped step, a step without transaction, another chain, or a plan without fees', () => {
    expect(feesPaidBy(view, confirmed(1))).toEqual([]);
    expect(feesPaidBy(view, confirmed(2, { skipped: true }))).toEqual([]);
    expect(feesPaidBy(view, confirmed(2, { txHash: undefined }))).toEqual([]);
    expect(feesPaidBy(view, confirmed(2, { chain: 'devnet-b' }))).toEqual([]);
    const { integratorFees: _fees, ...withoutFees } = view.quoted!;
    expect(feesPaidBy({ ...view, quoted: withoutFees } as SwapViewEntity, confirmed(2))).toEqual([]);
    expect(feesPaidBy({ ...view, quoted: null } as SwapViewEntity, confirmed(2))).toEqual([]);
  });

  it('keeps the recorded fees out of GET /swap/{swapId} (the API shows what it showed)', () => {
    expect(resourceOf(view).quoted).not.toHaveProperty('integratorFees');
    expect(resourceOf(view).quoted).toMatchObject({ amountIn: '20', minAmountOut: '0.00000000000000099' });
  });
});
