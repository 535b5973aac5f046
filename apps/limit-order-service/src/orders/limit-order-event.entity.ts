import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { msColumn } from '@swapgw/persistence';

/** Append-only history of every change of every order (the same facts as limit-order.events). */
@Entity({ name: 'limit_order_events' })
export class LimitOrderEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'limit_order_id', type: 'text' })
  limitOrderId!: string;

  @Column({ type: 'text' })
  owner!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ name: 'order_version', type: 'int' })
  orderVersion!: number;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column(msColumn('occurred_at_ms'))
  occurredAtMs!: number;
}
