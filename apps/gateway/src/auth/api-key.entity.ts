import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { IntegratorFeeShare } from '@swapgw/contracts';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** First 8 characters after `sgw_`: public, unique, how an operator names a key to revoke. */
  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  /** SHA-256 hex of the whole key; the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  @Column({ type: 'varchar', length: 200 })
  owner!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** The operator's default integrator fee for POST /quote without one of its own; null: none. */
  @Column({ name: 'integrator_fee', type: 'jsonb', nullable: true })
  integratorFee!: IntegratorFeeShare[] | null;
}
