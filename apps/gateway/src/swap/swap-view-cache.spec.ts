import { SwapViewCache, VersionedView } from './swap-view-cache';
import type { SwapViewEntity } from './swap-view.entity';

/** The row of `swapId` at `version` (its xmin), as a read or a write returns it. */
const view = (swapId: string, status = 'planning', version = `${status}-xmin`): VersionedView => ({
  view: { swapId, owner: 'alice', status } as SwapViewEntity,
  version,
});

/** Reads the row as SwapViewRepository does: begin, (PostgreSQL), finish. */
function read(cache: SwapViewCache, row: VersionedView | null, nowMs = 0): void {
  cache.finishRead(cache.beginRead(row?.view.swapId ?? 'none'), row, nowMs);
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

  it('keeps an entry when the change names the version it holds (the echo of its own write), and drops it for any other', () => {
    const cache = new SwapViewCache(10, 10_000);
    read(cache, view('s1', 'awaiting_signature', '101'));
    cache.invalidate('s1', '101');
    expect(cache.versioned('s1', 1)).toMatchObject({
      view: { status: 'awaiting_signature' },
      version: '101',
    });
    // Another write (another instance's, or a later one): another version.
    cache.invalidate('s1', '102');
    expect(cache.get('s1', 2)).toBeUndefined();
    // A writer that names no version (markSubmitted, the transactional path, older code).
    read(cache, view('s1', 'submitted', '103'));
    cache.invalidate('s1');
    expect(cache.get('s1', 3)).toBeUndefined();
  });

  it('stores a write whose own notification came back before it finished, but nothing older than a change announced meanwhile', () => {
    const cache = new SwapViewCache(10, 10_000);
    // The writer's statement returns after its NOTIFY was delivered: the same version.
    const own = cache.beginRead('s1');
    cache.invalidate('s1', '201');
    cache.finishRead(own, view('s1', 'confirming', '201'), 1);
    expect(cache.versioned('s1', 2)).toMatchObject({ version: '201' });

    // A read that returns the version before a change announced while it ran.
    cache.invalidate('s2', '300');
    const stale = cache.beginRead('s2');
    cache.invalidate('s2', '301');
    cache.finishRead(stale, view('s2', 'planning', '300'), 3);
    expect(cache.get('s2', 4)).toBeUndefined();

    // A read that returns the announced version, but a later one was announced too.
    const overtaken = cache.beginRead('s3');
    cache.invalidate('s3', '401');
    cache.invalidate('s3', '402');
    cache.finishRead(overtaken, view('s3', 'confirming', '401'), 5);
    expect(cache.get('s3', 6)).toBeUndefined();

    // A change of unknown version while it ran: nothing is stored, whatever the version.
    const unknown = cache.beginRead('s4');
    cache.invalidate('s4');
    cache.finishRead(unknown, view('s4', 'submitted', '501'), 7);
    expect(cache.get('s4', 8)).toBeUndefined();
  });

  it('tells who waits on a change once the write that announced it has stored its row, and at once when nothing runs', () => {
    const cache = new SwapViewCache(10, 10_000);
    expect(cache.afterReads('s5', () => undefined)).toBe(false);

    const seen: Array<string | undefined> = [];
    const write = cache.beginRead('s5'); // the projector's statement, still running
    cache.invalidate('s5', '700'); // its own notification, arrived first
    expect(cache.afterReads('s5', () => seen.push(cache.get('s5', 2)?.status))).toBe(true);
    expect(seen).toEqual([]);
    cache.finishRead(write, view('s5', 'awaiting_signature', '700'), 1);
    // Called after the row was stored: the waiter finds it in memory.
    expect(seen).toEqual(['awaiting_signature']);

    // Two reads at once: called once the last one finished, also when nothing was stored.
    const a = cache.beginRead('s6');
    const b = cache.beginRead('s6');
    cache.invalidate('s6');
    let called = 0;
    cache.afterReads('s6', () => (called += 1));
    cache.finishRead(a, view('s6'), 3);
    expect(called).toBe(0);
    cache.finishRead(b, null, 4);
    expect(called).toBe(1);
    expect(cache.get('s6', 5)).toBeUndefined();
  });
});
