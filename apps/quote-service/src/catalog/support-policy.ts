import { ChainRegistry } from '@swapgw/chains';
import { THORCHAIN_POOL_AVAILABLE, thorchainAssetOf, type ThornodePool } from '@swapgw/chains/bitcoin-bridge';
import { acrossBetween } from '../providers/across.provider';
import { nobleCctpCarries, nobleCctpPathOf, nobleCctpTrades } from '../providers/cosmos/noble-cctp.provider';
import {
  nobleForwardingCarries,
  nobleForwardingPathOf,
  nobleForwardingTrades,
} from '../providers/cosmos/noble-forwarding.provider';
import { osmosisTrades } from '../providers/cosmos/osmosis-venue';
import { devnetBridgeBetween, devnetBridgeEnd } from '../providers/devnet-bridge-ends';
import { thorchainPrefixOf } from '../providers/thorchain/thorchain-chains';
import { uniswapV2Deployment } from '../providers/uniswap-v2-deployments';
import { ProviderNames } from '../providers/provider-names';
import { uniswapV3Deployment } from '../providers/uniswap-v3-quoter';

/** A token of a pair, as the catalog lists it: its symbol and contract (null for a native coin). */
export interface PairToken {
  symbol: string;
  address: string | null;
}

export interface SupportPolicyOptions {
  lifiEnabled: boolean;
  /** 0x prices same-chain swaps on the real EVM networks when ZEROX_API_KEY is set. */
  zeroXEnabled?: boolean;
  /** The Solana chain the Jupiter API prices (JUPITER_CHAIN), when JUPITER_API_URL is set. */
  jupiterChain?: string;
  /** Across bridges between chains whose deployments have a SpokePool when ACROSS_API_URL is set. */
  acrossEnabled?: boolean;
  /** Skip Go routes between any two Cosmos chains (and on one) when SKIP_GO_API_URL is set. */
  skipGoEnabled?: boolean;
  /**
   * THORChain takes native BTC to the chains it names when THORNODE_URL is set: the manifest's
   * prefixes (the devnet's local THORNode) beside the real networks'; undefined = off.
   */
  thorchainPrefixes?: Readonly<Record<string, string>>;
}

/**
 * Which providers can trade on a chain, hence which tokens are `supported`:
 *  - uniswap-v2 / uniswap-v3 where the chain's deployments have one and its RPC is set (the devnet's
 *    EVM chains: V2; Ethereum, Base, Arbitrum: both, from the shipped catalog);
 *  - devnet-bridge between devnet chains that have a bridge end in the manifest (EVM, solana-devnet,
 *    noble-devnet; never Bitcoin);
 *  - lifi on the real networks when LIFI_API_URL is configured;
 *  - across between EVM chains whose deployments have an Across SpokePool and that have an RPC URL, unless ACROSS_API_URL is off;
 *  - 0x on the real EVM networks when ZEROX_API_KEY is configured;
 *  - jupiter on one Solana chain (JUPITER_CHAIN) when JUPITER_API_URL is configured;
 *  - osmosis on Osmosis, and from a Cosmos chain with an IBC channel to it (swap on arrival);
 *  - noble-forwarding from an EVM devnet chain's USDC to Osmosis's tokens and the Hub's ATOM (the
 *    devnet bridge into a Noble forwarding account, on into a swap on Osmosis);
 *  - skip-go on and between Cosmos chains when SKIP_GO_API_URL is configured (Skip's answer decides per pair);
 *  - thorchain from a Bitcoin chain to a chain THORChain names, and from an EVM chain it names into
 *    Bitcoin, when THORNODE_URL is configured: for a pair, only where THORNode's pools
 *    (GET /thorchain/pools, useThorchainPools) have BTC.BTC and the other token's asset Available;
 *    for a chain's tokens, where the chain has an Available pool. Until THORNode has answered once,
 *    every such pair (the quote then decides). It is the only provider of BTC, on the devnet (its
 *    local THORNode) as on the replica and real networks.
 * A real-network token is therefore listed but unsupported until an RPC or an aggregator is configured.
 */
export class SupportPolicy {
  private readonly options: SupportPolicyOptions;
  /** The assets of THORChain's Available pools, upper-cased; undefined until THORNode answered. */
  private thorchainAssets: ReadonlySet<string> | undefined;

