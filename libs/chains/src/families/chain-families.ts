import type { JsonRpcProvider } from 'ethers';
import { CodedError, ErrorCodes, type TransactionStatusResult } from '@swapgw/contracts';
import type { StartupWarmup } from '@swapgw/runtime';
import type { ChainDescriptor, ChainFamily } from '../chain-descriptor';
import type { ChainRegistry } from '../chain-registry';
import { BitcoinChainClient } from './bitcoin/bitcoin-chain-client';
import {
  type BitcoinSigningChainClient,
  BitcoinSigningChainClientImpl,
} from './bitcoin/bitcoin-signing-client';
import { BitcoinStatusClient } from './bitcoin/bitcoin-status-client';
import { assertBitcoinTxid } from './bitcoin/esplora-transaction-status';
import { canonicalCosmosTxHash, CosmosChainStatusClient } from './cosmos/cosmos-status-client';
import { type CosmosSigningChainClient, CosmosSigningChainClientImpl } from './cosmos/cosmos-signing-client';
import {
  boundedEvmProvider,
  WALLET_READ_BATCH_WINDOW_MS,
  boundedProviderSettings,
  boundedSolanaConnection,
  CountedJsonRpcProvider,
  DEFAULT_RPC_TIMEOUT_MS,
} from './bounded-rpc';
import { BlockScopedEvmProvider } from './evm/block-scoped-reads';
import type { ChainClientLookup, ChainStatusClient } from './chain-family';
import { type EvmChainClient, EvmChainClientImpl } from './evm/evm-chain-client';
import { assertEvmTxHash } from './evm/evm-transaction-status';
import { type SolanaChainClient, SolanaChainClientImpl } from './solana/solana-chain-client';
import { assertSolanaSignature } from './solana/solana-transaction-status';

/**
 * A chain the services sign for and read from, of any family: the client each family's folder
 * defines (SigningChainClientBase and its own), told apart by `family`. A new family adds its
 * client here, beside the line of `cachedSigning` that builds it.
 */
export type SigningChainClient =
  EvmChainClient | SolanaChainClient | BitcoinSigningChainClient | CosmosSigningChainClient;

/**
 * The registry's chains behind their family's client: one bounded client per chain (every RPC and
 * status API call bounded by `timeoutMs`), built on first use and kept. The one place that knows
 * which family does what; services ask a chain's client and never branch on the family themselves.
 * `destroy()` releases the EVM providers (ethers keeps timers for pending requests).
 */
export class ChainFamilies {
  private readonly signingClients = new Map<string, SigningChainClient>();
  private readonly statusClients = new Map<string, ChainStatusClient>();

  constructor(
    readonly registry: ChainRegistry,
    private readonly timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
    /**
     * `block-scoped`: reads of EVM chain state are pinned to the head block and answered once per
     * block (BlockScopedEvmProvider), for a service that reads the same state for many requests
     * (quote-service); `direct`: every read asks the node.
     */
    private readonly evmReads: 'direct' | 'block-scoped' = 'direct',
  ) {}

  find(id: string): ChainDescriptor | undefined {
    return this.registry.find(id);
  }

  familyOf(id: string): ChainFamily | undefined {
    return this.registry.find(id)?.family;
  }

  /** The chain's signing and reading client (EVM, Solana, Bitcoin), or why there is none. */
  signing(id: string): ChainClientLookup<SigningChainClient> {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    if (chain.family === 'solana') return this.solana(id);
    if (chain.family === 'bitcoin') return this.bitcoin(id);
    if (chain.family === 'cosmos') return this.cosmos(id);
    return this.evm(id);
  }

  /** The chain's Bitcoin client over its Esplora API, or why there is none (unknown, not Bitcoin, no API URL). */
  bitcoin(id: string): ChainClientLookup<BitcoinSigningChainClient> {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    if (chain.family !== 'bitcoin')
      return { ok: false, reason: `chain ${id} is a ${chain.family} chain, not a Bitcoin chain` };
    if (!chain.rpcUrl) return { ok: false, reason: noRpcReason(chain) };
    return { ok: true, client: this.cachedSigning(chain) as BitcoinSigningChainClient };
  }

