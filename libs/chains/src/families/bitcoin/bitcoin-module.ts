import type { ChainFamilyModule } from '../family-module';
import { bitcoinArtifacts } from './bitcoin-artifact-codec';
import { BitcoinChainClient } from './bitcoin-chain-client';
import { type BitcoinSigningChainClient, BitcoinSigningChainClientImpl } from './bitcoin-signing-client';
import { BitcoinStatusClient } from './bitcoin-status-client';
import { bitcoinStepSpecFamily } from './bitcoin-step-spec';
import { assertBitcoinTxid } from './esplora-transaction-status';

/** The Bitcoin family's modules (family-modules.ts). Its clients are read per request: no warm-up. */
export const bitcoinFamilyModule: ChainFamilyModule<BitcoinSigningChainClient, typeof bitcoinArtifacts> = {
  steps: bitcoinStepSpecFamily,
  artifacts: bitcoinArtifacts,
  serves: (chain) => chain.family === 'bitcoin',
  refusal: (chain) => `chain ${chain.id} is a ${chain.family} chain, not a Bitcoin chain`,
  signingClient: (chain, rpcUrl, { timeoutMs }) =>
    new BitcoinSigningChainClientImpl(
      chain,
      new BitcoinChainClient(rpcUrl, timeoutMs),
      chain.bitcoinNetwork ?? (chain.network === 'mainnet' ? 'mainnet' : 'testnet'),
      rpcUrl,
      timeoutMs,
    ),
  // Status is read from the chain's Esplora API, not its node's RPC.
  status: (chain, context) => {
    const statusApiUrl = chain.statusApiUrl;
    if (!statusApiUrl)
      return { unconfigured: `No status API is configured for chain ${chain.id} (${chain.statusApiEnv})` };
    return context.kept(() => new BitcoinStatusClient(chain, statusApiUrl, context.timeoutMs));
  },
  assertTxHash: assertBitcoinTxid,
};