  constructor(
    private readonly registry: ChainRegistry,
    options: SupportPolicyOptions | boolean,
  ) {
    this.options = typeof options === 'boolean' ? { lifiEnabled: options } : options;
  }

  /**
   * Takes THORNode's last pools: THORChain is then listed only where they have the assets Available.
   * Answers whether what THORChain swaps changed (the first pools always change it).
   */
  useThorchainPools(pools: readonly ThornodePool[]): boolean {
    const assets = new Set(
      pools
        .filter((pool) => pool.status.toLowerCase() === THORCHAIN_POOL_AVAILABLE.toLowerCase())
        .map((pool) => pool.asset.toUpperCase()),
    );
    const previous = this.thorchainAssets;
    this.thorchainAssets = assets;
    return (
      previous === undefined || previous.size !== assets.size || [...assets].some((a) => !previous.has(a))
    );
  }

  sameChainProviders(chainId: string): string[] {
    const chain = this.registry.find(chainId);
    if (!chain) return [];
    const providers: string[] = [];
    if (uniswapV2Deployment(this.registry, chainId)) providers.push(ProviderNames.uniswapV2);
    if (uniswapV3Deployment(this.registry, chainId)) providers.push(ProviderNames.uniswapV3);
    if (this.options.lifiEnabled && !chain.devnet) providers.push(ProviderNames.lifi);
    if (this.options.zeroXEnabled && !chain.devnet && chain.family === 'evm')
      providers.push(ProviderNames.zeroX);
    if (this.options.jupiterChain === chainId && chain.family === 'solana')
      providers.push(ProviderNames.jupiter);
    if (osmosisTrades(this.registry, chainId, chainId)) providers.push(ProviderNames.osmosis);
    if (this.options.skipGoEnabled && chain.cosmos) providers.push(ProviderNames.skipGo);
    return providers;
  }

  crossChainProviders(fromChain: string, toChain: string): string[] {
    const from = this.registry.find(fromChain);
    const to = this.registry.find(toChain);
    if (!from || !to || fromChain === toChain) return [];
    const providers: string[] = [];
    if (from.devnet && to.devnet && devnetBridgeBetween(this.registry, fromChain, toChain))
      providers.push(ProviderNames.devnetBridge);
    if (this.options.lifiEnabled && !from.devnet && !to.devnet) providers.push(ProviderNames.lifi);
    if (this.options.acrossEnabled && acrossBetween(this.registry, fromChain, toChain))
      providers.push(ProviderNames.across);
    if (osmosisTrades(this.registry, fromChain, toChain)) providers.push(ProviderNames.osmosis);
    if (nobleForwardingTrades(this.registry, fromChain, toChain))
      providers.push(ProviderNames.nobleForwarding);
    if (nobleCctpTrades(this.registry, fromChain, toChain)) providers.push(ProviderNames.nobleCctp);
    if (this.options.skipGoEnabled && from.cosmos && to.cosmos) providers.push(ProviderNames.skipGo);
    const thorchainPrefixes = this.options.thorchainPrefixes;
    if (
      thorchainPrefixes &&
      ((from.family === 'bitcoin' && to.family !== 'bitcoin' && thorchainPrefixOf(to, thorchainPrefixes)) ||
        (from.family === 'evm' && to.family === 'bitcoin' && thorchainPrefixOf(from, thorchainPrefixes))) &&
      this.thorchainPoolOn(fromChain) &&
      this.thorchainPoolOn(toChain)
    )
      providers.push(ProviderNames.thorchain);
    return providers;
  }

  /**
   * Providers of one token pair: the chain pair's providers, less devnet-bridge where a Solana end
   * is not the bridged token (the devnet has no Solana swap venue: SOL cannot ride the USDC bridge),
   * less thorchain where a token has no Available pool (once THORNode's pools are known).
   */
  pairProviders(fromChain: string, toChain: string, tokenIn: PairToken, tokenOut: PairToken): string[] {
    const providers =
      fromChain === toChain
        ? this.sameChainProviders(fromChain)
        : this.crossChainProviders(fromChain, toChain);
    return providers.filter(
      (p) =>
        (p !== ProviderNames.devnetBridge ||
          (this.bridgeCarries(fromChain, tokenIn.symbol) && this.bridgeCarries(toChain, tokenOut.symbol))) &&
        // A coin sent to Osmosis as itself is a transfer, not a swap.
        (p !== ProviderNames.osmosis || tokenIn.symbol !== tokenOut.symbol) &&
        (p !== ProviderNames.thorchain ||
          (this.thorchainPoolOf(fromChain, tokenIn) && this.thorchainPoolOf(toChain, tokenOut))) &&
        (p !== ProviderNames.nobleForwarding ||
          this.forwardingCarries(fromChain, toChain, tokenIn.symbol, tokenOut.symbol)) &&
        (p !== ProviderNames.nobleCctp ||
          this.cctpCarries(fromChain, toChain, tokenIn.symbol, tokenOut.symbol)),
    );
  }

