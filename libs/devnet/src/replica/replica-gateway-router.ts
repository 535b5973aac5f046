import { getAddress, JsonRpcProvider } from 'ethers';
import type { ChainDeployments } from '@swapgw/chains';
import { deploySwapGatewayRouter, EvmArtifacts } from '@swapgw/evm-contracts';
import { devnetWallet } from '../accounts';
import { DevnetError } from '../devnet-error';
import { DEPLOYER_INDEX } from '../devnet-parameters';

export interface DeployReplicaGatewayRouterInput {
  /** The chain's entry of REAL_NETWORK_CATALOG: its gatewayRouter and permit2. */
  catalog: ChainDeployments;
  provider: JsonRpcProvider;
  mnemonic: string;
  artifacts: Pick<EvmArtifacts, 'SwapGatewayRouter'>;
}

/**
 * Deploys our SwapGatewayRouter on a replica chain the way it goes onto mainnet
 * (`npm run contracts -- deploy`): deploySwapGatewayRouter, CREATE2 through the deterministic
 * deployment proxy anvil has from genesis, then the runtime code checked against the compiled one.
 * Nothing is placed by hand, so the replica proves the catalog's address is where that deployment
 * lands; a router that lands elsewhere (the catalog drifted from the compiled contract) refuses to
 * start the replica. Needs Permit2 at the catalog's address first.
 */
export async function deployReplicaGatewayRouter(input: DeployReplicaGatewayRouterInput): Promise<string> {
  const { catalog, provider, mnemonic, artifacts } = input;
  if (!catalog.gatewayRouter || !catalog.permit2)
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `catalog ${catalog.chain} has no gatewayRouter and permit2: nothing to deploy`,
    );
  const deployer = devnetWallet(mnemonic, DEPLOYER_INDEX, provider);
  let address: string;
  try {
    ({ address } = await deploySwapGatewayRouter(provider, deployer, artifacts, catalog.permit2));
  } catch (error) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${catalog.chain}: SwapGatewayRouter: ${(error as Error).message}`,
    );
  }
  if (address !== getAddress(catalog.gatewayRouter))
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${catalog.chain}: SwapGatewayRouter landed at ${address}, the catalog says ${catalog.gatewayRouter}: ` +
        'update libs/chains/src/catalog/real-networks.ts and docs/chains.md',
    );
  return address;
}
