import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import type { ChainFamily } from '../chain-formats';

/** Message types answered by quote-service on `catalog.requests`. */
export const CatalogMessageTypes = {
  listChains: 'catalog.chains.list',
  listTokens: 'catalog.tokens.list',
  listPairs: 'catalog.pairs.list',
} as const;

export const TOKEN_SORTS = ['top', 'marketcap', 'trending', 'asc'] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number];

export const TOKEN_LIMIT = { min: 1, max: 50_000, default: 500 } as const;
export const PAIR_LIMIT = { min: 1, max: 10_000, default: 1_000 } as const;

/** `catalog.chains.list`: no filters. */
export class ListChainsRequest {
  @IsOptional()
  @IsBoolean()
  debug?: boolean;
}

/** Public Chain resource (spec: Chain, with what a wallet needs to map it to its own networks). */
export interface ChainView {
  id: string;
  name: string;
  family: ChainFamily;
  network: 'mainnet' | 'testnet';
  /** EVM chain id (the `chainId` of EVM payloads); null for other families. */
  chainId: number | null;
  /** CAIP-2 id (`eip155:1`, `solana:5eykt4...`, `bip122:...`). */
  caip2: string;
  nativeSymbol: string;
}

export interface ListChainsResult {
  chains: ChainView[];
}

/** `catalog.tokens.list`: filters of GET /tokens, already parsed by the gateway. */
export class ListTokensRequest {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  chainRef?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(TOKEN_LIMIT.min)
  @Max(TOKEN_LIMIT.max)
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;

  @IsOptional()
  @IsBoolean()
  supportedOnly?: boolean;

  @IsOptional()
  @IsBoolean()
  requireLogo?: boolean;

  @IsOptional()
  @IsIn(TOKEN_SORTS)
  sort?: TokenSort;

  @IsOptional()
  @IsBoolean()
  debug?: boolean;
}

/**
 * Public Token resource (spec: Token); `address` for EVM tokens, `mint` for Solana ones, `denom`
 * for every token of a Cosmos chain (its native coin's too: `uatom`).
 */
export interface TokenView {
  chain: string;
  symbol: string;
  name: string;
  decimals: number;
  address?: string;
  mint?: string;
  denom?: string;
  logoUrl?: string;
  /** Only with `debug`: where the row comes from and why it is (not) supported. */
  debug?: TokenDebugInfo;
}

export interface TokenDebugInfo {
  source: string;
  supported: boolean;
  providers: string[];
  rank: number;
  bridgedChains: number;
  quoteCount: number;
}

export interface ListTokensResult {
  tokens: TokenView[];
  nextCursor: string | null;
  debug?: Record<string, unknown>;
}

/** `catalog.pairs.list`: filters of GET /pairs. */
export class ListPairsRequest {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  chainRef?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenIn?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenOut?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(PAIR_LIMIT.min)
  @Max(PAIR_LIMIT.max)
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;

  @IsOptional()
  @IsBoolean()
  supportedOnly?: boolean;

  @IsOptional()
  @IsBoolean()
  debug?: boolean;
}

/** Public Pair resource (spec: Pair); tokens are symbols. */
export interface PairView {
  fromChain: string;
  toChain: string;
  tokenIn: string;
  tokenOut: string;
  debug?: { providers: string[]; supported: boolean };
}

export interface ListPairsResult {
  pairs: PairView[];
  nextCursor: string | null;
  debug?: Record<string, unknown>;
}