  /** Every provider that can move a token of this chain, same-chain or across; `symbol` narrows to one token. */
  tokenProviders(chainId: string, symbol?: string): string[] {
    const providers = new Set(this.sameChainProviders(chainId));
    for (const other of this.registry.list()) {
      for (const p of this.crossChainProviders(chainId, other.id)) {
        // The devnet bridge's deposit (and a forwarding route's, which starts with it) takes only what
        // reaches the bridged token on the source.
        const depositsIntoBridge = p === ProviderNames.devnetBridge || p === ProviderNames.nobleForwarding;
        if (depositsIntoBridge && symbol !== undefined && !this.bridgeCarries(chainId, symbol)) continue;
        providers.add(p);
      }
    }
    return [...providers];
  }

  /** Whether support on this chain differs between its tokens (so it is computed per symbol). */
  supportVariesByToken(chainId: string): boolean {
    return devnetBridgeEnd(this.registry, chainId)?.hasSwapVenue === false;
  }

  /** Whether THORChain has an Available pool on the chain (true while its pools are unknown). */
  private thorchainPoolOn(chainId: string): boolean {
    const assets = this.thorchainAssets;
    if (assets === undefined) return true;
    const chain = this.registry.find(chainId);
    const prefix = chain && thorchainPrefixOf(chain, this.options.thorchainPrefixes);
    if (!chain || prefix === undefined) return false;
    // A swap in or out of Bitcoin is priced through BTC.BTC's pool, whatever the other side.
    if (chain.family === 'bitcoin')
      return assets.has(thorchainAssetOf(prefix, { symbol: chain.nativeSymbol, address: null }));
    return [...assets].some((asset) => asset.startsWith(`${prefix.toUpperCase()}.`));
  }

  /**
   * Whether the token has an Available pool, named as the adapter names it (thorchainAssetOf: the gas
   * asset `ETH.ETH` for a native coin, `ETH.USDC-0XA0B8…` for a contract); true while pools are unknown.
   */
  private thorchainPoolOf(chainId: string, token: PairToken): boolean {
    const assets = this.thorchainAssets;
    if (assets === undefined) return true;
    const chain = this.registry.find(chainId);
    const prefix = chain && thorchainPrefixOf(chain, this.options.thorchainPrefixes);
    if (prefix === undefined) return false;
    try {
      return assets.has(thorchainAssetOf(prefix, token));
    } catch {
      return false; // a symbol or contract THORChain cannot write has no pool
    }
  }

  /** Through a Noble forwarding account: the source's bridged USDC, to a coin of the destination (noble-forwarding). */
  private forwardingCarries(fromChain: string, toChain: string, tokenIn: string, tokenOut: string): boolean {
    const path = nobleForwardingPathOf(this.registry, fromChain, toChain);
    return path !== undefined && nobleForwardingCarries(path, tokenIn, tokenOut);
  }

  /** Through Noble's CCTP: the source's native coin, swapped to the bridged USDC (noble-cctp). */
  private cctpCarries(fromChain: string, toChain: string, tokenIn: string, tokenOut: string): boolean {
    const path = nobleCctpPathOf(this.registry, fromChain, toChain);
    return path !== undefined && nobleCctpCarries(path, tokenIn, tokenOut);
  }

  /** Where a swap venue is (EVM devnet chains) any token reaches the bridge; elsewhere (Solana) only the bridged token. */
  private bridgeCarries(chainId: string, symbol: string): boolean {
    const end = devnetBridgeEnd(this.registry, chainId);
    if (!end) return false;
    return end.hasSwapVenue || end.token.symbol.toUpperCase() === symbol.toUpperCase();
  }
}
