import { SwapViewCache } from './swap-view-cache';
import type { SwapViewEntity } from './swap-view.entity';

const view = (swapId: string, status = 'planning') => ({ swapId, owner: 'alice', status }) as SwapViewEntity;

/** Reads the row as SwapViewRepository does: begin, (PostgreSQL), finish. */
function read(cache: SwapViewCache, row: SwapViewEntity | null, nowMs = 0): void {
  cache.finishRead(cache.beginRead(row?.swapId ?? 'none'), row, nowMs);
}

describe('SwapViewCache', () => {
  it('answers a row it read until the row changes', () => {
    const cache = new SwapViewCache(10, 10_000);
    expect(cache.get('s1', 0)).toBeUndefined();
    read(cache, view('s1'));
    expect(cache.get('s1', 5)).toMatchObject({ status: 'planning' });
    cache.invalidate('s1');
    expect(cache.get('s1', 6)).toBeUndefined();
  });

  it('does not store what a read returned when the row changed while it ran', () => {
    const cache = new SwapViewCache(10, 10_000);
    const before = cache.beginRead('s1');
    cache.invalidate('s1'); // the notification of a write committed during the read
    cache.finishRead(before, view('s1', 'planning'), 1);
    expect(cache.get('s1', 2)).toBeUndefined();
    // A read that began after the change may be stored.
    read(cache, view('s1', 'awaiting_signature'), 3);
    expect(cache.get('s1', 4)).toMatchObject({ status: 'awaiting_signature' });
  });

  it('stores nothing from reads that overlapped a change, even the one that began after it', () => {
    const cache = new SwapViewCache(10, 10_000);
    const first = cache.beginRead('s1');
    cache.invalidate('s1');
    const second = cache.beginRead('s1');
    cache.finishRead(first, view('s1', 'planning'), 1);
    cache.finishRead(second, view('s1', 'awaiting_signature'), 2);
    expect(cache.get('s1', 3)).toBeUndefined();
    read(cache, view('s1', 'awaiting_signature'), 4);
    expect(cache.get('s1', 5)).toBeDefined();
  });

  it('forgets everything when notifications were missed, including reads in flight', () => {
    const cache = new SwapViewCache(10, 10_000);
    read(cache, view('s1'));
    const inFlight = cache.beginRead('s2');
    cache.clear();
    cache.finishRead(inFlight, view('s2'), 1);
    expect(cache.get('s1', 2)).toBeUndefined();
    expect(cache.get('s2', 2)).toBeUndefined();
  });

  it('is not used while disabled (LISTEN lost)', () => {
    let listening = true;
    const cache = new SwapViewCache(10, 10_000, () => listening);
    read(cache, view('s1'));
    listening = false;
    expect(cache.get('s1', 1)).toBeUndefined();
    read(cache, view('s2'));
    listening = true;
    expect(cache.get('s2', 1)).toBeUndefined();
  });

  it('expires entries after the TTL, keeps no unknown swap and drops the oldest beyond its size', () => {
    const cache = new SwapViewCache(2, 1000);
    read(cache, view('s1'), 0);
    expect(cache.get('s1', 999)).toBeDefined();
    expect(cache.get('s1', 1000)).toBeUndefined();
    read(cache, null);
    expect(cache.size).toBe(0);
    read(cache, view('a'), 0);
    read(cache, view('b'), 0);
    read(cache, view('c'), 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });
});
