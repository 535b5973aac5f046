import {
  DEFAULT_MESSAGING_RETENTION,
  MESSAGING_RETENTION_BOUNDS,
  messagingRetentionFromEnv,
} from './messaging-retention-settings';

describe('messagingRetentionFromEnv', () => {
  it('defaults to a day of published outbox rows and 15 days of processed_events', () => {
    expect(messagingRetentionFromEnv({})).toEqual({
      outboxRetentionHours: 24,
      processedEventsRetentionHours: 360,
    });
    expect(
      messagingRetentionFromEnv({ OUTBOX_RETENTION_HOURS: '', PROCESSED_EVENTS_RETENTION_HOURS: '' }),
    ).toEqual(DEFAULT_MESSAGING_RETENTION);
  });

  it('keeps processed_events past the default Kafka retention plus segment roll (7 + 7 days)', () => {
    expect(DEFAULT_MESSAGING_RETENTION.processedEventsRetentionHours).toBeGreaterThan(14 * 24);
    expect(MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.min).toBe(7 * 24);
  });

  it('reads both variables', () => {
    expect(
      messagingRetentionFromEnv({ OUTBOX_RETENTION_HOURS: '6', PROCESSED_EVENTS_RETENTION_HOURS: '720' }),
    ).toEqual({ outboxRetentionHours: 6, processedEventsRetentionHours: 720 });
  });

  it.each([
    ['OUTBOX_RETENTION_HOURS', '0'],
    ['OUTBOX_RETENTION_HOURS', '1.5'],
    ['OUTBOX_RETENTION_HOURS', 'a day'],
    ['PROCESSED_EVENTS_RETENTION_HOURS', '8'],
    ['PROCESSED_EVENTS_RETENTION_HOURS', '167'],
    ['PROCESSED_EVENTS_RETENTION_HOURS', '8761'],
  ])('refuses %s=%s, naming the variable', (variable, value) => {
    expect(() => messagingRetentionFromEnv({ [variable]: value })).toThrow(
      new RegExp(`^${variable} must be an integer from \\d+ to 8760 \\(hours\\), got ${value}$`),
    );
  });
});
