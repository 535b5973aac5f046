/**
 * The Solana family's classes on the wire: its steps' specs, its sponsorship mode, its step variant,
 * and the payload its wallets sign. Its address form and sponsorship data are in solana-wire.ts.
 */
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Min } from 'class-validator';
import { SOLANA_BRIDGE_RECIPIENT } from '../../chain-formats';
import { SOLANA_ADDRESS } from './solana-wire';
import {
  BASE64,
  BASE_UNITS,
  EVM_ADDRESS,
  IsEpochSeconds,
  IsEvmPath,
  IsNestedObject,
  IsOneOf,
  IsOptionalIntegratorFees,
} from '../../signing/signing-formats';
import { type FamilySteps, SigningStepVariant } from '../../signing/signing-step-variant';
import { Sponsorship, type SponsoredStepSpec } from '../../signing/signing-sponsorship';

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
  @IsEvmPath()
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
  @IsEpochSeconds()
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
 * What a step on a Solana chain does (instead of an EVM `call`), one variant per `kind`:
 *  - `bridge-deposit` (SolanaBridgeDepositSpec): signer-surface builds the devnet bridge deposit;
 *  - `prebuilt-transaction` (SolanaPrebuiltTransactionSpec): an aggregator's unsigned transaction,
 *    handed out as it is.
 * The read shape the chain libraries take: every variant's fields, optional.
 */
export interface SolanaStepSpec {
  kind: SolanaStepKind;
  mint?: string;
  vault?: string;
  amount?: string;
  destinationChainId?: number;
  recipient?: string;
  message?: SolanaBridgeSwapMessageSpec;
  integratorFees?: SolanaIntegratorFeeSpec[];
  serializedTransaction?: string;
  lastValidBlockHeight?: number;
}

/**
 * `bridge-deposit`: the transferChecked of `amount` of `mint` from `from`'s associated token
 * account to `vault`, plus the memo naming `destinationChainId` and the `recipient`, and
 * `message` when there is one: then `recipient` is the destination's SwapGatewayRouter, which swaps
 * the deposit as the message says.
 */
export class SolanaBridgeDepositSpec implements SolanaStepSpec {
  @IsIn(SOLANA_STEP_KINDS)
  kind!: 'bridge-deposit';

  @Matches(SOLANA_ADDRESS)
  mint!: string;

  @Matches(SOLANA_ADDRESS)
  vault!: string;

  /** Base units of `mint`. */
  @Matches(BASE_UNITS)
  amount!: string;

  @IsInt()
  @Min(1)
  destinationChainId!: number;

  /**
   * Who is paid on the destination chain: an EVM address (with a `message`: the SwapGatewayRouter
   * there), a Bitcoin address when the destination is the Bitcoin end, or a `noble1…` account when
   * it is Noble's (the memo's form: solanaBridgeDepositMemo in @swapgw/chains checks the rest).
   */
  @Matches(SOLANA_BRIDGE_RECIPIENT)
  recipient!: string;

  /** The destination swap the deposit's memo carries to `recipient` (see SolanaBridgeSwapMessageSpec). */
  @IsOptional()
  @IsNestedObject(() => SolanaBridgeSwapMessageSpec)
  message?: SolanaBridgeSwapMessageSpec;

  /**
   * The integrator fees the transaction pays out of the wallet's `mint` before the deposit (a
   * TransferChecked per recipient to its associated token account, created first when it has none,
   * the transaction's fee payer paying its rent). `amount` comes on top of them.
   */
  @IsOptionalIntegratorFees(() => SolanaIntegratorFeeSpec)
  integratorFees?: SolanaIntegratorFeeSpec[];
}

/** `prebuilt-transaction`: an aggregator's unsigned v0 transaction (base64), valid until `lastValidBlockHeight`. */
export class SolanaPrebuiltTransactionSpec implements SolanaStepSpec {
  @IsIn(SOLANA_STEP_KINDS)
  kind!: 'prebuilt-transaction';

  @IsString()
  @Matches(BASE64)
  serializedTransaction!: string;

  @IsInt()
  @Min(0)
  lastValidBlockHeight!: number;

  /**
   * Kept when sent, never honoured: the transaction is signed as built, so signer-surface refuses a
   * prebuilt transaction that carries a bridge message or integrator fees (the step fails).
   */
  @IsOptional()
  @IsNestedObject(() => SolanaBridgeSwapMessageSpec)
  message?: SolanaBridgeSwapMessageSpec;

  @IsOptionalIntegratorFees(() => SolanaIntegratorFeeSpec)
  integratorFees?: SolanaIntegratorFeeSpec[];
}

/** The class that validates each kind of Solana step (one class and one line per kind). */
export const SOLANA_STEP_SPECS = {
  'bridge-deposit': SolanaBridgeDepositSpec,
  'prebuilt-transaction': SolanaPrebuiltTransactionSpec,
} satisfies Record<SolanaStepKind, new () => SolanaStepSpec>;

/** `solana-fee-payer`: the service's fee payer pays the Solana transaction's fees and rent. */
export class SolanaFeePayerSponsorship extends Sponsorship {}

export class SolanaTransactionStep extends SigningStepVariant {
  declare family: 'solana-transaction';
  static readonly specField = 'solana';

  /** What the transaction does (see SolanaStepSpec). */
  @IsOneOf('kind', SOLANA_STEP_SPECS)
  solana!: SolanaStepSpec;

  @IsOptional()
  @IsOneOf('mode', { 'solana-fee-payer': SolanaFeePayerSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'solana-fee-payer' };
}

/** Solana's step variants and sponsorship modes, registered in SIGNING_STEP_VARIANTS (signing-steps.ts). */
export const solanaSteps = {
  variants: { 'solana-transaction': SolanaTransactionStep },
  sponsorships: { 'solana-fee-payer': SolanaFeePayerSponsorship },
} as const satisfies FamilySteps;

// --- What its wallets are handed (SigningPayload) ---

/** Solana: base64 of the serialized unsigned v0 transaction, fee payer = the signing wallet. */
export interface SolanaSigningPayload {
  type: 'solana-versioned-transaction';
  transaction: string;
}
