import { OnApplicationShutdown } from '@nestjs/common';
import { Connection } from '@solana/web3.js';
import { ChainDescriptor, ChainFamily, ChainRegistry, DevnetSolanaView } from '@swapgw/chains';
import {
  ChainClientLookup,
  ChainFamilies,
  ChainStatusClient,
  SigningChainClient,
} from '@swapgw/chains/families';
import { JsonRpcProvider } from 'ethers';

export type EvmSurfaceLookup =
  | { ok: true; chain: ChainDescriptor; evmChainId: bigint; provider: JsonRpcProvider }
  | { ok: false; reason: string };

export type SolanaSurfaceLookup =
  | {
      ok: true;
      chain: ChainDescriptor;
      connection: Connection;
      devnet: DevnetSolanaView | undefined;
      slotMs: number;
    }
  | { ok: false; reason: string };

/** Solana's target slot time, for chains whose manifest does not say (blockhash validity → ms). */
export const DEFAULT_SOLANA_SLOT_MS = 400;

/**
 * The chains signer-surface can sign and look up on: descriptors from the shared ChainRegistry,
 * behind their family's client (@swapgw/chains/families), every RPC call bounded by RPC_TIMEOUT_MS
 * (the registry's own EVM providers keep ethers' 5-minute default). The clients are released when
 * the app shuts down, after the signing and relaying loops have stopped (they stop when the modules
 * are destroyed).
 */
export class SignerChains implements OnApplicationShutdown {
  readonly families: ChainFamilies;

  constructor(
    readonly registry: ChainRegistry,
    rpcTimeoutMs: number,
  ) {
    this.families = new ChainFamilies(registry, rpcTimeoutMs);
  }

  find(id: string): ChainDescriptor | undefined {
    return this.registry.find(id);
  }

  familyOf(id: string): ChainFamily | undefined {
    return this.registry.find(id)?.family;
  }

  /** The chain's signing client, whatever its family, or why there is none. */
  signing(id: string): ChainClientLookup<SigningChainClient> {
    return this.families.signing(id);
  }

  /** The chain's status client; undefined when the chain is not listed. */
  status(id: string): ChainStatusClient | undefined {
    return this.families.status(id);
  }

  /** The Solana signing surface of a chain (a bounded Connection), or why there is none. */
  solanaSurface(id: string): SolanaSurfaceLookup {
    const lookup = this.families.solana(id);
    if (!lookup.ok) return lookup;
    const devnet = this.registry.devnetSolana(id);
    const { chain, connection } = lookup.client;
    return { ok: true, chain, connection, devnet, slotMs: devnet?.slotMs ?? DEFAULT_SOLANA_SLOT_MS };
  }

  /** The EVM signing surface of a chain, or why there is none (unknown, not EVM, no RPC URL). */
  evmSurface(id: string): EvmSurfaceLookup {
    const lookup = this.families.evm(id);
    if (!lookup.ok) return lookup;
    const { chain, evmChainId, provider } = lookup.client;
    return { ok: true, chain, evmChainId, provider };
  }

  onApplicationShutdown(): void {
    this.destroy();
  }

  destroy(): void {
    this.families.destroy();
  }
}
