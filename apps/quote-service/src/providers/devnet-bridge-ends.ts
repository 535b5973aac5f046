import { ChainFamily, ChainRegistry } from '@swapgw/chains';
import type { TokenRef } from '@swapgw/contracts';
import { getAddress } from 'ethers';

/**
 * One chain's end of the devnet USDC bridge, whatever its family: the bridged token, who receives a
 * deposit (`spender`: the EVM bridge contract, or the Solana vault token account), and the number
 * the bridge knows the chain by.
 */
export interface DevnetBridgeEnd {
  chain: string;
  family: Extract<ChainFamily, 'evm' | 'solana'>;
  /** The bridged token on this chain; on Solana `address` is the SPL mint. */
  token: TokenRef;
  spender: string;
  /** EVM chain id, or the manifest's `solana.bridge.chainId`. */
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
   * (the devnet's EVM chains); without a swap venue (the devnet's Solana) only the bridged token rides.
   */
  hasSwapVenue: boolean;
}

/** The bridge end of a devnet chain, or undefined when the chain has none in the manifest. */
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
        address: getAddress(token.address),
        decimals: token.decimals,
      },
      spender: getAddress(evm.bridge.address),
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
      spender: solana.bridge.vault,
      bridgeChainId: solana.bridge.chainId,
      estimatedDurationSeconds: solana.bridge.estimatedDurationSeconds,
      durationHoldsBothWays: true,
      hasSwapVenue: false,
    };
  }
  return undefined;
}

/** Both ends when the devnet bridge links the two chains (same bridged token), else undefined. */
export function devnetBridgeBetween(
  registry: ChainRegistry,
  fromChain: string,
  toChain: string,
): { from: DevnetBridgeEnd; to: DevnetBridgeEnd } | undefined {
  if (fromChain === toChain) return undefined;
  const from = devnetBridgeEnd(registry, fromChain);
  const to = devnetBridgeEnd(registry, toChain);
  if (!from || !to || from.token.symbol !== to.token.symbol) return undefined;
  return { from, to };
}

/**
 * Duration of one transfer: with an end whose figure holds both ways (Solana, measured for either
 * direction), that figure; between EVM chains, the EVM bridge's.
 */
export function bridgeDurationSeconds(from: DevnetBridgeEnd, to: DevnetBridgeEnd): number {
  const governing = [from, to].find((end) => end.durationHoldsBothWays);
  return (governing ?? from).estimatedDurationSeconds;
}
