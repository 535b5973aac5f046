import { Injectable } from '@nestjs/common';
import {
  assetKeyOfTokenRef,
  ChainDescriptor,
  chainOfTokenRef,
  ChainRegistry,
  checksumEvmAddress,
  readsTokenMetadataOnChain,
  unknownTokenError,
} from '@swapgw/chains';
import { ChainFamilies } from '@swapgw/chains/families';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { Contract } from 'ethers';
import { Clock, TtlCache } from '@swapgw/runtime';
import type { QuoteToken } from '../providers/quote-provider';
import { abortable } from '../providers/uniswap-v2-quoter';
import { CatalogRepository, ResolvedTokenRow as TokenRow } from '../catalog/catalog.repository';

const ERC20_METADATA_ABI = [
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
];

/** A parsed `<namespace>:<chain id>:<kind>:<address>` token reference. */
export interface ParsedTokenRef {
  namespace: string;
  reference: string;
  kind: string;
  address: string;
}

export function parseTokenRef(value: string): ParsedTokenRef {
  const parts = value.split(':');
  if (parts.length !== 4 || parts.some((p) => p.length === 0)) {
    throw new CodedError(
      ErrorCodes.UNKNOWN_TOKEN,
      `token reference "${value}" is not <namespace>:<chain id>:<kind>:<address>`,
    );
  }
  const [namespace, reference, kind, address] = parts;
  return { namespace, reference, kind, address };
}

/**
 * How long a symbol's catalog row is reused. The catalog changes when a token list syncs (hourly
 * by default): a burst of quotes for one pair costs one read per symbol instead of two per quote,
 * and a token added or re-ranked by a sync is quoted by its new row within this time.
 */
export const TOKEN_LOOKUP_TTL_MS = 10_000;
const MAX_CACHED_SYMBOLS = 10_000;
const NOT_IN_CATALOG = Symbol('not in the catalog');

/**
 * Resolves the tokens of a quote request: by symbol from the catalog, or by a canonical token
 * reference override (catalog first; on EVM chains with an RPC, an uncatalogued ERC-20 is read on
 * chain). Anything else is UNKNOWN_TOKEN.
 */
@Injectable()
export class TokenResolver {
  /** Catalog rows by `<chain>:<SYMBOL>`; a symbol the catalog does not have is not remembered. */
  private readonly bySymbol: TtlCache<TokenRow>;

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly registry: ChainRegistry,
    /** Token metadata is read over the chain's bounded provider (RPC_TIMEOUT_MS). */
    private readonly families: ChainFamilies,
    clock: Clock,
  ) {
    this.bySymbol = new TtlCache({ ttlMs: TOKEN_LOOKUP_TTL_MS, maxEntries: MAX_CACHED_SYMBOLS, clock });
  }

  async resolve(
    chain: ChainDescriptor,
    symbol: string,
    override: string | undefined,
    which: 'tokenIn' | 'tokenOut',
  ): Promise<QuoteToken> {
    if (override) return this.resolveOverride(chain, override, which);
    const row = await this.bySymbol
      .getOrLoad(`${chain.id}:${symbol.toUpperCase()}`, async () => {
        const row = await this.catalog.tokenBySymbol(chain.id, symbol);
        // Thrown so that the miss is not cached; each caller names its own field below.
        if (!row) throw NOT_IN_CATALOG;
        return row;
      })
      .catch((error: unknown) => {
        throw error === NOT_IN_CATALOG ? unknownTokenError(which, symbol, chain.id) : error;
      });
    return toQuoteToken(chain.id, row);
  }

  private async resolveOverride(
    chain: ChainDescriptor,
    override: string,
    which: 'tokenIn' | 'tokenOut',
  ): Promise<QuoteToken> {
    const field = which === 'tokenIn' ? 'tokenRefFromOverride' : 'tokenRefToOverride';
    const ref = parseTokenRef(override);
    const refChain = chainOfTokenRef(this.registry, ref.namespace, ref.reference);
    if (!refChain || refChain.id !== chain.id) {
      throw new CodedError(
        ErrorCodes.UNKNOWN_TOKEN,
        `${field} ${override} does not name a token on ${chain.id}`,
        { field, chain: chain.id },
      );
    }
    const assetKey = assetKeyOfTokenRef(chain.family, ref.kind, ref.address);
    if (assetKey === undefined) {
      throw new CodedError(
        ErrorCodes.UNKNOWN_TOKEN,
        `${field} ${override}: kind ${ref.kind} or address is not valid on ${chain.id}`,
        { field },
      );
    }
    const catalogued = await this.catalog.tokenByAssetKey(chain.id, assetKey);
    if (catalogued) return toQuoteToken(chain.id, catalogued);
    if (assetKey !== 'native' && readsTokenMetadataOnChain(chain))
      return this.readErc20(chain, checksumEvmAddress(ref.address), field, override);
    throw new CodedError(
      ErrorCodes.UNKNOWN_TOKEN,
      `${field} ${override} is not a known token on ${chain.id}`,
      { field },
    );
  }

  /** An ERC-20 outside the lists: its symbol and decimals as the contract reports them. */
  private async readErc20(
    chain: ChainDescriptor,
    address: string,
    field: string,
    override: string,
  ): Promise<QuoteToken> {
    const contract = new Contract(address, ERC20_METADATA_ABI, this.families.evmProvider(chain.id));
    const signal = AbortSignal.timeout(3000);
    try {
      const [symbol, decimals] = await Promise.all([
        abortable(contract.symbol() as Promise<string>, signal),
        abortable(contract.decimals() as Promise<bigint>, signal),
      ]);
      return { chain: chain.id, symbol, address, decimals: Number(decimals) };
    } catch {
      throw new CodedError(
        ErrorCodes.UNKNOWN_TOKEN,
        `${field} ${override} is not an ERC-20 token on ${chain.id}`,
        { field },
      );
    }
  }
}

function toQuoteToken(chain: string, row: TokenRow): QuoteToken {
  return { chain, symbol: row.symbol, address: row.address, decimals: row.decimals, mint: row.mint };
}
