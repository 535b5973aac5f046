import type {
  BitcoinStepSpec,
  CosmosTxSpec,
  NobleForwardingSpec,
  RouteLeg,
  SigningStepKind,
  SolanaStepSpec,
  SponsoredStepSpec,
} from '@swapgw/contracts';
import type { ChainDescriptor, ChainFamily } from '../chain-descriptor';
import type { PermitContracts } from '../permit-contracts';
import type { SplitStep } from '../step-split';

import type { EncodedCall, IntegratorFeeTransfer, RouterPermit } from './step-parts';

/**
 * What a chain family implements to write out a swap's signing steps, and the shapes its steps are
 * made of. The families (evm/, solana/, bitcoin/) import this module; the registry above them,
 * step-spec-families.ts, maps each family to its implementation. Nothing here imports a family, so
 * a family never reaches the registry or another family through it.
 */

/** What the step builders know of chains and tokens (a ChainRegistry's answers). */
export interface StepSpecChains {
  familyOf(chain: string): ChainFamily;
  /** EVM chain id of an API chain id (`devnet-b` → 31338), for bridge deposits. */
  evmChainIdOf(chain: string): number;
  /** Permit contracts of a chain; undefined where there are none. */
  permitContractsOf?(chain: string): PermitContracts | undefined;
  /** The EIP-712 domain of a token's EIP-2612 permit on a chain; undefined for tokens without one. */
  tokenPermitOf?(chain: string, token: string): { name: string; version: string } | undefined;
  /**
   * The chain's descriptor, for the fields of its family's own that a family's steps read (a Cosmos
   * chain's `cosmos`: its prefix, its ICS-20 channels); a family's builder reads its own field, so a
   * family with a field of its own adds nothing here. A test's chains may give only those fields.
   */
  descriptorOf?(chain: string): Partial<ChainDescriptor> | undefined;
}

/** The fields of a leg its family's settlementOf reads. */
export type SettledLeg = Pick<RouteLeg, 'provider' | 'chain' | 'destinationChain'>;

/** The settlements a family's steps may wait for past their confirmation (StepSpecFamily.settlementOf). */
export type FamilySettlement = 'ibc' | 'cctp';

/** Where a bridge leg pays out, as the source chain's bridge takes it. */
export interface BridgePayout {
  /** The bridge's id of the destination chain. */
  chainId: number;
  /** The recipient as the deposit names it: a 20-byte address, or 32 bytes (0x-hex) for `depositTo`. */
  recipient: string;
  encoding: 'address' | 'bytes32';
}

/**
 * The destination half of a bridge-swap: the bridge's id of the destination chain, its
 * SwapGatewayRouter (the deposit's recipient), and the swap that router runs for the final recipient.
 */
export interface DestinationSwap {
  destinationChainId: number;
  destinationRouter: string;
  /**
   * The destination chain's Uniswap V2 Router02 through which its router swaps, or its V3
   * SwapRouter02 when the swap has pool fees.
   */
  destinationVenue: string;
  path: string[];
  /** Uniswap V3: the pool fee of each hop of `path`. */
  poolFees?: number[];
  amountOutMin: string;
  unwrapNative: boolean;
  recipient: string;
  /** Seconds since epoch. */
  deadline: number;
}

/** A user-paid first leg's permit: what the router call carries, and the chain's Permit2. */
export interface LegPermit extends RouterPermit {
  permit2: string;
}

/** One step of a leg, with the amounts and wallets the planner settled for the leg. */
export interface LegStepInput {
  step: SplitStep;
  leg: RouteLeg;
  /** The leg after it: on a bridge-swap, the destination swap the bridge leg's step binds. */
  next?: RouteLeg;
  /** Every leg after it: on a forwarding bridge (`step.forwards`), what the forwarding account runs. */
  following?: readonly RouteLeg[];
  /** What the leg spends (what the previous leg guarantees, at most its quoted amountIn). */
  spend: bigint;
  /** The leg's minAmountOut scaled to `spend`. */
  minOut: bigint;
  /** The wallet that signs the step. */
  signer: string;
  /** Its public key, when the wallet told it (a Bitcoin Taproot or nested-SegWit spender needs it). */
  signerPublicKey?: string;
  /** Who receives the leg's output: the final recipient on the last leg, else the next chain's wallet. */
  recipient: string;
  /** Who receives the route's output (a bridge-swap's destination swap pays it). */
  finalRecipient: string;
  /** Router deadline, seconds since epoch. */
  deadline: bigint;
  /** The first leg's permit of a user-paid build, if it carries one. */
  permit?: LegPermit;
  /**
   * First leg only: the integrator fees it pays out of its input, in the same transaction, on top
   * of `spend` (an EVM swap through the chain's SwapGatewayRouter).
   */
  integratorFees?: IntegratorFeeTransfer[];
  /** The service pays the gas (gasPayment sponsored). */
  sponsored: boolean;
}

