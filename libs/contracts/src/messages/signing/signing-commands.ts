import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  ArrayMinSize,
  ArrayMaxSize,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  BITCOIN_ADDRESS,
  BITCOIN_PUBLIC_KEY,
  EVM_OR_BITCOIN_ADDRESS,
  SOLANA_ADDRESS,
  WALLET_OR_TOKEN,
} from '../chain-formats';
import { SIGNING_STEP_KINDS, SigningStepKind } from './signing-message-types';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;
const BASE_UNITS = /^(0|[1-9][0-9]*)$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The contract call a step makes: `value` in wei as a decimal string, `data` 0x-hex ("0x" for none). */
export class SigningCall {
  @Matches(EVM_ADDRESS, { message: 'to must be a 0x-prefixed 20-byte address' })
  to!: string;

  @Matches(HEX_DATA, { message: 'data must be 0x-prefixed hex of whole bytes' })
  data!: string;

  @Matches(BASE_UNITS, { message: 'value must be a non-negative integer decimal string (wei)' })
  value!: string;
}

/**
 * For `kind: 'approve'`: the allowance the step grants. signer-surface reads
 * `allowance(from, spender)` first and answers `signing.step-skipped` when it already covers `amount`.
 */
export class SigningApproveSpec {
  @Matches(EVM_ADDRESS)
  token!: string;

  @Matches(EVM_ADDRESS)
  spender!: string;

  /** Base units the following step needs (not necessarily what the approve call grants). */
  @Matches(BASE_UNITS)
  amount!: string;
}

/**
 * A balance that must exist before the step can be signed (e.g. the bridged tokens on the
 * destination chain). signer-surface keeps the request waiting and re-checks it periodically.
 * `token` null means the native coin. On a Solana chain `token` is the SPL mint and `holder` the
 * wallet: the balance read is the one of the wallet's associated token account.
 */
export class SigningWaitForSpec {
  @IsOptional()
  @Matches(WALLET_OR_TOKEN)
  token!: string | null;

  @Matches(WALLET_OR_TOKEN)
  holder!: string;

  @Matches(BASE_UNITS)
  minBalance!: string;
}

export const SOLANA_STEP_KINDS = ['bridge-deposit', 'prebuilt-transaction'] as const;
export type SolanaStepKind = (typeof SOLANA_STEP_KINDS)[number];

/**
 * The swap a `bridge-deposit` hands to its EVM `recipient`, the destination chain's
 * SwapGatewayRouter, in the deposit's memo (as a BridgeSwapIntent's message): the bridge relayer
 * releases the deposit with it and the router swaps what arrived along `path` for at least
 * `amountOutMin` to `recipient` before `deadline`, or pays `recipient` the bridged tokens.
 */
export class SolanaBridgeSwapMessageSpec {
  /** The destination chain's Uniswap V2 Router02, through which its router swaps. */
  @Matches(EVM_ADDRESS)
  venue!: string;

  /** Uniswap V2 path on the destination chain, starting with the bridged token there. */
  @ArrayMinSize(2)
  @ArrayMaxSize(8)
  @Matches(EVM_ADDRESS, { each: true })
  path!: string[];

  @Matches(BASE_UNITS)
  amountOutMin!: string;

  /** The final recipient on the destination chain. */
  @Matches(EVM_ADDRESS)
  recipient!: string;

  /** Pay out native coin (the path ends with the wrapped native token). */
  @IsBoolean()
  unwrapNative!: boolean;

  /** Seconds since epoch: after it the router pays the bridged tokens instead of swapping. */
  @IsInt()
  @Min(0)
  deadline!: number;
}

/** One integrator fee a Solana transaction pays: `amount` base units to the wallet `recipient`. */
export class SolanaIntegratorFeeSpec {
  @Matches(SOLANA_ADDRESS)
  recipient!: string;

  @Matches(BASE_UNITS)
  amount!: string;
}

/**
 * What a step on a Solana chain does (instead of an EVM `call`):
 *  - `bridge-deposit`: signer-surface builds the devnet bridge deposit (transferChecked of `amount`
 *    of `mint` from `from`'s associated token account to `vault`, plus the memo naming
 *    `destinationChainId` and the EVM `recipient`, and `message` when there is one: then `recipient`
 *    is the destination's SwapGatewayRouter, which swaps the deposit as the message says);
 *  - `prebuilt-transaction`: an aggregator's unsigned v0 transaction (`serializedTransaction`,
 *    base64) handed out as it is, valid until `lastValidBlockHeight`.
 */
