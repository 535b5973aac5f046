/**
 * How long the messaging tables of a service's schema keep their rows (MessagingRetentionPurge).
 */
export interface MessagingRetentionSettings {
  /** OUTBOX_RETENTION_HOURS: published outbox rows older than this are deleted. */
  outboxRetentionHours: number;
  /** PROCESSED_EVENTS_RETENTION_HOURS: processed_events rows older than this are deleted. */
  processedEventsRetentionHours: number;
}

/**
 * Bounds and defaults of the two variables, shared by the apps' config classes (which validate
 * them at boot) and by messagingRetentionFromEnv (which MessagingModule reads them with).
 *
 * OUTBOX_RETENTION_HOURS: a published row is never read again (Kafka holds the message itself);
 * a day keeps recent publications at hand for an investigation.
 *
 * PROCESSED_EVENTS_RETENTION_HOURS is a correctness bound, not a storage knob: a processed_events
 * row is what makes a redelivered event a duplicate, so it may only go once Kafka can no longer
 * redeliver that event. Stream topics keep the broker's default retention (retention.ms, 7 days)
 * and Kafka deletes whole segments only, once the newest record in a segment is past retention.ms,
 * so a record can outlive retention.ms by up to segment.ms (log.roll.hours, 7 days by default) on a
 * partition whose segment does not fill up sooner: 14 days in the worst case with the defaults.
 * 15 days leaves a day of margin (processed_at is never before the record's own timestamp). The
 * floor is 7 days, Kafka's default retention, so that hours cannot be taken for days by mistake.
 */
export const MESSAGING_RETENTION_BOUNDS = {
  outboxRetentionHours: { min: 1, max: 24 * 365, default: 24, variable: 'OUTBOX_RETENTION_HOURS' },
  processedEventsRetentionHours: {
    min: 24 * 7,
    max: 24 * 365,
    default: 24 * 15,
    variable: 'PROCESSED_EVENTS_RETENTION_HOURS',
  },
} as const;

export const DEFAULT_MESSAGING_RETENTION: MessagingRetentionSettings = {
  outboxRetentionHours: MESSAGING_RETENTION_BOUNDS.outboxRetentionHours.default,
  processedEventsRetentionHours: MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.default,
};

/**
 * OUTBOX_RETENTION_HOURS and PROCESSED_EVENTS_RETENTION_HOURS from raw variables, with the
 * bounds the apps' config classes validate at boot (a bad value exits 78 naming it). Apps take
 * them from their config (messagingRetentionOf); this is for tools and tests without one.
 */
export function messagingRetentionFromEnv(
  env: Record<string, string | undefined>,
): MessagingRetentionSettings {
  const settings = { ...DEFAULT_MESSAGING_RETENTION };
  for (const key of Object.keys(MESSAGING_RETENTION_BOUNDS) as Array<keyof MessagingRetentionSettings>) {
    const { min, max, variable } = MESSAGING_RETENTION_BOUNDS[key];
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${variable} must be an integer from ${min} to ${max} (hours), got ${raw}`);
    }
    settings[key] = value;
  }
  return settings;
}
