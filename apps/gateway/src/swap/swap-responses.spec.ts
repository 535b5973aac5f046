import { plainSigningAnswerOf, pollAfterMsOf } from './swap-responses';
import type { SwapViewEntity } from './swap-view.entity';
import { swapViewOf } from './swap-view.fixture';

const NOW = 1_764_000_000_000;

/** A swap being planned whose view last changed `waitedMs` before NOW. */
function planning(waitedMs: number): SwapViewEntity {
  return swapViewOf({ stepTotal: 1, createdAtMs: NOW - waitedMs, updatedAtMs: NOW - waitedMs });
}

describe('pollAfterMs of a swap with nothing to sign', () => {
  it('is a second right after a change, then a fifth of the wait since the last change, at most 3 s', () => {
    expect(
      [0, 2_000, 5_000, 7_000, 9_240, 12_000, 15_000, 60_000].map((w) => pollAfterMsOf(planning(w), NOW)),
    ).toEqual([1000, 1000, 1000, 1400, 1800, 2400, 3000, 3000]);
  });

  it('is what a poll of a pending swap answers, and a view updated in the future (clock skew) waits a second', () => {
    const answer = plainSigningAnswerOf(planning(10_000), NOW);
    expect(answer).toMatchObject({
      httpStatus: 202,
      body: { mode: 'async', status: 'planning', pollAfterMs: 2000 },
    });
    expect(pollAfterMsOf(planning(-5_000), NOW)).toBe(1000);
  });
});
