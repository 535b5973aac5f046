import type { ChainFamilyModule } from '../family-module';
import { cosmosArtifacts } from './cosmos-artifact';
import { type CosmosSigningChainClient, CosmosSigningChainClientImpl } from './cosmos-signing-client';
import { canonicalCosmosTxHash, CosmosChainStatusClient } from './cosmos-status-client';
import { cosmosStepSpecFamily } from './cosmos-step-spec';

/** The Cosmos family's modules (family-modules.ts). Its clients are read per request: no warm-up. */
export const cosmosFamilyModule: ChainFamilyModule<CosmosSigningChainClient, typeof cosmosArtifacts> = {
  steps: cosmosStepSpecFamily,
  artifacts: cosmosArtifacts,
  serves: (chain) => chain.family === 'cosmos' && Boolean(chain.cosmos),
  refusal: (chain) => `chain ${chain.id} is a ${chain.family} chain, not a Cosmos chain`,
  signingClient: (chain, _rpcUrl, { timeoutMs }) => new CosmosSigningChainClientImpl(chain, timeoutMs),
  // Its look-ups over its CometBFT RPC (`/tx`), the one status client a chain keeps.
  status: (chain, context) =>
    chain.rpcUrl
      ? context.kept(() => new CosmosChainStatusClient(chain, context.timeoutMs))
      : { unconfigured: `No RPC is configured for chain ${chain.id}` },
  assertTxHash: (chain, txHash) => void canonicalCosmosTxHash(chain, txHash),
};
