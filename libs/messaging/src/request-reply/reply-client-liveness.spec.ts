import { ManualClock } from '@swapgw/runtime';
import { ReplyClientLiveness } from './reply-client-liveness';

describe('ReplyClientLiveness', () => {
  let clock: ManualClock;
  const liveness = () => new ReplyClientLiveness({ consumerStallMs: 10_000, producerStallMs: 35_000 }, clock);

  beforeEach(() => (clock = new ManualClock(1_000_000)));

  it('never calls a client dead before its consumer first joined (the connect timeout bounds that)', () => {
    const l = liveness();
    clock.atMs += 60_000;
    expect(l.deadReason()).toBeNull();
  });

  it('keeps a client whose consumer goes on fetching, however long its requests wait for answers', () => {
    const l = liveness();
    l.consumerProgressed();
    // A minute of slow responders: the consumer's long polls come back every second, replies or not.
    for (let s = 0; s < 60; s++) {
      clock.atMs += 1_000;
      l.consumerProgressed();
      expect(l.deadReason()).toBeNull();
    }
  });

  it('calls a client dead once its consumer has not started or finished a fetch for longer than the bound', () => {
    const l = liveness();
    l.consumerProgressed();
    clock.atMs += 10_000;
    expect(l.deadReason()).toBeNull();
    clock.atMs += 1;
    expect(l.deadReason()).toBe('the reply consumer has not fetched for 10001 ms');
    l.consumerProgressed();
    expect(l.deadReason()).toBeNull();
  });

  it('calls a client dead when a send has been waiting for the broker longer than the bound, not when sends settle', () => {
    const l = liveness();
    l.consumerProgressed();
    const stuck = l.sendStarted();
    for (let s = 0; s < 40; s++) {
      clock.atMs += 1_000;
      l.consumerProgressed();
      l.sendStarted()(); // later sends settle at once
    }
    expect(l.deadReason()).toBe('a send has been waiting for the broker for 40000 ms');
    stuck();
    expect(l.deadReason()).toBeNull();
  });
});
