import { Injectable } from '@nestjs/common';
import { plainSigningAnswerOf, SigningAnswer } from './swap-responses';
import type { SwapViewEntity } from './swap-view.entity';

/** How far back the first payloads served are taken as the pace at which swaps get ready now. */
export const PACE_WINDOW_MS = 30_000;
/** Fewer first payloads served within the window than this: no pace (polls back off as before). */
export const PACE_MIN_SAMPLES = 5;
/**
 * Builds older than this are no longer counted as ahead of anyone: a swap not ready by then failed,
 * expired or was left (a swap's signing deadline is shorter).
 */
export const PACE_HORIZON_MS = 5 * 60_000;
/** Builds remembered at most (a busy instance's five minutes). */
const PACE_MAX_BUILDS = 100_000;
/** The snapshot (sorted build times, the rate) is worked out again at most this often: every pending poll asks. */
const PACE_RECOMPUTE_MS = 1_000;

interface PaceSnapshot {
  atMs: number;
  /** Build times of the swaps served a first payload, ascending. */
  servedBuiltAtMs: number[];
  /** First payloads served per millisecond over the window; undefined with too few. */
  readyPerMs: number | undefined;
}

/** How many of `sorted` (ascending) are below `value`. */
function countBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * When a swap waiting for its first payload is likely to have it, as this gateway instance sees
 * its builds get ready: the swaps built before it and not yet served a first payload are ahead of
 * it (the planner works builds roughly in the order they came), and the first payloads served over
 * the last PACE_WINDOW_MS say how fast that queue moves. So its client is told to poll about then
 * (pollAfterMsOf) rather than every second or three: under a burst, when builds take tens of
 * seconds, polls are most of the gateway's requests and nearly every one of them finds nothing
 * changed. Each instance counts its own builds and the first payloads it serves: its share of both.
 * In memory only; a restarted instance polls as before until it has served PACE_MIN_SAMPLES.
 */
@Injectable()
export class ReadinessPace {
  /** Build times of this instance's builds, ascending. */
  private readonly builtAtMs: number[] = [];
  /** By swapId, in the order served: each swap's build time and when its first payload was ready. */
  private readonly servedSwaps = new Map<string, { builtAtMs: number; readyAtMs: number }>();
  private snapshot: PaceSnapshot | null = null;

  /** This instance accepted a build at `builtAtMs` (its view's createdAtMs). */
  built(builtAtMs: number): void {
    const at = countBelow(this.builtAtMs, builtAtMs + 1);
    if (at === this.builtAtMs.length) this.builtAtMs.push(builtAtMs);
    else this.builtAtMs.splice(at, 0, builtAtMs);
    if (this.builtAtMs.length > PACE_MAX_BUILDS) this.builtAtMs.shift();
  }

  /**
   * What a signing poll answers from `view` alone (plainSigningAnswerOf), its pollAfterMs at this
   * pace; a first payload it serves counts.
   */
  signingAnswerOf(view: SwapViewEntity, nowMs: number): SigningAnswer | null {
    const answer = plainSigningAnswerOf(view, nowMs, this.expectedReadyInMs(view.createdAtMs, nowMs));
    if (answer?.httpStatus === 200) this.servedFirstPayload(view);
    return answer;
  }

  /** A view whose payload is being served: the swap's first payload counts, once. */
  servedFirstPayload(
    view: Pick<SwapViewEntity, 'swapId' | 'createdAtMs' | 'readyAtMs' | 'stepCurrent'>,
  ): void {
    if (view.readyAtMs === null || (view.stepCurrent ?? 1) !== 1 || this.servedSwaps.has(view.swapId)) return;
    this.servedSwaps.set(view.swapId, { builtAtMs: view.createdAtMs, readyAtMs: view.readyAtMs });
    if (this.servedSwaps.size > PACE_MAX_BUILDS)
      this.servedSwaps.delete(this.servedSwaps.keys().next().value as string);
  }

  /**
   * How long until a swap built at `builtAtMs` is likely to have its first payload: the swaps built
   * before it and not served yet, at the rate first payloads were served over the window.
   * Undefined without a pace (too few served within the window).
   */
  expectedReadyInMs(builtAtMs: number, nowMs: number): number | undefined {
    const { servedBuiltAtMs, readyPerMs } = this.snapshotAt(nowMs);
    if (readyPerMs === undefined) return undefined;
    const ahead = countBelow(this.builtAtMs, builtAtMs) - countBelow(servedBuiltAtMs, builtAtMs);
    return Math.max(0, ahead) / readyPerMs;
  }

  private snapshotAt(nowMs: number): PaceSnapshot {
    const last = this.snapshot;
    if (last && nowMs >= last.atMs && nowMs - last.atMs < PACE_RECOMPUTE_MS) return last;
    const horizonMs = nowMs - PACE_HORIZON_MS;
    this.builtAtMs.splice(0, countBelow(this.builtAtMs, horizonMs));
    const servedBuiltAtMs: number[] = [];
    let readyInWindow = 0;
    let firstReadyAtMs = nowMs;
    for (const [swapId, swap] of this.servedSwaps) {
      if (swap.builtAtMs < horizonMs) {
        this.servedSwaps.delete(swapId);
        continue;
      }
      servedBuiltAtMs.push(swap.builtAtMs);
      if (swap.readyAtMs > nowMs - PACE_WINDOW_MS) {
        readyInWindow += 1;
        firstReadyAtMs = Math.min(firstReadyAtMs, swap.readyAtMs);
      }
    }
    servedBuiltAtMs.sort((a, b) => a - b);
    // Over the part of the window since the first of them was ready (a burst's first seconds), at least a second.
    const readyPerMs =
      readyInWindow < PACE_MIN_SAMPLES ? undefined : readyInWindow / Math.max(1_000, nowMs - firstReadyAtMs);
    this.snapshot = { atMs: nowMs, servedBuiltAtMs, readyPerMs };
    return this.snapshot;
  }
}
