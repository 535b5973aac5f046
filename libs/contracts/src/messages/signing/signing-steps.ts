import { Allow, IsOptional } from 'class-validator';
import { IsNestedObject, IsOneOf } from './signing-formats';
import {
  BitcoinStepSpec,
  CosmosTxSpec,
  NobleForwardingSpec,
  SigningApproveSpec,
  SigningCall,
  SigningWaitForSpec,
  SOLANA_STEP_SPECS,
  SolanaStepSpec,
} from './signing-step-specs';
import {
  BitcoinFeeWalletSponsorship,
  CosmosFeeGrantSponsorship,
  CoveredTransactionSponsorship,
  Eip2612PermitSponsorship,
  Permit2IntentSponsorship,
  SolanaFeePayerSponsorship,
  SponsoredStepSpec,
} from './signing-sponsorship';

/**
 * What a signing step asks the wallet to sign, one variant per family and kind of payload, named by
 * `family`:
 *  - `evm-transaction`: an EVM transaction making `call` (an `approve` step names the allowance it
 *    grants); sponsored, only as a covered transaction;
 *  - `evm-typed-data`: EIP-712 typed data the user signs for a gas-sponsored step (`sponsored`:
 *    an EIP-2612 permit or a Permit2 intent), no call;
 *  - `solana-transaction`: a Solana transaction (`solana`), sponsored by the service's fee payer;
 *  - `bitcoin-psbt`: a Bitcoin PSBT (`bitcoin`), sponsored by the service's fee wallet;
 *  - `cosmos-sign-direct`: a Cosmos transaction of `cosmos`'s messages, its fee the service's fee
 *    granter's.
 * Any step can wait for a balance first (`waitFor`). Each variant is validated by its own class
 * (SIGNING_STEP_VARIANTS): a field of another variant is not part of it, a sponsorship mode that
 * does not pay it is refused, a `family` naming no variant is refused on `family`. A new variant
 * (a Cosmos transaction) is one class here and one line in SIGNING_STEP_VARIANTS.
 */

/** What every variant carries: its family (the variant's class was chosen by it), and the balance it may wait for. */
abstract class SigningStepVariant {
  @Allow()
  family!: string;

  @IsOptional()
  @IsNestedObject(() => SigningWaitForSpec)
  waitFor?: SigningWaitForSpec;

  /** A Noble forwarding account the step pays, registered by the service before the step is issued. */
  @IsOptional()
  @IsNestedObject(() => NobleForwardingSpec)
  nobleForwarding?: NobleForwardingSpec;
}

export class EvmTransactionStep extends SigningStepVariant {
  declare family: 'evm-transaction';

  @IsNestedObject(() => SigningCall)
  call!: SigningCall;

  @IsOptional()
  @IsNestedObject(() => SigningApproveSpec)
  approve?: SigningApproveSpec;

  @IsOptional()
  @IsOneOf('mode', { 'covered-transaction': CoveredTransactionSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'covered-transaction' };
}

export class EvmTypedDataStep extends SigningStepVariant {
  declare family: 'evm-typed-data';

  /** The allowance an `approve` step's permit grants (the step is skipped when it is there). */
  @IsOptional()
  @IsNestedObject(() => SigningApproveSpec)
  approve?: SigningApproveSpec;

  @IsOneOf('mode', {
    'eip2612-permit': Eip2612PermitSponsorship,
    'permit2-intent': Permit2IntentSponsorship,
  })
  sponsored!: SponsoredStepSpec & { mode: 'eip2612-permit' | 'permit2-intent' };
}

export class SolanaTransactionStep extends SigningStepVariant {
  declare family: 'solana-transaction';

  /** What the transaction does (see SolanaStepSpec). */
  @IsOneOf('kind', SOLANA_STEP_SPECS)
  solana!: SolanaStepSpec;

  @IsOptional()
  @IsOneOf('mode', { 'solana-fee-payer': SolanaFeePayerSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'solana-fee-payer' };
}

export class BitcoinPsbtStep extends SigningStepVariant {
  declare family: 'bitcoin-psbt';

  /** What the transaction does (see BitcoinStepSpec). */
  @IsNestedObject(() => BitcoinStepSpec)
  bitcoin!: BitcoinStepSpec;

  @IsOptional()
  @IsOneOf('mode', { 'bitcoin-fee-wallet': BitcoinFeeWalletSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'bitcoin-fee-wallet' };
}

export class CosmosSignDirectStep extends SigningStepVariant {
  declare family: 'cosmos-sign-direct';

  /** What the transaction does (see CosmosTxSpec). */
  @IsNestedObject(() => CosmosTxSpec)
  cosmos!: CosmosTxSpec;

  @IsOptional()
  @IsOneOf('mode', { 'cosmos-fee-grant': CosmosFeeGrantSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'cosmos-fee-grant' };
}

/** The class that validates each variant of SigningStep, by its `family`. */
export const SIGNING_STEP_VARIANTS = {
  'evm-transaction': EvmTransactionStep,
  'evm-typed-data': EvmTypedDataStep,
  'solana-transaction': SolanaTransactionStep,
  'bitcoin-psbt': BitcoinPsbtStep,
  'cosmos-sign-direct': CosmosSignDirectStep,
} satisfies Record<string, new () => SigningStepVariant>;

export type SigningStep = InstanceType<(typeof SIGNING_STEP_VARIANTS)[keyof typeof SIGNING_STEP_VARIANTS]>;
export type SigningStepFamily = SigningStep['family'];
export const SIGNING_STEP_FAMILIES = Object.keys(SIGNING_STEP_VARIANTS) as readonly SigningStepFamily[];

/** A property holding a SigningStep, validated as the variant its `family` names. */
export function IsSigningStep(): PropertyDecorator {
  return IsOneOf('family', SIGNING_STEP_VARIANTS);
}
