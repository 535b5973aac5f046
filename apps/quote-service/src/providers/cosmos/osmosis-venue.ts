import type { ChainDescriptor, ChainRegistry, CosmosChainTraits } from '@swapgw/chains';

/** Where a quote swaps: Osmosis (the chain with a crosschain-swaps contract), reached from `from`. */
export interface OsmosisVenue {
  from: ChainDescriptor;
  fromTraits: CosmosChainTraits;
  osmosis: ChainDescriptor;
  osmosisTraits: CosmosChainTraits;
  /** The crosschain-swaps contract a swap on arrival is sent to (its `wasm` memo). */
  crosschainSwapsContract: string;
  /** Cross-chain: the source chain's channel toward Osmosis and Osmosis's channel back to it. */
  ibc?: { sourceChannel: string; osmosisChannel: string };
}

/**
 * The venue of a route from `fromChain` to `toChain`: `toChain` must be Osmosis (a Cosmos chain with
 * a crosschain-swaps contract and an RPC); `fromChain` Osmosis itself, or a Cosmos chain with a
 * channel to it and back. Undefined: the osmosis provider does not cover the pair of chains.
 */
export function osmosisVenueOf(
  registry: ChainRegistry,
  fromChain: string,
  toChain: string,
): OsmosisVenue | undefined {
  const osmosis = registry.find(toChain);
  const from = registry.find(fromChain);
  const crosschainSwapsContract = osmosis?.cosmos?.crosschainSwapsContract;
  if (!osmosis?.cosmos || !crosschainSwapsContract || !from?.cosmos || !osmosis.rpcUrl) return undefined;
  const venue = {
    from,
    fromTraits: from.cosmos,
    osmosis,
    osmosisTraits: osmosis.cosmos,
    crosschainSwapsContract,
  };
  if (from.id === osmosis.id) return venue;
  const sourceChannel = from.cosmos.ibcChannels[osmosis.id];
  const osmosisChannel = osmosis.cosmos.ibcChannels[from.id];
  if (!sourceChannel || !osmosisChannel) return undefined;
  return { ...venue, ibc: { sourceChannel, osmosisChannel } };
}

/** Whether the osmosis provider quotes from `fromChain` to `toChain` (the catalog's support policy). */
export function osmosisTrades(registry: ChainRegistry, fromChain: string, toChain: string): boolean {
  return osmosisVenueOf(registry, fromChain, toChain) !== undefined;
}
