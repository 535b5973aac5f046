import { REAL_NETWORKS } from '@swapgw/chains';
import {
  COSMOS_MAINNET_CHANNELS,
  CosmosChainRole,
  CosmosChainSpec,
  CosmosNetwork,
} from '../cosmos/cosmos-chain-spec';
import { DevnetError } from '../devnet-error';

/** Which of the shipped Cosmos mainnets plays which part. */
const REPLICA_COSMOS_ROLES: Readonly<Record<string, CosmosChainRole>> = {
  'cosmoshub-4': 'hub',
  'osmosis-1': 'osmosis',
  'noble-1': 'noble',
};

/**
 * The Cosmos mainnets of the shipped catalog (cosmoshub-4, osmosis-1, noble-1, from chain-registry),
 * as the mainnet replica runs them: the devnet's in-process chains under the real chain ids, bech32
 * prefixes, fee denoms and validators' minimum gas prices, the real ICS-20 channel ids between them
 * (so every `ibc/…` denom is the mainnet's), and Osmosis's crosschain-swaps contract at its mainnet
 * address. The pools are the devnet's three (ATOM/OSMO, ATOM/USDC, OSMO/USDC), with the mainnet's
 * vouchers.
 */
export function cosmosReplicaNetwork(): CosmosNetwork {
  const chains: CosmosChainSpec[] = REAL_NETWORKS.flatMap((chain) => {
    if (!chain.cosmos) return [];
    const role = REPLICA_COSMOS_ROLES[chain.id];
    if (!role)
      throw new DevnetError('DEPLOYMENT_FAILED', `no replica role for the Cosmos mainnet ${chain.id}`);
    const price = chain.cosmos.minGasPrice.slice(0, -chain.cosmos.nativeDenom.length);
    return [
      {
        id: chain.id,
        role,
        name: chain.name,
        bech32Prefix: chain.cosmos.bech32Prefix,
        denom: chain.cosmos.nativeDenom,
        symbol: chain.nativeSymbol,
        decimals: chain.nativeDecimals,
        minGasPrice: Number(price),
        // Free ports only: the replica has no standard layout for its Cosmos chains.
        defaultRpcPort: 0,
        defaultRestPort: 0,
      },
    ];
  });
  const crosschainSwapsAddress = chains
    .map((spec) => REAL_NETWORKS.find((chain) => chain.id === spec.id)?.cosmos?.crosschainSwapsContract)
    .find((address) => address !== undefined);
  if (chains.length !== 3 || !crosschainSwapsAddress)
    throw new DevnetError('DEPLOYMENT_FAILED', 'the shipped catalog does not list the three Cosmos mainnets');
  return { chains, channels: COSMOS_MAINNET_CHANNELS, crosschainSwapsAddress };
}
