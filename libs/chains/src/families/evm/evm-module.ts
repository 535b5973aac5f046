import type { JsonRpcProvider } from 'ethers';
import type { ChainDescriptor } from '../../chain-descriptor';
import {
  boundedEvmProvider,
  boundedProviderSettings,
  CountedJsonRpcProvider,
  WALLET_READ_BATCH_WINDOW_MS,
} from '../bounded-rpc';
import type { ChainFamilyModule, FamilyClientContext } from '../family-module';
import { BlockScopedEvmProvider } from './block-scoped-reads';
import { evmArtifacts } from './evm-artifact';
import { type EvmChainClient, EvmChainClientImpl } from './evm-chain-client';
import { evmStepSpecFamily } from './evm-step-spec';
import { assertEvmTxHash } from './evm-transaction-status';

/** The EVM family's modules (family-modules.ts). */
export const evmFamilyModule: ChainFamilyModule<EvmChainClient, typeof evmArtifacts> = {
  steps: evmStepSpecFamily,
  artifacts: evmArtifacts,
  serves: (chain) => chain.family === 'evm' && chain.evmChainId !== undefined,
  refusal: (chain) =>
    `chain ${chain.id} is a ${chain.family} chain; its signing surface is not available yet`,
  signingClient: (chain, rpcUrl, context) =>
    new EvmChainClientImpl(chain, evmProviderOf(chain, rpcUrl, context)),
  status: (chain, context) => {
    const lookup = context.signing();
    if (lookup.ok) return lookup.client;
    return { unconfigured: `No RPC is configured for chain ${chain.id}`, details: { reason: lookup.reason } };
  },
  assertTxHash: assertEvmTxHash,
  // The head (the block-scoped reads' first block) and whether Multicall3 is there (the first batch's question).
  warmUp: ({ provider }) =>
    Promise.all([
      provider.getBlockNumber(),
      provider instanceof CountedJsonRpcProvider ? provider.multicall3Present() : undefined,
    ]),
  // ethers keeps timers for pending requests.
  release: (client) => client.provider.destroy(),
};

function evmProviderOf(
  chain: ChainDescriptor,
  rpcUrl: string,
  context: FamilyClientContext,
): JsonRpcProvider {
  const evmChainId = chain.evmChainId as number;
  if (context.reads === 'direct')
    return boundedEvmProvider(rpcUrl, evmChainId, context.timeoutMs, chain.id, WALLET_READ_BATCH_WINDOW_MS);
  const { request, network, options } = boundedProviderSettings(rpcUrl, evmChainId, context.timeoutMs);
  return new BlockScopedEvmProvider(chain.id, request, network, options);
}
