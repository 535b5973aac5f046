import { IsBoolean, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import {
  BASE_UNITS,
  EVM_ADDRESS,
  IsEpochSeconds,
  IsEvmPath,
  IsNestedObject,
  IsNonEmptyString,
  IsOneOf,
  IsPoolFees,
  IsOptionalIntegratorFees,
} from './signing-formats';
import { CHAIN_FAMILIES, type ChainFamily } from '../chain-formats';
import { FAMILY_WIRE } from '../families/family-wire';

/**
 * How the service pays for each family's steps, one entry per family: its entry's `sponsorship` in
 * FAMILY_WIRE (families/family-wire.ts says what each field is).
 */
export const FAMILY_SPONSORSHIP = Object.fromEntries(
  CHAIN_FAMILIES.map((family) => [family, FAMILY_WIRE[family].sponsorship]),
) as { [Family in ChainFamily]: (typeof FAMILY_WIRE)[Family]['sponsorship'] };

type FamilySponsorship = (typeof FAMILY_SPONSORSHIP)[ChainFamily];

export const SPONSORSHIP_MODES: readonly FamilySponsorship['modes'][number][] = CHAIN_FAMILIES.flatMap(
  (family) => FAMILY_SPONSORSHIP[family].modes,
);
/** What the sponsorship ledger records a transaction carrying a user's step as, every family's. */
export const SPONSORED_PURPOSES: readonly FamilySponsorship['sponsoredPurposes'][number][] =
  CHAIN_FAMILIES.flatMap((family) => FAMILY_SPONSORSHIP[family].sponsoredPurposes);
export type SponsoredPurpose = (typeof SPONSORED_PURPOSES)[number];

/** What the sponsorship ledger records a sponsor's own transaction as, every family's. */
export const SPONSOR_PURPOSES: readonly FamilySponsorship['sponsorPurposes'][number][] =
  CHAIN_FAMILIES.flatMap((family) => FAMILY_SPONSORSHIP[family].sponsorPurposes);

/**
 * How the service pays the gas of a step (docs/gas-sponsorship.md):
 *  - `covered-transaction`: the user's own transaction (`call`), where nothing else can work (an
 *    approve of Permit2 for a token without EIP-2612, a native-coin input, an aggregator's prebuilt
 *    call); a relayer first sends the user the transaction's maximum fee, so the user's native
 *    balance never drops;
 *  - `eip2612-permit`: the user signs the token's EIP-2612 Permit for Permit2 (`permit`), a relayer
 *    submits `token.permit(...)`;
 *  - `permit2-intent`: the user signs a Permit2 PermitWitnessTransferFrom whose witness binds the
 *    leg (`intent`), a relayer calls the chain's SwapGatewayRouter with it;
 *  - `solana-fee-payer`: a Solana step whose transaction names the service's fee payer (which also
 *    pays any rent); the user signs it, the service adds the fee payer's signature;
 *  - `bitcoin-fee-wallet`: a Bitcoin step whose transaction spends one UTXO of the service's fee
 *    wallet beside the user's, and that input pays the whole miner fee; the user signs their inputs
 *    (SIGHASH_ALL, so the fee input and every output are fixed), the service signs its input;
 *  - `cosmos-fee-grant`: a Cosmos step whose fee names the service's fee granter (`fee.granter`):
 *    x/feegrant takes the fee from the granter under its allowance to the wallet, which pays nothing.
 */
export type SponsorshipMode = FamilySponsorship['modes'][number];

/**
 * The legs a `permit2-intent` step can carry: `swap`, `bridge` (to an EVM address), `bridge-to` (to a
 * 32-byte recipient: Solana), and `bridge-swap`: a bridge deposit whose swap on the destination chain
 * runs from the same signature (the destination's SwapGatewayRouter swaps what the bridge delivers,
 * or pays the bridged tokens when the swap cannot happen), so the wallet signs nothing there;
 * `across`: an Across SpokePool deposit; `across-swap`: an Across deposit whose fill swaps on the
 * destination through its SwapGatewayRouter (Uniswap V3), as `bridge-swap`.
 */
export const SPONSORED_INTENT_KINDS = [
  'swap',
  'swap-v3',
  'bridge',
  'bridge-to',
  'bridge-swap',
  'across',
  'across-swap',
] as const;
export type SponsoredIntentKind = (typeof SPONSORED_INTENT_KINDS)[number];

/** The deposit terms of an `across` / `across-swap` intent, as Across quoted them (the SpokePool is the venue). */
export class SponsoredAcrossTerms {
  /** The token the relayer pays on the destination chain. */
  @Matches(EVM_ADDRESS)
  outputToken!: string;

  /** What the relayer pays: the quote's outputAmount, scaled down when less is spent than quoted. */
  @Matches(BASE_UNITS)
  outputAmount!: string;

  @Matches(EVM_ADDRESS)
  exclusiveRelayer!: string;

  @IsInt()
  @Min(0)
  @Max(0xffffffff)
  quoteTimestamp!: number;

  @IsInt()
  @Min(0)
  @Max(0xffffffff)
  fillDeadline!: number;

  @IsInt()
  @Min(0)
  @Max(0xffffffff)
  exclusivityParameter!: number;
}

/** The EIP-2612 Permit a `eip2612-permit` step asks for: owner = the step's `from`. */
export class SponsoredPermitSpec {
  @Matches(EVM_ADDRESS)
  token!: string;

  /** The token's EIP-712 domain name (OpenZeppelin ERC20Permit: the token name). */
  @IsNonEmptyString()
  tokenName!: string;

  @IsNonEmptyString()
  version!: string;

  /** Permit2: the allowance lets it move the token with the user's per-transfer signatures only. */
  @Matches(EVM_ADDRESS)
  spender!: string;

  @Matches(BASE_UNITS)
  value!: string;
}

/** An integrator fee a swap intent pays out of `amount` before the swap (the router's IntegratorFee). */
export class SponsoredIntegratorFee {
  @Matches(EVM_ADDRESS)
  recipient!: string;

  @Matches(BASE_UNITS)
  amount!: string;
}

/**
 * The leg a `permit2-intent` step executes, as the SwapGatewayRouter's witness binds it: Permit2
 * moves exactly `amount` of `token` from the signer to the router, which can only do this with it.
 * One variant per `kind`, each validated by its own class (SPONSORED_INTENTS); this is the read
 * shape the chain libraries take: every variant's fields, those of some kinds only optional.
 */
export interface SponsoredIntentSpec {
  kind: SponsoredIntentKind;
  permit2: string;
  router: string;
  token: string;
  amount: string;
  venue: string;
  path?: string[];
  poolFees?: number[];
  amountOutMin?: string;
  unwrapNative?: boolean;
  destinationChainId?: number;
  destinationRouter?: string;
  destinationVenue?: string;
  across?: SponsoredAcrossTerms;
  recipient: string;
  deadline: number;
  integratorFees?: SponsoredIntegratorFee[];
}

/** What every kind of intent binds. */
abstract class SponsoredIntentLeg implements SponsoredIntentSpec {
  @IsIn(SPONSORED_INTENT_KINDS)
  kind!: SponsoredIntentKind;

  @Matches(EVM_ADDRESS)
  permit2!: string;

  /** The SwapGatewayRouter: the Permit2 spender and the contract the relayer calls. */
  @Matches(EVM_ADDRESS)
  router!: string;

  @Matches(EVM_ADDRESS)
  token!: string;

  @Matches(BASE_UNITS)
  amount!: string;

  /**
   * The venue the router calls, signed with the leg: swap: the Uniswap V2 Router02; swap-v3: the
   * Uniswap V3 SwapRouter02; bridge / bridge-to / bridge-swap: the bridge on this chain; across /
   * across-swap: Across's SpokePool on this chain.
   */
  @Matches(EVM_ADDRESS)
  venue!: string;

  /** swap / swap-v3 / bridge-swap: pay out native coin (the path ends with the wrapped native token). */
  @IsOptional()
  @IsBoolean()
  unwrapNative?: boolean;

  /**
   * swap / bridge / bridge-swap: an EVM address (bridge-swap: the final recipient on the destination
   * chain); bridge-to: 0x + 32 bytes (a Solana public key).
   */
  @Matches(/^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/)
  recipient!: string;

  /** Seconds since epoch: the leg's deadline and the Permit2 signature's. */
  @IsEpochSeconds()
  deadline!: number;

  /**
   * The integrator fees the router pays out of `amount` (the route's amountIn, fees included)
   * before it swaps or deposits the rest; signed with the leg. Absent: none.
   */
  @IsOptionalIntegratorFees(() => SponsoredIntegratorFee)
  integratorFees?: SponsoredIntegratorFee[];
}

/** `swap`: a Uniswap V2 swap along `path` (starts with `token`) for at least `amountOutMin`. */
export class SwapIntent extends SponsoredIntentLeg {
  @IsEvmPath()
  path!: string[];

  @Matches(BASE_UNITS)
  amountOutMin!: string;
}

/** `swap-v3`: a Uniswap V3 swap: `path` and the pool fee of each hop (hundredths of a bip). */
export class SwapV3Intent extends SwapIntent {
  @IsPoolFees()
  poolFees!: number[];
}

/** `bridge`: a deposit into this chain's bridge for `recipient` (an EVM address) on the bridge's `destinationChainId`. */
export class BridgeIntent extends SponsoredIntentLeg {
  @IsInt()
  @Min(1)
  destinationChainId!: number;
}

/** `bridge-to`: a bridge deposit to a 32-byte recipient (a Solana wallet). */
export class BridgeToIntent extends BridgeIntent {}

/** `across`: an Across SpokePool deposit with the quote's terms. */
export class AcrossIntent extends BridgeIntent {
  @IsNestedObject(() => SponsoredAcrossTerms)
  across!: SponsoredAcrossTerms;
}

/**
 * `bridge-swap`: a bridge deposit to the destination chain's SwapGatewayRouter, which swaps what
 * arrives along `path` (Uniswap V2, through `destinationVenue`) for at least `amountOutMin`.
 */
export class BridgeSwapIntent extends BridgeIntent {
  @Matches(EVM_ADDRESS)
  destinationRouter!: string;

  @Matches(EVM_ADDRESS)
  destinationVenue!: string;

  @IsEvmPath()
  path!: string[];

  @Matches(BASE_UNITS)
  amountOutMin!: string;
}

/** `across-swap`: an Across deposit whose fill swaps on the destination through Uniswap V3 (`poolFees`). */
export class AcrossSwapIntent extends BridgeSwapIntent {
  @IsPoolFees()
  poolFees!: number[];

  @IsNestedObject(() => SponsoredAcrossTerms)
  across!: SponsoredAcrossTerms;
}

/** The class that validates each kind of intent (one class and one line per kind). */
export const SPONSORED_INTENTS = {
  swap: SwapIntent,
  'swap-v3': SwapV3Intent,
  bridge: BridgeIntent,
  'bridge-to': BridgeToIntent,
  'bridge-swap': BridgeSwapIntent,
  across: AcrossIntent,
  'across-swap': AcrossSwapIntent,
} satisfies Record<SponsoredIntentKind, new () => SponsoredIntentSpec>;

/**
 * How the service pays for a step's gas; see SponsorshipMode. One variant per `mode`, each
 * validated by its own class (SPONSORSHIPS); this is the read shape: `permit` and `intent` are
 * those of `eip2612-permit` and `permit2-intent`.
 */
export interface SponsoredStepSpec {
  mode: SponsorshipMode;
  permit?: SponsoredPermitSpec;
  intent?: SponsoredIntentSpec;
}

/** What every sponsorship names: its mode (each family's mode classes extend it in its folder). */
export abstract class Sponsorship implements SponsoredStepSpec {
  @IsIn(SPONSORSHIP_MODES)
  mode!: SponsorshipMode;
}

/** `covered-transaction`: a relayer sends the user the fee of their own transaction first. */
export class CoveredTransactionSponsorship extends Sponsorship {}

/** `eip2612-permit`: the user signs the token's EIP-2612 Permit for Permit2, a relayer submits it. */
export class Eip2612PermitSponsorship extends Sponsorship {
  @IsNestedObject(() => SponsoredPermitSpec)
  permit!: SponsoredPermitSpec;
}

/** `permit2-intent`: the user signs a Permit2 witness binding the leg, a relayer calls the router. */
export class Permit2IntentSponsorship extends Sponsorship {
  @IsOneOf('kind', SPONSORED_INTENTS)
  intent!: SponsoredIntentSpec;
}
