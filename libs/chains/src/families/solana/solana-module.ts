import { boundedSolanaConnection } from '../bounded-rpc';
import type { ChainFamilyModule } from '../family-module';
import { solanaArtifacts } from './solana-artifact';
import { type SolanaChainClient, SolanaChainClientImpl } from './solana-chain-client';
import { solanaStepSpecFamily } from './solana-step-spec';
import { assertSolanaSignature } from './solana-transaction-status';

/** The Solana family's modules (family-modules.ts). */
export const solanaFamilyModule: ChainFamilyModule<SolanaChainClient, typeof solanaArtifacts> = {
  steps: solanaStepSpecFamily,
  artifacts: solanaArtifacts,
  serves: (chain) => chain.family === 'solana',
  refusal: (chain) => `chain ${chain.id} is a ${chain.family} chain, not a Solana chain`,
  signingClient: (chain, rpcUrl, { registry, timeoutMs }) =>
    new SolanaChainClientImpl(
      chain,
      boundedSolanaConnection(rpcUrl, timeoutMs, chain.id),
      registry.devnetSolana(chain.id),
      registry.devnetSolana(chain.id)?.slotMs,
    ),
  status: (chain, context) => {
    const lookup = context.signing();
    return lookup.ok
      ? lookup.client
      : { unconfigured: `No RPC is configured for chain ${chain.id} (${chain.rpcEnv})` };
  },
  assertTxHash: (_chain, txHash) => assertSolanaSignature(txHash),
  warmUp: (client) => client.connection.getSlot(),
};