export class SolanaStepSpec {
  @IsIn(SOLANA_STEP_KINDS)
  kind!: SolanaStepKind;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(SOLANA_ADDRESS)
  mint?: string;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(SOLANA_ADDRESS)
  vault?: string;

  /** Base units of `mint`. */
  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(BASE_UNITS)
  amount?: string;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @IsInt()
  @Min(1)
  destinationChainId?: number;

  /**
   * Who is paid on the destination chain: an EVM address (with a `message`: the SwapGatewayRouter
   * there), or a Bitcoin address when the destination is the Bitcoin end.
   */
  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(EVM_OR_BITCOIN_ADDRESS)
  recipient?: string;

  /** bridge-deposit: the destination swap the deposit's memo carries to `recipient` (see SolanaBridgeSwapMessageSpec). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SolanaBridgeSwapMessageSpec)
  message?: SolanaBridgeSwapMessageSpec;

  /**
   * bridge-deposit: the integrator fees the transaction pays out of the wallet's `mint` before the
   * deposit (a TransferChecked per recipient to its associated token account, created first when
   * it has none, the transaction's fee payer paying its rent). `amount` comes on top of them.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @ValidateNested({ each: true })
  @Type(() => SolanaIntegratorFeeSpec)
  integratorFees?: SolanaIntegratorFeeSpec[];

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'prebuilt-transaction')
  @IsString()
  @Matches(BASE64)
  serializedTransaction?: string;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'prebuilt-transaction')
  @IsInt()
  @Min(0)
  lastValidBlockHeight?: number;
}

export const BITCOIN_STEP_KINDS = ['bridge-deposit'] as const;
export type BitcoinStepKind = (typeof BITCOIN_STEP_KINDS)[number];

/**
 * What a step on a Bitcoin chain does (instead of an EVM `call`):
 *  - `bridge-deposit`: signer-surface builds the PSBT paying `amount` satoshis from `from` to the
 *    bridge's `vault`, with an OP_RETURN output carrying `memo` (the bridge's deposit memo, which
 *    names the destination chain, asset, recipient and minimum out).
 */
export class BitcoinStepSpec {
  @IsIn(BITCOIN_STEP_KINDS)
  kind!: BitcoinStepKind;

  @Matches(BITCOIN_ADDRESS, { message: 'vault must be a Bitcoin address' })
  vault!: string;

  /**
   * The public key of the step's signer (`from`), hex (compressed 33 bytes, or x-only 32 for a
   * Taproot key), as the wallet told it at build: a Taproot input needs it as `tapInternalKey`, a
   * nested-SegWit (P2SH-P2WPKH) input needs it for its redeem script; unused for P2WPKH.
   */
  @IsOptional()
  @Matches(BITCOIN_PUBLIC_KEY, { message: 'signerPublicKey must be a 32- or 33-byte public key in hex' })
  signerPublicKey?: string;

  /** Satoshis paid to the vault. */
  @Matches(BASE_UNITS)
  amount!: string;

  /** The OP_RETURN text (at most 80 bytes, the standard relay limit). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  memo!: string;
}

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
  @IsString()
  @IsNotEmpty()
  tokenName!: string;

  @IsString()
  @IsNotEmpty()
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
  @ArrayMinSize(2)
  @ArrayMaxSize(8)
  @Matches(EVM_ADDRESS, { each: true })
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
  @IsObject()
  @ValidateNested()
  @Type(() => SponsoredAcrossTerms)
  across?: SponsoredAcrossTerms;

  /**
   * swap / bridge / bridge-swap: an EVM address (bridge-swap: the final recipient on the destination
   * chain); bridge-to: 0x + 32 bytes (a Solana public key).
   */
  @Matches(/^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/)
  recipient!: string;

  /** Seconds since epoch: the leg's deadline and the Permit2 signature's. */
  @IsInt()
  @Min(0)
  deadline!: number;

