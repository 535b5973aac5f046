import { PACE_HORIZON_MS, ReadinessPace } from './readiness-pace';
import type { SwapViewEntity } from './swap-view.entity';
import { swapViewOf } from './swap-view.fixture';

const NOW = 1_764_000_000_000;
/** Swap i is built at BUILT(i): twenty builds 100 ms apart, the first 12 s before NOW. */
const BUILT = (i: number) => NOW - 12_000 + i * 100;

/** Swap i's view with its first payload, ready at `readyAtMs`. */
function ready(i: number, readyAtMs: number): SwapViewEntity {
  return swapViewOf({
    swapId: `swap-${i}`,
    status: 'awaiting_signature',
    payload: { kind: 'evm-transaction' },
    createdAtMs: BUILT(i),
    updatedAtMs: readyAtMs,
    readyAtMs,
  });
}

/** Swap i's view while it is being planned, unchanged since its build. */
const planning = (i: number) =>
  swapViewOf({ swapId: `swap-${i}`, createdAtMs: BUILT(i), updatedAtMs: BUILT(i) });

/** Twenty builds; the first `served` of them served their first payload one a second, the last one at NOW − 1 s. */
function paceWith(served: number): ReadinessPace {
  const pace = new ReadinessPace();
  for (let i = 0; i < 20; i++) pace.built(BUILT(i));
  for (let i = 0; i < served; i++) pace.servedFirstPayload(ready(i, NOW - (served - i) * 1_000));
  return pace;
}

describe('ReadinessPace: when a swap waiting for its first payload is likely to have it', () => {
  it('is the builds before it not served yet, at the rate first payloads were served', () => {
    const pace = paceWith(10); // 10 served over the last 10 s: one a second
    expect(pace.expectedReadyInMs(BUILT(15), NOW)).toBe(5_000); // swaps 10 to 14 ahead
    expect(pace.expectedReadyInMs(BUILT(19), NOW)).toBe(9_000);
    expect(pace.expectedReadyInMs(BUILT(10), NOW)).toBe(0); // next in line
    expect(pace.expectedReadyInMs(NOW, NOW)).toBe(10_000); // a build now: all ten left ahead
  });

  it('has no pace until 5 first payloads were served within the window', () => {
    expect(paceWith(4).expectedReadyInMs(BUILT(15), NOW)).toBeUndefined();
    expect(paceWith(5).expectedReadyInMs(BUILT(15), NOW)).toBe(10_000); // 10 ahead, 5 in 5 s
  });

  it('counts a swap once however often its payload is served, and only its first step', () => {
    const pace = paceWith(10);
    for (let k = 0; k < 3; k++) pace.servedFirstPayload(ready(3, NOW - 7_000)); // polled again once ready
    pace.servedFirstPayload({ ...ready(12, NOW - 500), stepCurrent: 2 }); // a later step's payload
    pace.servedFirstPayload({ ...ready(13, NOW - 500), readyAtMs: null }); // nothing ready
    expect(pace.expectedReadyInMs(BUILT(15), NOW)).toBe(5_000);
  });

  it('works its figures out at most once a second, and forgets builds past the horizon', () => {
    const pace = paceWith(10);
    expect(pace.expectedReadyInMs(BUILT(15), NOW)).toBe(5_000);
    pace.servedFirstPayload(ready(10, NOW + 500));
    pace.servedFirstPayload(ready(11, NOW + 500));
    expect(pace.expectedReadyInMs(BUILT(15), NOW + 999)).toBe(5_000);
    // A second later: 12 served in the last 11 s, 3 ahead.
    expect(pace.expectedReadyInMs(BUILT(15), NOW + 1_000)).toBe(3 / (12 / 11_000));
    // Five minutes on, those builds and payloads are forgotten: no pace.
    expect(pace.expectedReadyInMs(NOW + PACE_HORIZON_MS, NOW + PACE_HORIZON_MS)).toBeUndefined();
  });

  it('answers a poll from the view at its pace, and counts the first payload it serves', () => {
    const pace = paceWith(9);
    expect(pace.signingAnswerOf(ready(9, NOW), NOW)).toMatchObject({
      httpStatus: 200,
      body: { mode: 'sync', nextAction: 'sign' },
    });
    // Ten served over 10 s: swap 19 has 9 ahead, polled again in 5 s (the longest) instead of 2.2 s;
    // swap 15, 5 ahead: in 5 s; swap 12, 2 ahead: the back-off's 2.4 s, later than its 2 s.
    expect(pace.signingAnswerOf(planning(19), NOW + 1_000)).toMatchObject({
      httpStatus: 202,
      body: { status: 'planning', pollAfterMs: 5_000 },
    });
    const pollAfterMsOf = (i: number) =>
      (pace.signingAnswerOf(planning(i), NOW + 1_000)?.body as { pollAfterMs?: number }).pollAfterMs;
    expect(pollAfterMsOf(15)).toBe(5_000);
    expect(pollAfterMsOf(12)).toBe(2_400);
  });
});
