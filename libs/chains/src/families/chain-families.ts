import type { JsonRpcProvider } from 'ethers';
import { CodedError, ErrorCodes, type TransactionStatusResult } from '@swapgw/contracts';
import type { StartupWarmup } from '@swapgw/runtime';
import type { ChainDescriptor, ChainFamily } from '../chain-descriptor';
import type { ChainRegistry } from '../chain-registry';
import { DEFAULT_RPC_TIMEOUT_MS } from './bounded-rpc';
import type { ChainClientLookup, ChainStatusClient } from './chain-family';
import type { BitcoinSigningChainClient } from './bitcoin/bitcoin-signing-client';
import type { CosmosSigningChainClient } from './cosmos/cosmos-signing-client';
import type { EvmChainClient } from './evm/evm-chain-client';
import type { SolanaChainClient } from './solana/solana-chain-client';
import type { ChainFamilyModule, FamilyClientContext, FamilyStatusContext } from './family-module';
import { FAMILY_MODULES } from './family-modules';

type FamilyModules = typeof FAMILY_MODULES;

/** The signing client of `family`'s chains, as its module builds it. */
export type SigningChainClientOf<F extends ChainFamily> = ReturnType<FamilyModules[F]['signingClient']>;

/**
 * A chain the services sign for and read from, of any family: the client each family's folder
 * defines (SigningChainClientBase and its own), told apart by `family`; derived from the
 * family-modules table.
 */
export type SigningChainClient = SigningChainClientOf<ChainFamily>;

/** A family's module, typed for what ChainFamilies does with any of them. */
function moduleOf(family: ChainFamily): ChainFamilyModule<SigningChainClient> {
  return FAMILY_MODULES[family] as ChainFamilyModule<SigningChainClient>;
}

/**
 * The registry's chains behind their family's client: one bounded client per chain (every RPC and
 * status API call bounded by `timeoutMs`), built on first use and kept. The one place that asks
 * which family does what (its module in the family-modules table); services ask a chain's client and
 * never branch on the family themselves. `destroy()` releases what the clients hold (ethers keeps
 * timers for pending requests).
 */
export class ChainFamilies {
  private readonly signingClients = new Map<string, SigningChainClient>();
  private readonly statusClients = new Map<string, ChainStatusClient>();
  private readonly clientContext: FamilyClientContext;

  constructor(
    readonly registry: ChainRegistry,
    private readonly timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
    /**
     * `block-scoped`: reads of EVM chain state are pinned to the head block and answered once per
     * block (BlockScopedEvmProvider), for a service that reads the same state for many requests
     * (quote-service); `direct`: every read asks the node.
     */
    evmReads: 'direct' | 'block-scoped' = 'direct',
  ) {
    this.clientContext = { registry, timeoutMs, reads: evmReads };
  }

  find(id: string): ChainDescriptor | undefined {
    return this.registry.find(id);
  }

  familyOf(id: string): ChainFamily | undefined {
    return this.registry.find(id)?.family;
  }

  /** The chain's signing and reading client (its family's), or why there is none. */
  signing(id: string): ChainClientLookup<SigningChainClient> {
    return this.lookup(id);
  }

  /** The chain's Bitcoin client over its Esplora API, or why there is none (unknown, not Bitcoin, no API URL). */
  bitcoin(id: string): ChainClientLookup<BitcoinSigningChainClient> {
    return this.lookup(id, 'bitcoin');
  }

  /** The chain's Cosmos client over its CometBFT RPC and REST API, or why there is none. */
  cosmos(id: string): ChainClientLookup<CosmosSigningChainClient> {
    return this.lookup(id, 'cosmos');
  }

  /** The chain's EVM client, or why there is none (unknown, not EVM, no RPC URL). */
  evm(id: string): ChainClientLookup<EvmChainClient> {
    return this.lookup(id, 'evm');
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
    return this.lookup(id, 'solana');
  }

  /**
   * The status client of a listed chain (undefined for an unknown one). A chain without an RPC or
   * status API configured here still checks the hash's form, then answers STATUS_UPSTREAM_ERROR.
   */
  status(id: string): ChainStatusClient | undefined {
    const chain = this.registry.find(id);
    if (!chain) return undefined;
    const context: FamilyStatusContext = {
      timeoutMs: this.timeoutMs,
      signing: () => this.signing(id),
      kept: (build) => {
        let client = this.statusClients.get(id);
        if (!client) {
          client = build();
          this.statusClients.set(id, client);
        }
        return client;
      },
    };
    const status = moduleOf(chain.family).status(chain, context);
    return 'unconfigured' in status ? unconfigured(chain, status.unconfigured, status.details ?? {}) : status;
  }

  /**
   * The start-up warm-up of these chains (StartupWarmup, run by bootstrapKafkaService before the
   * service reports ready): builds the client of every chain with an RPC URL whose family keeps its
   * clients, and asks what its first request would (each family's `warmUp`: on EVM the head, the
   * block-scoped reads' first block, and whether Multicall3 is there; on Solana, the slot). What
   * first use would pay, paid before the first request. A chain that fails is named in the warm-up's
   * error; its first use asks again.
   */
  startupWarmup(warmupName = 'chains'): StartupWarmup {
    return { warmupName, warmUp: () => this.warmUp() };
  }

  /** See startupWarmup: resolves with the chains warmed, rejects naming those that failed. */
  async warmUp(): Promise<string[]> {
    // The families whose signing clients the services keep (the others are read per request).
    const chains = this.registry.list().filter((chain) => chain.rpcUrl && moduleOf(chain.family).warmUp);
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
    const module = moduleOf(chain.family);
    if (!module.serves(chain)) return;
    await module.warmUp?.(this.cachedSigning(chain));
  }

  destroy(): void {
    for (const client of this.signingClients.values()) moduleOf(client.family).release?.(client);
    this.signingClients.clear();
    this.statusClients.clear();
  }

  /** The chain's client of `family` (the chain's own when none is named), or why there is none. */
  private lookup<F extends ChainFamily>(id: string, family?: F): ChainClientLookup<SigningChainClientOf<F>> {
    const chain = this.registry.find(id);
    if (!chain) return { ok: false, reason: `chain ${id} is not known` };
    const module = moduleOf(family ?? chain.family);
    if (!module.serves(chain)) return { ok: false, reason: module.refusal(chain) };
    if (!chain.rpcUrl) return { ok: false, reason: noRpcReason(chain) };
    return { ok: true, client: this.cachedSigning(chain) as SigningChainClientOf<F> };
  }

  private cachedSigning(chain: ChainDescriptor): SigningChainClient {
    let client = this.signingClients.get(chain.id);
    if (!client) {
      client = moduleOf(chain.family).signingClient(chain, chain.rpcUrl as string, this.clientContext);
      this.signingClients.set(chain.id, client);
    }
    return client;
  }
}

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
    assertTxHash: (txHash) => moduleOf(chain.family).assertTxHash(chain.id, txHash),
    transactionStatus: async (): Promise<TransactionStatusResult> => {
      throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, message, { chainRef: chain.id, ...details });
    },
  };
}
