import { msColumn } from '@swapgw/persistence';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'chains' })
export class ChainEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  family!: string;

  @Column({ type: 'text' })
  network!: string;

  @Column({ name: 'evm_chain_id', type: 'integer', nullable: true })
  evmChainId!: number | null;

  @Column({ type: 'text' })
  caip2!: string;

  @Column({ name: 'native_symbol', type: 'text' })
  nativeSymbol!: string;

  @Column({ name: 'signing_surface', type: 'boolean' })
  signingSurface!: boolean;

  /** Listing order: devnet chains first, then real networks as the registry lists them. */
  @Column({ type: 'integer' })
  position!: number;

  @Column(msColumn('updated_at_ms'))
  updatedAtMs!: number;
}

@Entity({ name: 'tokens' })
@Index('tokens_chain_asset_key', ['chain', 'assetKey'], { unique: true })
export class TokenEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  chain!: string;

  @Column({ type: 'text' })
  symbol!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'integer' })
  decimals!: number;

  /** EVM contract address (checksummed); null for the native coin and for Solana tokens. */
  @Column({ type: 'text', nullable: true })
  address!: string | null;

  /** Solana mint address; null elsewhere. */
  @Column({ type: 'text', nullable: true })
  mint!: string | null;

  /** Identity on the chain: lower-case address, mint, or `native`. */
  @Column({ name: 'asset_key', type: 'text' })
  assetKey!: string;

  @Column({ name: 'logo_url', type: 'text', nullable: true })
  logoUrl!: string | null;

  /** Curated prominence: lower is more prominent (core assets first, then list order). */
  @Column({ type: 'integer' })
  rank!: number;

  /** Chains the token list says the asset is bridged to: our market-cap proxy. */
  @Column({ name: 'bridged_chains', type: 'integer' })
  bridgedChains!: number;

  /** Quotes that named this token (in or out): our trending signal. */
  @Column({ name: 'quote_count', type: 'bigint' })
  quoteCount!: string;

  @Column({ type: 'boolean' })
  supported!: boolean;

  @Column({ type: 'jsonb' })
  providers!: string[];

  @Column({ type: 'text' })
  source!: string;

  @Column(msColumn('updated_at_ms'))
  updatedAtMs!: number;
}

@Entity({ name: 'pairs' })
@Index('pairs_identity', ['fromChain', 'toChain', 'tokenIn', 'tokenOut'], { unique: true })
export class PairEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'from_chain', type: 'text' })
  fromChain!: string;

  @Column({ name: 'to_chain', type: 'text' })
  toChain!: string;

  @Column({ name: 'token_in', type: 'text' })
  tokenIn!: string;

  @Column({ name: 'token_out', type: 'text' })
  tokenOut!: string;

  @Column({ type: 'jsonb' })
  providers!: string[];

  @Column({ type: 'boolean' })
  supported!: boolean;

  @Column(msColumn('updated_at_ms'))
  updatedAtMs!: number;
}

/** Sync state of each token discovery source: a source that never loaded makes listings 502. */
@Entity({ name: 'token_sources' })
export class TokenSourceEntity {
  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  status!: 'ok' | 'failed';

  @Column({ name: 'token_count', type: 'integer' })
  tokenCount!: number;

  @Column(msColumn('last_success_at_ms', true))
  lastSuccessAtMs!: number | null;

  @Column(msColumn('last_attempt_at_ms'))
  lastAttemptAtMs!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}
