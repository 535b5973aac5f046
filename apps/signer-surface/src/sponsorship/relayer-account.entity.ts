import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from '@swapgw/persistence';

/**
 * One relayer account on one chain. Its row is the lock under which a nonce is taken: a sender
 * holds it FOR UPDATE from choosing the nonce until the ledger row is written and the transaction
 * broadcast, so two instances never use one account at the same time.
 */
@Entity({ name: 'relayer_accounts' })
export class RelayerAccountEntity {
  @PrimaryColumn('text')
  chain!: string;

  /** Checksummed address. */
  @PrimaryColumn('text')
  address!: string;

  /** The nonce after the last one this service used (the node's pending nonce may be ahead). */
  @Column({ name: 'next_nonce', type: 'bigint', transformer: bigintAsNumber })
  nextNonce!: number;

  /** Last time a transaction was sent from it: senders take the least recently used free account. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
