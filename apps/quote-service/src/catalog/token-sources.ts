import { catalogTokenAddress, ChainRegistry, ListedToken } from '@swapgw/chains';
import { cosmosTokenListing } from '@swapgw/chains/families';

/**
 * A token as a discovery source reports it, before support and trending data are added: what the
 * devnet manifest lists of a token (its chain, symbol, name, decimals, EVM `address` or Solana mint
 * or Cosmos denom in `mint`, and how many chains it is bridged to), with its logo and rank.
 */
export interface DiscoveredToken extends Omit<ListedToken, 'listIndex'> {
  logoUrl: string | null;
  rank: number;
}

/** A source of tokens (a token list, the devnet manifest...): what GET /tokens is built from. */
export interface TokenListSource {
  readonly name: string;
  /** Remote sources are re-read periodically and can fail; local ones are read once. */
  readonly remote: boolean;
  load(registry: ChainRegistry, signal: AbortSignal): Promise<DiscoveredToken[]>;
}

/** Assets listed first by `sort=top` (and ahead of list order): natives, then majors. */
const CORE_SYMBOLS = ['ETH', 'SOL', 'USDC', 'USDT', 'WETH', 'WBTC', 'DAI', 'WSOL'];
/** List tokens rank after core assets, in the order the list gives them. */
const LIST_RANK_BASE = 1000;

export function coreRank(symbol: string): number | undefined {
  const index = CORE_SYMBOLS.indexOf(symbol.toUpperCase());
  return index >= 0 ? index + 1 : undefined;
}

export function assetKeyOf(token: { address: string | null; mint?: string | null }): string {
  if (token.address) return token.address.toLowerCase();
  if (token.mint) return token.mint;
  return 'native';
}

/**
 * The devnet manifest's tokens plus each devnet chain's native coin, the local Solana, Bitcoin and
 * Cosmos chains included, as the registry reads them from each family's manifest section
 * (ChainRegistry.devnetListedTokens; a Cosmos token's denom in `mint`).
 */
export class DevnetTokenSource implements TokenListSource {
  readonly name = 'devnet-manifest';
  readonly remote = false;

  async load(registry: ChainRegistry): Promise<DiscoveredToken[]> {
    return registry.devnetListedTokens().map(discovered);
  }
}

/** A chain's listed coin or token, ranked: a native coin as a core asset or first, a token as a core asset or in its list order. */
function discovered({ listIndex, ...token }: ListedToken): DiscoveredToken {
  return {
    ...token,
    logoUrl: null,
    rank: coreRank(token.symbol) ?? (listIndex === null ? 1 : LIST_RANK_BASE + listIndex),
  };
}

/** Token Lists standard entry (https://tokenlists.org), as in the Uniswap list (tokens.uniswap.org). */
interface TokenListEntry {
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  logoURI?: string;
  extensions?: { bridgeInfo?: Record<string, unknown> };
}

interface TokenListDocument {
  name?: string;
  tokens: TokenListEntry[];
}

/** Chain id the Uniswap list uses for Solana mainnet (it is not an EVM chain id). */
const UNISWAP_LIST_SOLANA_CHAIN_ID = 501000101;

/**
 * Maps a Token Lists document onto the registry's real networks (EVM by chain id, Solana by the
 * Uniswap list's Solana id) and adds each network's native coin.
 */
export function tokensFromTokenList(document: TokenListDocument, registry: ChainRegistry): DiscoveredToken[] {
  if (!document || !Array.isArray(document.tokens)) throw new Error('not a token list: no tokens array');
  const chainByListId = new Map<number, string>();
  for (const chain of registry.list()) {
    if (chain.devnet) continue;
    if (chain.family === 'evm' && chain.evmChainId !== undefined)
      chainByListId.set(chain.evmChainId, chain.id);
    if (chain.family === 'solana') chainByListId.set(UNISWAP_LIST_SOLANA_CHAIN_ID, chain.id);
  }
  const tokens: DiscoveredToken[] = [];
  document.tokens.forEach((entry, index) => {
    const chainId = chainByListId.get(entry.chainId);
    if (!chainId) return;
    if (
      typeof entry.symbol !== 'string' ||
      !Number.isInteger(entry.decimals) ||
      typeof entry.address !== 'string'
    )
      return;
    // An address not of the chain's family's form: skip the entry rather than store garbage.
    const stored = catalogTokenAddress(registry.get(chainId).family, entry.address);
    if (!stored) return;
    tokens.push({
      chain: chainId,
      symbol: entry.symbol,
      name: entry.name ?? entry.symbol,
      decimals: entry.decimals,
      address: stored.address,
      mint: stored.mint,
      logoUrl: typeof entry.logoURI === 'string' && /^https?:\/\//.test(entry.logoURI) ? entry.logoURI : null,
      rank: coreRank(entry.symbol) ?? LIST_RANK_BASE + index,
      bridgedChains: entry.extensions?.bridgeInfo ? Object.keys(entry.extensions.bridgeInfo).length : 0,
    });
  });
  return tokens;
}

