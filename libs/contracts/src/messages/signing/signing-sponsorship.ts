import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  BASE_UNITS,
  EVM_ADDRESS,
  IsEpochSeconds,
  IsEvmPath,
  IsNestedObject,
  IsNonEmptyString,
  IsOptionalIntegratorFees,
} from './signing-formats';

export const SPONSORSHIP_MODES = [
  'covered-transaction',
  'eip2612-permit',
  'permit2-intent',
  'solana-fee-payer',
  'bitcoin-fee-wallet',
] as const;
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
 *    (SIGHASH_ALL, so the fee input and every output are fixed), the service signs its input.
 */
export type SponsorshipMode = (typeof SPONSORSHIP_MODES)[number];

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

/** The kinds that swap (this leg, or the destination's): they carry a path and a minimum out. */
const SWAPPING_KINDS: readonly SponsoredIntentKind[] = ['swap', 'swap-v3', 'bridge-swap', 'across-swap'];

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
 */
export class SponsoredIntentSpec {
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

  /**
   * swap / swap-v3: the path's tokens (starts with `token`); bridge-swap / across-swap: the Uniswap
   * V2 / V3 path on the destination chain (starts with the bridged token there).
   */
  @ValidateIf((o: SponsoredIntentSpec) => SWAPPING_KINDS.includes(o.kind))
  @IsEvmPath()
  path?: string[];

  /** swap-v3 / across-swap: the pool fee of each hop (hundredths of a bip), one fewer than the path's tokens. */
  @ValidateIf((o: SponsoredIntentSpec) => o.kind === 'swap-v3' || o.kind === 'across-swap')
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @IsInt({ each: true })
  @Min(1, { each: true })
  poolFees?: number[];

  /** swap / swap-v3: of this leg; bridge-swap / across-swap: of the destination swap. */
  @ValidateIf((o: SponsoredIntentSpec) => SWAPPING_KINDS.includes(o.kind))
  @Matches(BASE_UNITS)
  amountOutMin?: string;

  /** swap / swap-v3 / bridge-swap: pay out native coin (the path ends with the wrapped native token). */
  @IsOptional()
  @IsBoolean()
  unwrapNative?: boolean;

  /** bridge / bridge-to / bridge-swap: the bridge's id of the destination chain. */
  @ValidateIf((o: SponsoredIntentSpec) => o.kind !== 'swap' && o.kind !== 'swap-v3')
  @IsInt()
  @Min(1)
  destinationChainId?: number;

  /** bridge-swap / across-swap: the destination chain's SwapGatewayRouter, which the bridge pays and which swaps. */
  @ValidateIf((o: SponsoredIntentSpec) => o.kind === 'bridge-swap' || o.kind === 'across-swap')
  @Matches(EVM_ADDRESS)
  destinationRouter?: string;

  /**
   * bridge-swap: the destination chain's Uniswap V2 Router02, through which its router swaps;
   * across-swap: its Uniswap V3 SwapRouter02.
   */
  @ValidateIf((o: SponsoredIntentSpec) => o.kind === 'bridge-swap' || o.kind === 'across-swap')
  @Matches(EVM_ADDRESS)
  destinationVenue?: string;

  /** across / across-swap: Across's deposit terms. */
  @ValidateIf((o: SponsoredIntentSpec) => o.kind === 'across' || o.kind === 'across-swap')
  @IsNestedObject(() => SponsoredAcrossTerms)
  across?: SponsoredAcrossTerms;

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
   * Every kind: the integrator fees the router pays out of `amount` (the route's amountIn, fees
   * included) before it swaps or deposits the rest; signed with the leg. Absent: none.
   */
  @IsOptionalIntegratorFees(() => SponsoredIntegratorFee)
  integratorFees?: SponsoredIntegratorFee[];
}

/** How the service pays for a step's gas; see SponsorshipMode. */
export class SponsoredStepSpec {
  @IsIn(SPONSORSHIP_MODES)
  mode!: SponsorshipMode;

  @ValidateIf((o: SponsoredStepSpec) => o.mode === 'eip2612-permit')
  @IsNestedObject(() => SponsoredPermitSpec)
  permit?: SponsoredPermitSpec;

  @ValidateIf((o: SponsoredStepSpec) => o.mode === 'permit2-intent')
  @IsNestedObject(() => SponsoredIntentSpec)
  intent?: SponsoredIntentSpec;
}
