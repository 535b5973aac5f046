import { parseReplayArgs, ReplayError } from './replay';

describe('parseReplayArgs', () => {
  it('reads topic, group and from-beginning, with brokers from the environment', () => {
    expect(
      parseReplayArgs(['--topic', 'swap.events', '--group', 'gateway', '--from-beginning'], {
        KAFKA_BROKERS: 'a:1,b:2',
      }),
    ).toEqual({
      brokers: ['a:1', 'b:2'],
      topic: 'swap.events',
      group: 'gateway',
      fromTimestampMs: undefined,
    });
  });

  it('accepts ISO dates and epoch milliseconds', () => {
    const iso = parseReplayArgs(
      ['--topic', 't', '--group', 'g', '--from-timestamp', '2026-11-21T05:00:00Z'],
      {},
    );
    expect(iso.fromTimestampMs).toBe(Date.parse('2026-11-21T05:00:00Z'));
    expect(
      parseReplayArgs(['--topic', 't', '--group', 'g', '--from-timestamp', '1700000000000'], {})
        .fromTimestampMs,
    ).toBe(1700000000000);
  });

  it('refuses missing or contradictory arguments', () => {
    expect(() => parseReplayArgs(['--group', 'g', '--from-beginning'], {})).toThrow(ReplayError);
    expect(() => parseReplayArgs(['--topic', 't', '--group', 'g'], {})).toThrow(/exactly one/);
    expect(() =>
      parseReplayArgs(['--topic', 't', '--group', 'g', '--from-beginning', '--from-timestamp', '1'], {}),
    ).toThrow(/exactly one/);
    expect(() =>
      parseReplayArgs(['--topic', 't', '--group', 'g', '--from-timestamp', 'yesterday'], {}),
    ).toThrow(/not a date/);
  });
});
