import { IsInt, Max, Min } from 'class-validator';
import { ServiceEnvironment } from '@swapgw/runtime';
import { MESSAGING_RETENTION_BOUNDS } from '../outbox/messaging-retention-settings';

/**
 * The variables of every app that keeps the messaging tables (outbox, processed_events) in its
 * schema: how long the retention purge keeps their rows (MessagingRetentionPurge). The gateway's
 * config class extends it; the Kafka services' through KafkaServiceEnvironment.
 */
export abstract class MessagingEnvironment extends ServiceEnvironment {
  /** Published outbox rows are deleted this long after publication. */
  @IsInt()
  @Min(MESSAGING_RETENTION_BOUNDS.outboxRetentionHours.min)
  @Max(MESSAGING_RETENTION_BOUNDS.outboxRetentionHours.max)
  OUTBOX_RETENTION_HOURS: number = MESSAGING_RETENTION_BOUNDS.outboxRetentionHours.default;

  /**
   * processed_events rows are deleted this long after their event was applied. A correctness
   * bound: it must exceed how long Kafka may still redeliver an event (the stream topics'
   * retention.ms plus segment.ms, 7 + 7 days by default), or a redelivery is applied twice. See
   * MESSAGING_RETENTION_BOUNDS.
   */
  @IsInt()
  @Min(MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.min)
  @Max(MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.max)
  PROCESSED_EVENTS_RETENTION_HOURS: number = MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.default;
}