/**
 * Native coins of the real networks (ETH, SOL, ATOM...), which token lists do not carry; on a Cosmos
 * network also the IBC vouchers of the other Cosmos networks' coins (cosmosListedTokens: USDC from
 * Noble on the Hub and Osmosis), each with its denom in `mint`.
 */
export class NativeCoinSource implements TokenListSource {
  readonly name = 'native-coins';
  readonly remote = false;

  async load(registry: ChainRegistry): Promise<DiscoveredToken[]> {
    const realChains = registry.list().filter((chain) => !chain.devnet);
    const cosmos = realChains
      .filter((chain) => chain.cosmos)
      .flatMap((chain) => cosmosTokenListing(chain, (id) => registry.find(id)).map(discovered));
    const natives = realChains
      .filter((chain) => !chain.cosmos)
      .map((chain) => ({
        chain: chain.id,
        symbol: chain.nativeSymbol,
        name:
          chain.nativeSymbol === 'ETH'
            ? 'Ether'
            : chain.nativeSymbol === 'SOL'
              ? 'Solana'
              : chain.nativeSymbol,
        decimals: chain.nativeDecimals,
        address: null,
        mint: null,
        logoUrl: null,
        rank: coreRank(chain.nativeSymbol) ?? 1,
        bridgedChains: 0,
      }));
    return [...natives, ...cosmos];
  }
}

/**
 * The tokens of the shipped catalog on each real network (libs/chains REAL_NETWORK_CATALOG): the
 * tokens the gateway routes through, listed even if a token list changes, with their logos. A
 * token counts as bridged to every other catalog chain that has the same symbol and the bridge
 * protocol (Across).
 */
export class ChainCatalogSource implements TokenListSource {
  readonly name = 'chain-catalog';
  readonly remote = false;

  async load(registry: ChainRegistry): Promise<DiscoveredToken[]> {
    const realChains = registry.list().filter((chain) => !chain.devnet);
    const tokens: DiscoveredToken[] = [];
    for (const chain of realChains) {
      const deployments = registry.deployments(chain.id);
      deployments?.tokens.forEach((token, index) => {
        const stored = catalogTokenAddress(chain.family, token.address);
        if (!stored) return;
        const bridgedChains = deployments.across
          ? realChains.filter(
              (other) =>
                other.id !== chain.id &&
                registry.deployments(other.id)?.across !== undefined &&
                registry.deployments(other.id)?.tokens.some((t) => t.symbol === token.symbol),
            ).length
          : 0;
        tokens.push({
          chain: chain.id,
          symbol: token.symbol,
          name: token.name,
          decimals: token.decimals,
          address: stored.address,
          mint: stored.mint,
          logoUrl: token.logoURI ?? null,
          rank: coreRank(token.symbol) ?? LIST_RANK_BASE + index,
          bridgedChains,
        });
      });
    }
    return tokens;
  }
}

/** A Token Lists document served over HTTP (TOKEN_LIST_URL), re-read periodically. */
export class RemoteTokenListSource implements TokenListSource {
  readonly name: string;
  readonly remote = true;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {
    this.name = `token-list:${url}`;
  }

  async load(registry: ChainRegistry, signal: AbortSignal): Promise<DiscoveredToken[]> {
    const response = await fetch(this.url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(this.timeoutMs)]),
    });
    if (!response.ok) throw new Error(`${this.url} answered HTTP ${response.status}`);
    const document = (await response.json()) as TokenListDocument;
    return tokensFromTokenList(document, registry);
  }
}
