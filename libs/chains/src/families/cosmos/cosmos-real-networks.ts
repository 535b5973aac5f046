import cosmoshubChain from 'chain-registry/mainnet/cosmoshub/chain';
import cosmoshubIbc from 'chain-registry/mainnet/cosmoshub/ibc-data';
import nobleChain from 'chain-registry/mainnet/noble/chain';
import nobleIbc from 'chain-registry/mainnet/noble/ibc-data';
import osmosisChain from 'chain-registry/mainnet/osmosis/chain';
import osmosisIbc from 'chain-registry/mainnet/osmosis/ibc-data';

/** The registry's own types (of @chain-registry/types, which the package brings), named from its data. */
type Chain = typeof cosmoshubChain;
type IBCData = (typeof cosmoshubIbc)[number];

/**
 * The Cosmos mainnets of the shipped catalog: Cosmos Hub, Osmosis and Noble, under their chain ids.
 * What a wallet and a node check (chain id, bech32 prefix, fee denom and the validators' usual
 * minimum gas price, the ICS-20 channels between the three) is taken from the `chain-registry`
 * package (the Cosmos ecosystem's registry, pinned in package.json) when the module loads, and
 * checked there: a registry release that drops a chain, renames its id or closes a channel fails
 * every app's boot (ChainCatalogError) instead of signing for the wrong chain. Only what the
 * registry does not say is written here: the API id (the chain id, as on the devnet), the name, the
 * native coin's symbol and decimals (checked against the registry's asset lists by a unit spec), and
 * which variables configure the endpoints.
 */
interface ShippedCosmosChain {
  /** API id and the chain id transactions are signed for. */
  id: string;
  /** The chain's directory in the registry (`chain-registry/mainnet/<name>`). */
  registryName: string;
  name: string;
  nativeSymbol: string;
  nativeDecimals: number;
  /** CometBFT RPC (also the status API: `/tx`) and the SDK's REST API. */
  rpcEnv: string;
  restEnv: string;
  /**
   * Osmosis: its crosschain-swaps contract (osmosis-labs/osmosis cosmwasm/contracts/crosschain-swaps,
   * the one an ibc-hooks `wasm` memo names for a swap on arrival). Not in chain-registry.
   */
  crosschainSwapsContract?: string;
}

export const SHIPPED_COSMOS_CHAINS: readonly ShippedCosmosChain[] = [
  {
    id: 'cosmoshub-4',
    registryName: 'cosmoshub',
    name: 'Cosmos Hub',
    nativeSymbol: 'ATOM',
    nativeDecimals: 6,
    rpcEnv: 'RPC_URL_COSMOSHUB',
    restEnv: 'REST_URL_COSMOSHUB',
  },
  {
    id: 'osmosis-1',
    registryName: 'osmosis',
    name: 'Osmosis',
    nativeSymbol: 'OSMO',
    nativeDecimals: 6,
    rpcEnv: 'RPC_URL_OSMOSIS',
    restEnv: 'REST_URL_OSMOSIS',
    crosschainSwapsContract: 'osmo1uwk8xc6q0s6t5qcpr6rht3sczu6du83xq8pwxjua0hfj5hzcnh3sqxwvxs',
  },
  {
    id: 'noble-1',
    registryName: 'noble',
    name: 'Noble',
    nativeSymbol: 'USDC',
    nativeDecimals: 6,
    rpcEnv: 'RPC_URL_NOBLE',
    restEnv: 'REST_URL_NOBLE',
  },
];

/** What the pinned registry says of each chain (chain.json and the ibc-data of the three). */
export interface CosmosRegistryData {
  chains: Record<string, Chain>;
  ibc: IBCData[];
}

export const PINNED_COSMOS_REGISTRY: CosmosRegistryData = {
  chains: { cosmoshub: cosmoshubChain, osmosis: osmosisChain, noble: nobleChain },
  ibc: [...cosmoshubIbc, ...osmosisIbc, ...nobleIbc],
};

/**
 * A Cosmos mainnet's descriptor as the shipped catalog lists it (a ChainDescriptor without endpoints;
 * written out here, not imported, since chain-descriptor.ts lists these networks among REAL_NETWORKS).
 */
export interface CosmosRealNetwork {
  id: string;
  name: string;
  family: 'cosmos';
  network: 'mainnet';
  caip2: string;
  nativeSymbol: string;
  nativeDecimals: number;
  rpcEnv: string;
  statusApiEnv: string;
  devnet: false;
  cosmos: {
    chainId: string;
    bech32Prefix: string;
    nativeDenom: string;
    restUrl: string;
    restEnv: string;
    minGasPrice: string;
    ibcChannels: Record<string, string>;
    crosschainSwapsContract?: string;
  };
}