  /**
   * swap / swap-v3 / bridge / bridge-swap: the integrator fees the router pays out of `amount` (the
   * route's amountIn, fees included) before it swaps or deposits the rest; signed with the leg.
   * Absent: none.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @ValidateNested({ each: true })
  @Type(() => SponsoredIntegratorFee)
  integratorFees?: SponsoredIntegratorFee[];
}

/** How the service pays for a step's gas; see SponsorshipMode. */
export class SponsoredStepSpec {
  @IsIn(SPONSORSHIP_MODES)
  mode!: SponsorshipMode;

  @ValidateIf((o: SponsoredStepSpec) => o.mode === 'eip2612-permit')
  @IsObject()
  @ValidateNested()
  @Type(() => SponsoredPermitSpec)
  permit?: SponsoredPermitSpec;

  @ValidateIf((o: SponsoredStepSpec) => o.mode === 'permit2-intent')
  @IsObject()
  @ValidateNested()
  @Type(() => SponsoredIntentSpec)
  intent?: SponsoredIntentSpec;
}

/**
 * `signing.prepare` (signing.commands, planner → signer-surface): build the chain payload of one
 * step. Idempotent on (swapId, stepId): a replay answers nothing new.
 * Answered by one of signing.payload-ready, signing.waiting (then payload-ready later),
 * signing.step-skipped, signing.step-failed, signing.unavailable.
 */
export class SigningPrepareCommand {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  /** The planner's id of the step; unique per swap. */
  @IsString()
  @IsNotEmpty()
  stepId!: string;

  /** 1-based position of the step in the swap (the `step.current` shown to the client). */
  @IsInt()
  @Min(1)
  stepIndex!: number;

  /** Total signing steps of the swap (the `step.total` shown to the client). */
  @IsInt()
  @Min(1)
  @Max(64)
  stepCount!: number;

  @IsIn(SIGNING_STEP_KINDS)
  kind!: SigningStepKind;

  /** Chain id as in GET /chains (e.g. `devnet-a`). */
  @IsString()
  @IsNotEmpty()
  chain!: string;

  /** The user's address that will sign and send the transaction (base58 wallet on Solana). */
  @IsString()
  @IsNotEmpty()
  from!: string;

  /**
   * EVM steps: the contract call. Absent on Solana and Bitcoin steps, which carry `solana` or `bitcoin`, and on
   * sponsored steps the user signs typed data for (`sponsored.mode` other than covered-transaction).
   */
  @ValidateIf(
    (o: SigningPrepareCommand) =>
      o.solana === undefined &&
      o.bitcoin === undefined &&
      (o.sponsored === undefined || o.sponsored.mode === 'covered-transaction'),
  )
  @IsObject()
  @ValidateNested()
  @Type(() => SigningCall)
  call?: SigningCall;

  /** Solana steps: what the transaction does (see SolanaStepSpec). */
  @IsOptional()
  @ValidateNested()
  @Type(() => SolanaStepSpec)
  solana?: SolanaStepSpec;

  /** Bitcoin steps: what the transaction does (see BitcoinStepSpec). */
  @IsOptional()
  @ValidateNested()
  @Type(() => BitcoinStepSpec)
  bitcoin?: BitcoinStepSpec;

  @IsOptional()
  @ValidateNested()
  @Type(() => SigningApproveSpec)
  approve?: SigningApproveSpec;

  @IsOptional()
  @ValidateNested()
  @Type(() => SigningWaitForSpec)
  waitFor?: SigningWaitForSpec;

  /** Set when the service pays the step's gas (every EVM step of a sponsored swap). */
  @IsOptional()
  @ValidateNested()
  @Type(() => SponsoredStepSpec)
  sponsored?: SponsoredStepSpec;

  /** The API key the swap belongs to: sponsored gas is accounted and budgeted per key. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  owner?: string;
}

/**
 * `signing.refresh` (signing.commands): the current payload of the step expired (or is about to);
 * issue a fresh one (new nonce and fees) and supersede the old. Answered by signing.payload-ready
 * (or signing.step-failed / signing.unavailable). Ignored when the step is already submitted or
 * terminal.
 */
export class SigningRefreshCommand {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  @IsString()
  @IsNotEmpty()
  stepId!: string;
}
