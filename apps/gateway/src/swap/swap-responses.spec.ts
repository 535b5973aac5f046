import { firstPollAfterMsOf, plainSigningAnswerOf, pollAfterMsOf } from './swap-responses';
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

describe('pollAfterMs at the pace first payloads are served (ReadinessPace)', () => {
  it('waits until the swap is expected ready, at most 5 s, never less than the back-off', () => {
    // Built 2 s ago, expected in 18 s: 5 s; in 2.74 s: 2.7 s (tenths of a second); in 0.4 s: the back-off's 1 s.
    expect(pollAfterMsOf(planning(2_000), NOW, 18_000)).toBe(5_000);
    expect(pollAfterMsOf(planning(2_000), NOW, 2_740)).toBe(2_700);
    expect(pollAfterMsOf(planning(2_000), NOW, 400)).toBe(1_000);
    // Waited 17 s (a back-off of 3 s), expected in 3 s or sooner: the back-off.
    expect(pollAfterMsOf(planning(17_000), NOW, 3_000)).toBe(3_000);
    expect(pollAfterMsOf(planning(6_000), NOW, 0)).toBe(1_200);
  });

  it('leaves a swap past its first payload to the back-off (later steps, a payload, a transaction sent)', () => {
    const base = { createdAtMs: NOW - 60_000, updatedAtMs: NOW - 1_000 };
    expect(pollAfterMsOf(swapViewOf({ ...base, stepCurrent: 2 }), NOW, 90_000)).toBe(1_000);
    expect(pollAfterMsOf(swapViewOf({ ...base, lastTxHash: '0xabc' }), NOW, 90_000)).toBe(1_000);
    expect(pollAfterMsOf(swapViewOf({ ...base, payload: { kind: 'x' } }), NOW, 90_000)).toBe(1_000);
  });

  it("is a build's first poll: when it is expected ready, between 1 and 5 s, else 1 s", () => {
    expect([undefined, 400, 2_340, 60_000].map((w) => firstPollAfterMsOf(w))).toEqual([
      1_000, 1_000, 2_300, 5_000,
    ]);
  });
});
