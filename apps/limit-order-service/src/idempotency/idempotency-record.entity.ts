import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '@swapgw/persistence';

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

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;
}
