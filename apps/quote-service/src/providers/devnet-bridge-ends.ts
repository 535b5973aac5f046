import { ChainFamily, ChainRegistry, checksumEvmAddress, DevnetBitcoinView } from '@swapgw/chains';
import type { TokenRef } from '@swapgw/contracts';

/**
 * One chain's end of the devnet bridge, whatever its family: the token it takes and pays there, who
 * receives a deposit (`spender`: the EVM bridge contract, the Solana vault token account, Noble's
 * CCTP module, the Bitcoin vault), and the number the bridge knows the chain by. Every end carries
 * USDC across (`carries`). The Bitcoin end takes and pays native BTC for it at the bridge's price
 * (`bitcoinTerms`), and trades with the Cosmos end only (cosmosEndReaches): BTC to and from the EVM
 * chains and Solana is THORChain's alone (providers/thorchain/, docs/chains.md).
 */
export interface DevnetBridgeEnd {
  chain: string;
  family: ChainFamily;
  /** The token this end takes and pays: USDC (on Solana `address` is the SPL mint, on Noble the denom), or native BTC. */
  token: TokenRef;
  /** The symbol of what the bridge carries between ends (USDC). */
  carries: string;
  spender: string;
  /** EVM chain id, or the manifest's `solana.bridge.chainId` / Noble's / `bitcoin.bridge.chainId`. */
  bridgeChainId: number;
  /** Seconds from a deposit on this chain (or towards it) to the release, from the manifest. */
  estimatedDurationSeconds: number;
  /**
   * `estimatedDurationSeconds` holds for transfers in either direction and so decides any transfer
   * touching this end (the Solana relayer's measured figure); otherwise it is the source's figure.
   */
  durationHoldsBothWays: boolean;
  /**
   * A Uniswap V2 swap on this chain can bring any token to the bridged one or take it from there
   * (the devnet's EVM chains); without a swap venue (the devnet's Solana and Noble) only the
   * end's own token rides.
   */
  hasSwapVenue: boolean;
  /** The Bitcoin end: the price and fees at which it swaps BTC for what the bridge carries. */
  bitcoinTerms?: DevnetBitcoinView['bridge'];
}

/**
 * The bridge end of a devnet chain, or undefined when the chain has none in the manifest. The
 * Bitcoin chain's end is reached only from and to Noble's (devnetBridgeBetween): no production code
 * pays BTC to or from an EVM chain or Solana through the devnet bridge, THORChain does.
 */
