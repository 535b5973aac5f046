/**
 * The Bitcoin family's classes on the wire: its steps' specs, its sponsorship mode, its step variant,
 * and the payload its wallets sign. Its address form and sponsorship data are in bitcoin-wire.ts.
 */
import { IsIn, IsOptional, Matches, MaxLength } from 'class-validator';
import { BITCOIN_PUBLIC_KEY } from '../../chain-formats';
import { BITCOIN_ADDRESS } from './bitcoin-wire';
import {
  BASE_UNITS,
  IsNestedObject,
  IsNonEmptyString,
  IsOneOf,
  IsOptionalIntegratorFees,
} from '../../signing/signing-formats';
import { type FamilySteps, SigningStepVariant } from '../../signing/signing-step-variant';
import { Sponsorship, type SponsoredStepSpec } from '../../signing/signing-sponsorship';

/** One integrator fee a Bitcoin step pays: an output of `amount` satoshis to the address `recipient`. */
export class BitcoinIntegratorFeeSpec {
  @Matches(BITCOIN_ADDRESS, { message: 'recipient must be a Bitcoin address' })
  recipient!: string;

  @Matches(BASE_UNITS)
  amount!: string;
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
  @IsNonEmptyString()
  @MaxLength(80)
  memo!: string;

  /**
   * The route's integrator fees, on a first leg: one output per recipient of exactly `amount`
   * satoshis beside the deposit, paid from the signer's UTXOs on top of `amount` (the quote's
   * amountIn is `amount` plus these).
   */
  @IsOptionalIntegratorFees(() => BitcoinIntegratorFeeSpec)
  integratorFees?: BitcoinIntegratorFeeSpec[];
}

/** `bitcoin-fee-wallet`: one UTXO of the service's fee wallet pays the whole miner fee. */
export class BitcoinFeeWalletSponsorship extends Sponsorship {}

export class BitcoinPsbtStep extends SigningStepVariant {
  declare family: 'bitcoin-psbt';
  static readonly specField = 'bitcoin';

  /** What the transaction does (see BitcoinStepSpec). */
  @IsNestedObject(() => BitcoinStepSpec)
  bitcoin!: BitcoinStepSpec;

  @IsOptional()
  @IsOneOf('mode', { 'bitcoin-fee-wallet': BitcoinFeeWalletSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'bitcoin-fee-wallet' };
}

/** Bitcoin's step variants and sponsorship modes, registered in SIGNING_STEP_VARIANTS (signing-steps.ts). */
export const bitcoinSteps = {
  variants: { 'bitcoin-psbt': BitcoinPsbtStep },
  sponsorships: { 'bitcoin-fee-wallet': BitcoinFeeWalletSponsorship },
} as const satisfies FamilySteps;

// --- What its wallets are handed (SigningPayload) ---

/** One input a Bitcoin wallet signs (Unisat `toSignInputs`, Xverse `inputsToSign`, Leather). */
export interface BitcoinInputToSign {
  index: number;
  /** The address whose key signs it (the user's). */
  address: string;
  /** 1 (SIGHASH_ALL) on P2WPKH, 0 (Taproot's default, which signs all) on P2TR. */
  sighashTypes: number[];
}

/**
 * Bitcoin: base64 of the PSBT the wallet signs (`signPsbt`). The user's inputs (listed in
 * `inputsToSign`, each with its `witnessUtxo`, P2TR ones with `tapInternalKey`) and one input of
 * the service's fee wallet, which pays the whole miner fee; the wallet signs only its own inputs and
 * returns the PSBT (or the finalized transaction, hex), and the service signs the fee input last.
 */
export interface BitcoinPsbtSigningPayload {
  type: 'bitcoin-psbt';
  psbt: string;
  inputsToSign: BitcoinInputToSign[];
  network: 'mainnet' | 'testnet' | 'regtest';
}
