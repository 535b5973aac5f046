import type {
  BitcoinStepSpec,
  RouteLeg,
  SigningStepKind,
  SolanaStepSpec,
  SponsoredStepSpec,
} from '@swapgw/contracts';
import type { ChainFamily } from '../chain-descriptor';
import type { PermitContracts } from '../permit-contracts';
import type { SplitStep } from '../step-split';
import type { EncodedCall, IntegratorFeeTransfer, RouterPermit } from './evm/evm-calldata';
import { bitcoinStepSpecFamily } from './bitcoin/bitcoin-step-spec';
import { evmStepSpecFamily } from './evm/evm-step-spec';
import { solanaStepSpecFamily } from './solana/solana-step-spec';

/**
 * How each chain family expresses a swap's signing steps: @swapgw/chains' `splitSteps` decides which
 * steps a route has, a family's StepSpecFamily writes each of them out (an EVM call or typed data,
 * a Solana transaction spec) and says how a bridge pays out to a chain of that family. The execution
 * planner looks the family up here and never branches on a family itself; a new family plugs in by
 * adding its entry to STEP_SPEC_FAMILIES.
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
}

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
  /** The step `input.step` of a leg on a chain of this family. */
  stepOf(input: LegStepInput, chains: LegStepChains): LegStepSpec;
  /** How a bridge leg pays `recipient` on a chain of this family. */
  bridgePayoutOf(leg: RouteLeg, recipient: string, chains: StepSpecChains): BridgePayout;
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

/** The families a swap signs on. */
const STEP_SPEC_FAMILIES: Record<ChainFamily, StepSpecFamily | undefined> = {
  evm: evmStepSpecFamily,
  solana: solanaStepSpecFamily,
  bitcoin: bitcoinStepSpecFamily,
};

/** The step building of `family`; throws for a family no swap signs on. */
export function stepSpecFamilyOf(family: ChainFamily): StepSpecFamily {
  const found = STEP_SPEC_FAMILIES[family];
  if (!found) throw new Error(`Chains of the ${family} family have no signing steps`);
  return found;
}

/** Whether legs on `family`'s chains can carry a permit (EIP-2612, Permit2). */
export function familyHasPermits(family: ChainFamily): boolean {
  return STEP_SPEC_FAMILIES[family]?.permits ?? false;
}

/** The step of a leg, written out by the family of the leg's chain. */
export function legStepSpecOf(input: LegStepInput, chains: StepSpecChains): LegStepSpec {
  return stepSpecFamilyOf(chains.familyOf(input.leg.chain)).stepOf(input, legStepChainsOf(chains));
}

/** `chains` with a bridge's destination answered by the family of the chain it delivers to. */
function legStepChainsOf(chains: StepSpecChains): LegStepChains {
  return {
    familyOf: (chain) => chains.familyOf(chain),
    evmChainIdOf: (chain) => chains.evmChainIdOf(chain),
    permitContractsOf: (chain) => chains.permitContractsOf?.(chain),
    tokenPermitOf: (chain, token) => chains.tokenPermitOf?.(chain, token),
    bridgePayoutOf: (leg, recipient) =>
      stepSpecFamilyOf(chains.familyOf(destinationChainOf(leg))).bridgePayoutOf(leg, recipient, chains),
    destinationSwapOf: ({ leg: bridge, next: swap, minOut, finalRecipient, deadline }) => {
      if (!swap) throw new Error(`Bridge-swap leg on ${bridge.chain} is the route's last leg`);
      const destination = stepSpecFamilyOf(chains.familyOf(destinationChainOf(bridge)));
      if (!destination.destinationSwapOf)
        throw new Error(`Swap leg on ${swap.chain} cannot run through its SwapGatewayRouter`);
      return destination.destinationSwapOf(bridge, swap, minOut, finalRecipient, deadline, chains);
    },
  };
}

/** The chain a bridge leg delivers to. */
function destinationChainOf(leg: RouteLeg): string {
  if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
  return leg.destinationChain;
}
