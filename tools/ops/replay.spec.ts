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
      security: { protocol: 'PLAINTEXT', files: {} },
    });
  });

  it('takes SASL from the same variables as the apps, and names a missing one', () => {
    const args = ['--topic', 't', '--group', 'g', '--from-beginning'];
    expect(
      parseReplayArgs(args, {
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'ops',
        KAFKA_SASL_PASSWORD: 'pw',
      }).security,
    ).toMatchObject({ protocol: 'SASL_SSL', sasl: { mechanism: 'SCRAM-SHA-512', username: 'ops' } });
    expect(() => parseReplayArgs(args, { KAFKA_SECURITY_PROTOCOL: 'SASL_SSL' })).toThrow(
      /KAFKA_SASL_MECHANISM/,
    );
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
