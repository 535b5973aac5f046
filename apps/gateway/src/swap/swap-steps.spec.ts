import { withStepChange, withStepCount } from './swap-steps';

describe('swap steps (GET /swap/{swapId} steps)', () => {
  it('lists every step of the swap as pending until its events arrive', () => {
    expect(withStepCount([], 2)).toEqual([
      {
        index: 1,
        chain: null,
        kind: null,
        status: 'pending',
        txHash: null,
        submittedAtMs: null,
        confirmedAtMs: null,
        packet: null,
        thorchain: null,
      },
      {
        index: 2,
        chain: null,
        kind: null,
        status: 'pending',
        txHash: null,
        submittedAtMs: null,
        confirmedAtMs: null,
        packet: null,
        thorchain: null,
      },
    ]);
  });

  it('follows one step through ready, submitted and confirmed, never erasing a known fact with an absent one', () => {
    let steps = withStepCount([], 2);
    steps = withStepChange(steps, 1, 2, { status: 'awaiting_signature', kind: 'approve' });
    steps = withStepChange(steps, 1, 2, {
      status: 'submitted',
      chain: 'devnet-a',
      txHash: '0xabc',
      submittedAtMs: 10,
    });
    steps = withStepChange(steps, 1, 2, {
      status: 'confirmed',
      chain: 'devnet-a',
      txHash: undefined,
      confirmedAtMs: 20,
    });
    expect(steps[0]).toEqual({
      index: 1,
      chain: 'devnet-a',
      kind: 'approve',
      status: 'confirmed',
      txHash: '0xabc',
      submittedAtMs: 10,
      confirmedAtMs: 20,
      packet: null,
      thorchain: null,
    });
    expect(steps[1].status).toBe('pending');
  });

  it('keeps the steps it knows when the count arrives late, and adds a step an event names beyond it', () => {
    const known = withStepChange([], 1, 1, { status: 'awaiting_signature', kind: 'swap' });
    expect(withStepCount(known, 2).map((s) => [s.index, s.kind, s.status])).toEqual([
      [1, 'swap', 'awaiting_signature'],
      [2, null, 'pending'],
    ]);
    expect(withStepChange(known, 3, 3, { status: 'pending' }).map((s) => s.index)).toEqual([1, 2, 3]);
  });
});
