import { Column, Entity, PrimaryColumn } from 'typeorm';
import { msColumn } from '@swapgw/persistence';

/** owner + operation + Idempotency-Key → fingerprint of the request and the response it got. */
@Entity({ name: 'idempotency_records' })
export class IdempotencyRecordEntity {
  @PrimaryColumn({ type: 'text' })
  owner!: string;

  @PrimaryColumn({ type: 'text' })
  operation!: string;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  fingerprint!: string;

  @Column({ type: 'jsonb' })
  response!: unknown;

  @Column(msColumn('created_at_ms'))
  createdAtMs!: number;
}