/** A step as a family writes it out; the planner adds its position, chain, signer and wait. */
export interface LegStepSpec {
  kind: SigningStepKind;
  /** EVM transactions: the contract call; null on typed-data and Solana steps. */
  call: EncodedCall | null;
  /** Solana steps: what the signer builds (bridge deposit) or hands out (prebuilt transaction). */
  solana?: SolanaStepSpec;
  /** Bitcoin steps: the deposit the signer builds as a PSBT. */
  bitcoin?: BitcoinStepSpec;
  /** Cosmos steps: the messages of the transaction the signer issues as a SignDoc. */
  cosmos?: CosmosTxSpec;
  /** A forwarding bridge's step: the Noble forwarding account it pays, registered before it is issued. */
  nobleForwarding?: NobleForwardingSpec;
  approve?: { token: string; spender: string; amount: string };
  /** How the service pays the step's gas; absent on user-paid swaps. */
  sponsored?: SponsoredStepSpec;
}

/** The chains a family's builder sees, with the answers of a bridge's destination family resolved. */
export interface LegStepChains extends StepSpecChains {
  /** How the bridge of `leg` pays `recipient` on its destination chain. */
  bridgePayoutOf(leg: RouteLeg, recipient: string): BridgePayout;
  /**
   * The destination half of the bridge-swap step `input` (its bridge leg, and the next leg, the swap
   * it binds): the bridge leg's minOut is what the bridge guarantees, paid to the final recipient.
   */
  destinationSwapOf(input: LegStepInput): DestinationSwap;
}

/** One chain family's step building. */
export interface StepSpecFamily {
  /** Whether the family has ERC-20 allowances, and so EIP-2612 and Permit2 permits. */
  readonly permits: boolean;
  /**
   * Whether a leg on a chain of this family that the split gives no step of (past the route's first)
   * runs on chain from an earlier step's transaction (a Cosmos swap on arrival, its output sent on by
   * the contract); absent: such a leg has nowhere to run.
   */
  readonly runsSteplessLegs?: true;
  /** The step `input.step` of a leg on a chain of this family. */
  stepOf(input: LegStepInput, chains: LegStepChains): LegStepSpec;
  /** How a bridge leg pays `recipient` on a chain of this family. */
  bridgePayoutOf(leg: RouteLeg, recipient: string, chains: StepSpecChains): BridgePayout;
  /**
   * As a forwarding bridge's destination (`step.forwards`): the forwarding account that receives
   * `arrives` and runs the `following` legs for `finalRecipient`; absent where none does.
   */
  forwardingOf?(
    bridge: RouteLeg,
    following: readonly RouteLeg[],
    arrives: bigint,
    finalRecipient: string,
    chains: StepSpecChains,
  ): NobleForwardingSpec;
  /**
   * How the own step of a leg on a chain of this family is settled past its transaction's
   * confirmation (`ibc`: its packet acknowledged; `cctp`: the burn minted on the destination), or
   * undefined when its confirmation settles it; absent where every step's confirmation does.
   */
  settlementOf?(leg: SettledLeg, familyOf: (chain: string) => ChainFamily): FamilySettlement | undefined;
  /** As a bridge-swap's destination: the swap its SwapGatewayRouter runs; absent where none does. */
  destinationSwapOf?(
    bridge: RouteLeg,
    swap: RouteLeg,
    bridged: bigint,
    recipient: string,
    deadline: bigint,
    chains: StepSpecChains,
  ): DestinationSwap;
}
