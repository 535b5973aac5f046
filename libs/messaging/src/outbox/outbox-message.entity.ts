import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { MessageEnvelope } from '@swapgw/contracts';

/**
 * A message written in the same transaction as the change it announces, published by the
 * OutboxRelay. `id` orders publication; the table lives in the service's own schema.
 */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished_idx', ['id'], { where: 'published_at IS NULL' })
// The retention purge's (published rows past OUTBOX_RETENTION_HOURS).
@Index('outbox_published_at_idx', ['publishedAt'], { where: 'published_at IS NOT NULL' })
export class OutboxMessageEntity {
  // bigint comes back from pg as a string: kept as a string so that no precision is lost.
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'event_id', type: 'uuid', unique: true })
  eventId!: string;

  @Column({ type: 'text' })
  topic!: string;

  @Column({ name: 'message_key', type: 'text' })
  messageKey!: string;

  @Column({ type: 'jsonb' })
  envelope!: MessageEnvelope;

  @Column({ type: 'jsonb' })
  headers!: Record<string, string>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;
}
