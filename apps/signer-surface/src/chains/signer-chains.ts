import { OnApplicationShutdown } from '@nestjs/common';
import { ChainDescriptor, ChainFamily, ChainRegistry } from '@swapgw/chains';
import {
  ChainClientLookup,
  ChainFamilies,
  ChainStatusClient,
  SigningChainClient,
} from '@swapgw/chains/families';

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
    /** Every RPC and status API call is bounded by it (RPC_TIMEOUT_MS). */
    readonly rpcTimeoutMs: number,
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

  onApplicationShutdown(): void {
    this.destroy();
  }

  destroy(): void {
    this.families.destroy();
  }
}