  /** The chain's Cosmos client over its CometBFT RPC and REST API, or why there is none. */
  cosmos(id: string): ChainClientLookup<CosmosSigningChainClient> {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    if (chain.family !== 'cosmos' || !chain.cosmos)
      return { ok: false, reason: `chain ${id} is a ${chain.family} chain, not a Cosmos chain` };
    if (!chain.rpcUrl) return { ok: false, reason: noRpcReason(chain) };
    return { ok: true, client: this.cachedSigning(chain) as CosmosSigningChainClient };
  }

  /** The chain's EVM client, or why there is none (unknown, not EVM, no RPC URL). */
  evm(id: string): ChainClientLookup<EvmChainClient> {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    if (chain.family !== 'evm' || chain.evmChainId === undefined) {
      return {
        ok: false,
        reason: `chain ${id} is a ${chain.family} chain; its signing surface is not available yet`,
      };
    }
    if (!chain.rpcUrl) return { ok: false, reason: noRpcReason(chain) };
    return { ok: true, client: this.cachedSigning(chain) as EvmChainClient };
  }

  /**
   * The chain's bounded EVM provider, for reads outside the family interface (token metadata, pool
   * reserves). Throws when there is none (unknown, not EVM, no RPC URL).
   */
  evmProvider(id: string): JsonRpcProvider {
    const lookup = this.evm(id);
    if (!lookup.ok) throw new Error(lookup.reason);
    return lookup.client.provider;
  }

  /** The chain's Solana client, or why there is none (unknown, not Solana, no RPC URL). */
  solana(id: string): ChainClientLookup<SolanaChainClient> {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    if (chain.family !== 'solana')
      return { ok: false, reason: `chain ${id} is a ${chain.family} chain, not a Solana chain` };
    if (!chain.rpcUrl) return { ok: false, reason: noRpcReason(chain) };
    return { ok: true, client: this.cachedSigning(chain) as SolanaChainClient };
  }

  /**
   * The status client of a listed chain (undefined for an unknown one). A chain without an RPC or
   * status API configured here still checks the hash's form, then answers STATUS_UPSTREAM_ERROR.
   */
  status(id: string): ChainStatusClient | undefined {
    const chain = this.registry.find(id);
    if (!chain) return undefined;
    if (chain.family === 'cosmos') return this.cosmosStatus(chain);
    if (chain.family !== 'bitcoin') {
      const lookup = this.signing(id);
      if (lookup.ok) return lookup.client;
      const message =
        chain.family === 'evm'
          ? `No RPC is configured for chain ${chain.id}`
          : `No RPC is configured for chain ${chain.id} (${chain.rpcEnv})`;
      return unconfigured(chain, message, chain.family === 'evm' ? { reason: lookup.reason } : {});
    }
    if (!chain.statusApiUrl) {
      return unconfigured(
        chain,
        `No status API is configured for chain ${chain.id} (${chain.statusApiEnv})`,
        {},
      );
    }
    let client = this.statusClients.get(id);
    if (!client) {
      client = new BitcoinStatusClient(chain, chain.statusApiUrl, this.timeoutMs);
      this.statusClients.set(id, client);
    }
    return client;
  }

  /** A Cosmos chain's look-ups over its CometBFT RPC (`/tx`), the one client a chain keeps. */
  private cosmosStatus(chain: ChainDescriptor): ChainStatusClient {
    if (!chain.rpcUrl) return unconfigured(chain, `No RPC is configured for chain ${chain.id}`, {});
    let client = this.statusClients.get(chain.id);
    if (!client) {
      client = new CosmosChainStatusClient(chain, this.timeoutMs);
      this.statusClients.set(chain.id, client);
    }
    return client;
  }

  /**
   * The start-up warm-up of these chains (StartupWarmup, run by bootstrapKafkaService before the
   * service reports ready): builds the client of every chain with an RPC URL, and on each EVM chain
   * reads the head (the block-scoped reads' first block) and asks whether Multicall3 is there (the
   * first batch's question); on Solana, the slot. What first use would pay, paid before the first
   * request. A chain that fails is named in the warm-up's error; its first use asks again.
   */
  startupWarmup(warmupName = 'chains'): StartupWarmup {
    return { warmupName, warmUp: () => this.warmUp() };
  }

