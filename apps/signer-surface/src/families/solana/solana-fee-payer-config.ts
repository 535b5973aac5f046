import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Validate } from 'class-validator';
import type { SignerSurfaceConfig, SignerSurfaceConfigClass } from '../../config/signer-surface.config';
import { IsLamportAmount, RelayerKeysReadable } from '../../sponsorship/relaying-config-checks';
import { EnvironmentSection } from '../../sponsorship/environment-section';
import type { RelayerKeysReading } from '../../sponsorship/relayer-keys';
import { SecretText, toSecretText } from '../../sponsorship/secret-text';
import { readSolanaFeePayerKeys } from './solana-fee-payer-keys';

/** 0.01 SOL: a Solana fee payer holding less is not used (2,000 transactions at the base fee). */
export const DEFAULT_SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS = '10000000';
/** 0.1 SOL per API key, Solana chain and UTC day unless configured (the devnet stack gives 1 SOL). */
export const DEFAULT_SPONSORSHIP_DAILY_BUDGET_LAMPORTS = '100000000';

/** The Solana family's variables of signer-surface's environment (its section, `withSolanaFeePayerSettings`). */
export interface SolanaFeePayerVariables {
  SOLANA_FEE_PAYER_KEYS?: SecretText;
  SOLANA_FEE_PAYER_KEYS_FILE?: string;
  SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS: string;
  SPONSORSHIP_DAILY_BUDGET_LAMPORTS: string;
  /** SOLANA_FEE_PAYER_KEYS or SOLANA_FEE_PAYER_KEYS_FILE read and checked (read once, at validation). */
  readonly solanaFeePayerKeys: RelayerKeysReading;
}

const section = new EnvironmentSection<SolanaFeePayerVariables>(
  'the Solana family (withSolanaFeePayerSettings)',
);

/**
 * The Solana family's section of signer-surface's environment, validated at load with the rest:
 * the fee payers' keys, their minimum balance and the daily budget in lamports.
 */
export function withSolanaFeePayerSettings<Base extends SignerSurfaceConfigClass>(base: Base) {
  class WithSolanaFeePayerSettings extends base implements SolanaFeePayerVariables {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      section.carriedBy(this);
    }

    /**
     * Solana fee payers of sponsored swaps: JSON `{"<chain id>": ["<base58 64-byte secret key>", ...]}`.
     * Every Solana transaction of a sponsored swap names one of them as its fee payer, which pays its
     * fees and any rent; the user signs it, the service adds the fee payer's signature. Held as a
     * SecretText like RELAYER_KEYS, and checked through `solanaFeePayerKeys` for the same reason.
     * Unset (and SOLANA_FEE_PAYER_KEYS_FILE unset): sponsored Solana steps are unavailable.
     */
    @IsOptional()
    @Transform(toSecretText, { toClassOnly: true })
    SOLANA_FEE_PAYER_KEYS?: SecretText;

    /** A file holding the SOLANA_FEE_PAYER_KEYS JSON; exclusive with SOLANA_FEE_PAYER_KEYS. */
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    SOLANA_FEE_PAYER_KEYS_FILE?: string;

    /** A Solana fee payer whose balance is under this many lamports is not used. */
    @Validate(IsLamportAmount)
    SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS: string = DEFAULT_SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS;

    /** Fees and rent the Solana fee payers sponsor per API key, per Solana chain, per UTC day, in lamports. */
    @Validate(IsLamportAmount)
    SPONSORSHIP_DAILY_BUDGET_LAMPORTS: string = DEFAULT_SPONSORSHIP_DAILY_BUDGET_LAMPORTS;

    /** SOLANA_FEE_PAYER_KEYS or SOLANA_FEE_PAYER_KEYS_FILE read and checked, as `relayerKeys`. */
    @Validate(RelayerKeysReadable)
    get solanaFeePayerKeys(): RelayerKeysReading {
      return section.keysOf(this, () =>
        readSolanaFeePayerKeys({
          json: this.SOLANA_FEE_PAYER_KEYS,
          file: this.SOLANA_FEE_PAYER_KEYS_FILE,
        }),
      );
    }
  }
  return WithSolanaFeePayerSettings;
}

/** The Solana family's variables of the loaded config; throws when it was loaded without the family's section. */
export function solanaFeePayerVariablesOf(config: SignerSurfaceConfig): SolanaFeePayerVariables {
  return section.of(config);
}
