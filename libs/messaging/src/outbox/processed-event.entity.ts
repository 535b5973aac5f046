import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An event a consumer group has applied; written in the transaction that applied it. */
@Entity({ name: 'processed_events' })
// The retention purge's (rows past PROCESSED_EVENTS_RETENTION_HOURS).
@Index('processed_events_processed_at_idx', ['processedAt'])
export class ProcessedEventEntity {
  @PrimaryColumn({ name: 'consumer_group', type: 'text' })
  consumerGroup!: string;

  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt!: Date;
}
