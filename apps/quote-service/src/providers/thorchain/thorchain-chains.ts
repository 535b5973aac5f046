import type { ChainDescriptor, ChainRegistry } from '@swapgw/chains';

/**
 * THORChain's chain prefix of the EVM networks it trades on, by EVM chain id: the prefix of their
 * assets (`BASE.USDC-0X8335…`) and of their inbound_addresses entry.
 */
const THORCHAIN_EVM_CHAINS: Readonly<Record<number, string>> = {
  1: 'ETH',
  56: 'BSC',
  8453: 'BASE',
  42161: 'ARB',
  43114: 'AVAX',
};

/**
 * A chain's THORChain prefix: `BTC` for Bitcoin (mainnet and its local replicas alike: THORChain's
 * own mocknet names regtest Bitcoin `BTC` too), the table's for an EVM chain, else undefined (no
 * THORChain route).
 */
export function thorchainChainOf(chain: Pick<ChainDescriptor, 'family' | 'evmChainId'>): string | undefined {
  if (chain.family === 'bitcoin') return 'BTC';
  if (chain.family === 'evm' && chain.evmChainId !== undefined) return THORCHAIN_EVM_CHAINS[chain.evmChainId];
  return undefined;
}

/**
 * The THORChain prefixes a chain registry adds to the table of real networks: the devnet's local
 * THORNode names its EVM chains in the manifest (`bitcoin.bridge.thornode.chains`); none elsewhere.
 */
export function manifestThorchainPrefixes(registry: ChainRegistry): Readonly<Record<string, string>> {
  return registry.manifest?.bitcoin?.bridge.thornode?.chains ?? {};
}

/** A chain's THORChain prefix, the manifest's names first (see manifestThorchainPrefixes). */
export function thorchainPrefixOf(
  chain: Pick<ChainDescriptor, 'id' | 'family' | 'evmChainId'>,
  prefixes: Readonly<Record<string, string>> = {},
): string | undefined {
  return prefixes[chain.id] ?? thorchainChainOf(chain);
}
