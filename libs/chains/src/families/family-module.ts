import type { ChainDescriptor } from '../chain-descriptor';
import type { ChainRegistry } from '../chain-registry';
import type { ChainClientLookup, ChainStatusClient, SigningChainClientBase } from './chain-family';
import type { StepSpecFamily } from './step-spec-family';

/**
 * What a family's clients are built from, given by ChainFamilies: the registry (a devnet chain's
 * view), the bound on every RPC and status API call, and how reads of chain state go (`block-scoped`:
 * pinned to the head block and answered once per block, for a family whose client can, EVM;
 * `direct`: every read asks the node).
 */
export interface FamilyClientContext {
  readonly registry: ChainRegistry;
  readonly timeoutMs: number;
  readonly reads: 'direct' | 'block-scoped';
}

/** What ChainFamilies lends a family to answer a chain's status client. */
export interface FamilyStatusContext {
  readonly timeoutMs: number;
  /** The chain's signing client (it answers status too), or why there is none. */
  signing(): ChainClientLookup<SigningChainClientBase>;
  /** The status client kept for the chain, built by `build` on first use. */
  kept(build: () => ChainStatusClient): ChainStatusClient;
}

/** A listed chain this deployment cannot reach: what its status look-ups answer (STATUS_UPSTREAM_ERROR). */
export interface UnconfiguredStatus {
  readonly unconfigured: string;
  readonly details?: Record<string, unknown>;
}

/**
 * One chain family's modules, as its folder registers them (`<family>-module.ts`) in the
 * family-modules table: its chains' client (signing and status), its step builder and what a wallet
 * hands back for its steps. ChainFamilies and the step registry dispatch through it and never branch
 * on a family themselves.
 */
export interface ChainFamilyModule<
  Client extends SigningChainClientBase = SigningChainClientBase,
  Codec = unknown,
> {
  /** How its legs' signing steps are written out (step-spec-family.ts). */
  readonly steps: StepSpecFamily;
  /** What signing its steps returns, decoded and checked (a SignedArtifactCodec). */
  readonly artifacts: Codec;
  /** Whether its signing client serves `chain` (of its family, with what the client needs). */
  serves(chain: ChainDescriptor): boolean;
  /** Why its signing client does not serve `chain`. */
  refusal(chain: ChainDescriptor): string;
  /** The chain's signing client over `rpcUrl`, built once and kept by ChainFamilies. */
  signingClient(chain: ChainDescriptor, rpcUrl: string, context: FamilyClientContext): Client;
  /** The chain's status client, or what its look-ups answer when it has none here. */
  status(chain: ChainDescriptor, context: FamilyStatusContext): ChainStatusClient | UnconfiguredStatus;
  /** Checks a transaction id's form on `chain` (CodedError when it is not one). */
  assertTxHash(chain: string, txHash: string): void;
  /** What first use of a kept client would pay, paid at start-up; absent for a family read per request. */
  warmUp?(client: Client): Promise<unknown>;
  /** Releases what a client holds (timers, sockets) when ChainFamilies is destroyed. */
  release?(client: Client): void;
}
