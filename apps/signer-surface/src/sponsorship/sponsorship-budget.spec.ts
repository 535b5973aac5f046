import { utcDayOf } from './sponsorship-budget';

describe('utcDayOf', () => {
  it('is the UTC day, whatever the local time zone', () => {
    const { startMs, endMs } = utcDayOf(Date.UTC(2026, 10, 23, 23, 59, 59, 999));
    expect(new Date(startMs).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(new Date(endMs).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(utcDayOf(endMs).startMs).toBe(endMs);
  });
});