export function devnetBridgeEnd(registry: ChainRegistry, chainId: string): DevnetBridgeEnd | undefined {
  const manifest = registry.manifest;
  if (!manifest?.bridge) return undefined;
  const evm = registry.devnetChain(chainId);
  if (evm?.bridge) {
    const token = evm.tokens[evm.bridge.token];
    if (!token) return undefined;
    return {
      chain: evm.id,
      family: 'evm',
      token: {
        chain: evm.id,
        symbol: evm.bridge.token,
        address: checksumEvmAddress(token.address),
        decimals: token.decimals,
      },
      carries: evm.bridge.token,
      spender: checksumEvmAddress(evm.bridge.address),
      bridgeChainId: evm.chainId,
      estimatedDurationSeconds: manifest.bridge.estimatedDurationSeconds,
      durationHoldsBothWays: false,
      hasSwapVenue: true,
    };
  }
  const solana = registry.devnetSolana(chainId);
  if (solana?.bridge) {
    const token = solana.tokens[solana.bridge.token as 'USDC'];
    if (!token) return undefined;
    return {
      chain: solana.id,
      family: 'solana',
      token: { chain: solana.id, symbol: solana.bridge.token, address: token.mint, decimals: token.decimals },
      carries: solana.bridge.token,
      spender: solana.bridge.vault,
      bridgeChainId: solana.bridge.chainId,
      estimatedDurationSeconds: solana.bridge.estimatedDurationSeconds,
      durationHoldsBothWays: true,
      hasSwapVenue: false,
    };
  }
  const cosmos = registry.devnetCosmos(chainId);
  if (cosmos?.bridge) {
    return {
      chain: cosmos.id,
      family: 'cosmos',
      token: {
        chain: cosmos.id,
        symbol: cosmos.bridge.token,
        address: cosmos.bridge.denom,
        decimals: cosmos.decimals,
      },
      carries: cosmos.bridge.token,
      // Noble's CCTP module: a MsgDepositForBurn burns the wallet's USDC through it.
      spender: cosmos.bridge.moduleAddress,
      bridgeChainId: cosmos.bridge.chainId,
      estimatedDurationSeconds: cosmos.bridge.estimatedDurationSeconds,
      // Noble's blocks, not the EVM relayer's poll, decide a transfer either way.
      durationHoldsBothWays: true,
      hasSwapVenue: false,
    };
  }
  const bitcoin = registry.devnetBitcoin(chainId);
  if (bitcoin?.bridge) {
    return {
      chain: bitcoin.id,
      family: 'bitcoin',
      token: { chain: bitcoin.id, symbol: bitcoin.nativeSymbol, address: null, decimals: bitcoin.decimals },
      carries: bitcoin.bridge.token,
      spender: bitcoin.bridge.vault,
      bridgeChainId: bitcoin.bridge.chainId,
      estimatedDurationSeconds: bitcoin.bridge.estimatedDurationSeconds,
      // Bitcoin's blocks, not the EVM relayer's poll, decide a transfer either way.
      durationHoldsBothWays: true,
      hasSwapVenue: false,
      bitcoinTerms: bitcoin.bridge,
    };
  }
  return undefined;
}

/** Both ends when the devnet bridge links the two chains (it carries the same token to both), else undefined. */
export function devnetBridgeBetween(
  registry: ChainRegistry,
  fromChain: string,
  toChain: string,
): { from: DevnetBridgeEnd; to: DevnetBridgeEnd } | undefined {
  if (fromChain === toChain) return undefined;
  const from = devnetBridgeEnd(registry, fromChain);
  const to = devnetBridgeEnd(registry, toChain);
  if (!from || !to || from.carries !== to.carries) return undefined;
  if (!cosmosEndReaches(from, to)) return undefined;
  return { from, to };
}

/**
 * The bridge's Cosmos end (Noble's CCTP) trades with the EVM chains and Solana: a Noble burn names a
 * CCTP domain, the EVM bridge's `depositTo` pays a Noble account, and a Solana deposit's memo names a
 * `noble1…` account. The Bitcoin end trades with Noble only, both ways (a burn naming the devnet's
 * Bitcoin domain, a deposit memo naming a `noble1…` account): THORChain, BTC's only provider
 * elsewhere, has no Noble chain.
 */
function cosmosEndReaches(from: DevnetBridgeEnd, to: DevnetBridgeEnd): boolean {
  if (from.family === 'bitcoin' || to.family === 'bitcoin')
    return from.family === 'cosmos' || to.family === 'cosmos';
  if (from.family === 'cosmos') return to.family === 'evm' || to.family === 'solana';
  if (to.family === 'cosmos') return from.family === 'evm' || from.family === 'solana';
  return true;
}

/**
 * Duration of one transfer: with an end whose figure holds both ways (Solana, measured for either
 * direction; Noble's and Bitcoin's blocks), that figure, the larger when both ends have one (Solana ⇄
 * Noble: a Noble block is longer than a Solana slot; Noble ⇄ BTC: Bitcoin's blocks); between EVM
 * chains, the EVM bridge's.
 */
export function bridgeDurationSeconds(from: DevnetBridgeEnd, to: DevnetBridgeEnd): number {
  const governing = [from, to].filter((end) => end.durationHoldsBothWays);
  if (governing.length === 0) return from.estimatedDurationSeconds;
  return Math.max(...governing.map((end) => end.estimatedDurationSeconds));
}