  /** See startupWarmup: resolves with the chains warmed, rejects naming those that failed. */
  async warmUp(): Promise<string[]> {
    // The families whose signing clients the services keep (Bitcoin and Cosmos are read per request).
    const chains = this.registry
      .list()
      .filter((chain) => chain.rpcUrl && (chain.family === 'evm' || chain.family === 'solana'));
    const failures: string[] = [];
    await Promise.all(
      chains.map(async (chain) => {
        try {
          await this.warmUpChain(chain);
        } catch (error) {
          failures.push(`${chain.id}: ${(error as Error).message}`);
        }
      }),
    );
    if (failures.length > 0) throw new Error(`chains not warmed: ${failures.sort().join('; ')}`);
    return chains.map((chain) => chain.id);
  }

  private async warmUpChain(chain: ChainDescriptor): Promise<void> {
    if (chain.family === 'evm' && chain.evmChainId === undefined) return;
    const client = this.cachedSigning(chain);
    if (client.family === 'evm') {
      const { provider } = client;
      await Promise.all([
        provider.getBlockNumber(),
        provider instanceof CountedJsonRpcProvider ? provider.multicall3Present() : undefined,
      ]);
    } else if (client.family === 'solana') {
      await client.connection.getSlot();
    }
  }

  destroy(): void {
    for (const client of this.signingClients.values()) if (client.family === 'evm') client.provider.destroy();
    this.signingClients.clear();
    this.statusClients.clear();
  }

  private evmProviderOf(chain: ChainDescriptor, rpcUrl: string): JsonRpcProvider {
    const evmChainId = chain.evmChainId as number;
    if (this.evmReads === 'direct')
      return boundedEvmProvider(rpcUrl, evmChainId, this.timeoutMs, chain.id, WALLET_READ_BATCH_WINDOW_MS);
    const { request, network, options } = boundedProviderSettings(rpcUrl, evmChainId, this.timeoutMs);
    return new BlockScopedEvmProvider(chain.id, request, network, options);
  }

  private cachedSigning(chain: ChainDescriptor): SigningChainClient {
    let client = this.signingClients.get(chain.id);
    if (!client) {
      const rpcUrl = chain.rpcUrl as string;
      client =
        chain.family === 'solana'
          ? new SolanaChainClientImpl(
              chain,
              boundedSolanaConnection(rpcUrl, this.timeoutMs, chain.id),
              this.registry.devnetSolana(chain.id),
              this.registry.devnetSolana(chain.id)?.slotMs,
            )
          : chain.family === 'cosmos'
            ? new CosmosSigningChainClientImpl(chain, this.timeoutMs)
            : chain.family === 'bitcoin'
              ? new BitcoinSigningChainClientImpl(
                  chain,
                  new BitcoinChainClient(rpcUrl, this.timeoutMs),
                  chain.bitcoinNetwork ?? (chain.network === 'mainnet' ? 'mainnet' : 'testnet'),
                  rpcUrl,
                  this.timeoutMs,
                )
              : new EvmChainClientImpl(chain, this.evmProviderOf(chain, rpcUrl));
      this.signingClients.set(chain.id, client);
    }
    return client;
  }
}

const TX_HASH_CHECKS: Record<ChainFamily, (chain: string, txHash: string) => void> = {
  evm: assertEvmTxHash,
  solana: (_chain, txHash) => assertSolanaSignature(txHash),
  bitcoin: assertBitcoinTxid,
  cosmos: (chain, txHash) => void canonicalCosmosTxHash(chain, txHash),
};

function noRpcReason(chain: ChainDescriptor): string {
  return `chain ${chain.id} has no RPC URL configured${chain.rpcEnv ? ` (${chain.rpcEnv})` : ''}`;
}

/** A listed chain this deployment cannot reach: the hash's form is still the caller's error. */
function unconfigured(
  chain: ChainDescriptor,
  message: string,
  details: Record<string, unknown>,
): ChainStatusClient {
  return {
    family: chain.family,
    chain,
    assertTxHash: (txHash) => TX_HASH_CHECKS[chain.family](chain.id, txHash),
    transactionStatus: async (): Promise<TransactionStatusResult> => {
      throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, message, { chainRef: chain.id, ...details });
    },
  };
}