/** A registry entry the catalog cannot be built from: the message names the chain and the field. */
export class CosmosRegistryMismatch extends Error {
  override readonly name = 'CosmosRegistryMismatch';
}

/**
 * The real networks' descriptors, without endpoints (ChainRegistry fills `rpcUrl`, `statusApiUrl`
 * and `cosmos.restUrl` from the variables). Throws CosmosRegistryMismatch when the registry does
 * not describe a shipped chain as live on mainnet under its id, with a fee denom and a minimum gas
 * price, and an active ICS-20 channel toward each of the other two.
 */
export function cosmosRealNetworks(
  registry: CosmosRegistryData = PINNED_COSMOS_REGISTRY,
): CosmosRealNetwork[] {
  return SHIPPED_COSMOS_CHAINS.map((shipped) => {
    const entry = registry.chains[shipped.registryName];
    const where = `chain-registry ${shipped.registryName}`;
    if (!entry) throw new CosmosRegistryMismatch(`${where}: not in the registry`);
    if (entry.chainId !== shipped.id)
      throw new CosmosRegistryMismatch(
        `${where}: chain id ${entry.chainId}, the catalog ships ${shipped.id}`,
      );
    if (entry.status !== 'live' || entry.networkType !== 'mainnet')
      throw new CosmosRegistryMismatch(`${where}: ${entry.status} ${entry.networkType}, not a live mainnet`);
    const fee = entry.fees?.feeTokens?.[0];
    const minGasPrice = fee?.fixedMinGasPrice ?? fee?.lowGasPrice;
    if (!fee?.denom || minGasPrice === undefined)
      throw new CosmosRegistryMismatch(`${where}: no fee token with a minimum gas price`);
    if (!entry.bech32Prefix) throw new CosmosRegistryMismatch(`${where}: no bech32 prefix`);
    const ibcChannels: Record<string, string> = {};
    for (const other of SHIPPED_COSMOS_CHAINS) {
      if (other === shipped) continue;
      ibcChannels[other.id] = transferChannel(registry.ibc, shipped, other);
    }
    return {
      id: shipped.id,
      name: shipped.name,
      family: 'cosmos',
      network: 'mainnet',
      caip2: `cosmos:${shipped.id}`,
      nativeSymbol: shipped.nativeSymbol,
      nativeDecimals: shipped.nativeDecimals,
      rpcEnv: shipped.rpcEnv,
      // Transaction status is read over the same CometBFT RPC (`/tx`), as on the devnet.
      statusApiEnv: shipped.rpcEnv,
      devnet: false,
      cosmos: {
        chainId: shipped.id,
        bech32Prefix: entry.bech32Prefix,
        nativeDenom: fee.denom,
        restUrl: '',
        restEnv: shipped.restEnv,
        minGasPrice: `${minGasPrice}${fee.denom}`,
        ibcChannels,
        ...(shipped.crosschainSwapsContract
          ? { crosschainSwapsContract: shipped.crosschainSwapsContract }
          : {}),
      },
    };
  });
}

/** A channel's registry status that carries transfers: `live` by the schema, `ACTIVE` as the data writes it. */
const OPEN_CHANNEL_STATUSES = new Set([undefined, 'live', 'ACTIVE']);

/**
 * `from`'s end of the active, preferred ICS-20 channel between two chains (the registry lists each
 * pair once, with either chain first, by the chains' registry names).
 */
function transferChannel(ibc: readonly IBCData[], from: ShippedCosmosChain, to: ShippedCosmosChain): string {
  for (const pair of ibc) {
    const names = [pair.chain1.chainName, pair.chain2.chainName];
    const ends =
      names[0] === from.registryName && names[1] === to.registryName
        ? (['chain1', 'chain2'] as const)
        : names[1] === from.registryName && names[0] === to.registryName
          ? (['chain2', 'chain1'] as const)
          : undefined;
    if (!ends) continue;
    const channel = pair.channels.find(
      (c) =>
        c[ends[0]].portId === 'transfer' &&
        c[ends[1]].portId === 'transfer' &&
        OPEN_CHANNEL_STATUSES.has(c.tags?.status as string | undefined) &&
        c.tags?.preferred !== false,
    );
    if (channel) return channel[ends[0]].channelId;
  }
  throw new CosmosRegistryMismatch(`chain-registry: no active ICS-20 channel from ${from.id} to ${to.id}`);
}
