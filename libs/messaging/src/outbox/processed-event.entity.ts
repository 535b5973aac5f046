import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An event a consumer group has applied; written in the transaction that applied it. */
@Entity({ name: 'processed_events' })
export class ProcessedEventEntity {
  @PrimaryColumn({ name: 'consumer_group', type: 'text' })
  consumerGroup!: string;

  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt!: Date;
}
