import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, Validate } from 'class-validator';
import type { SignerSurfaceConfig, SignerSurfaceConfigClass } from '../../config/signer-surface.config';
import { RelayerKeysReadable } from '../../sponsorship/relaying-config-checks';
import { EnvironmentSection } from '../../sponsorship/environment-section';
import type { RelayerKeysReading } from '../../sponsorship/relayer-keys';
import { SecretText, toSecretText } from '../../sponsorship/secret-text';
import { readCosmosFeeGranterKeys } from './cosmos-fee-granter-keys';

/**
 * How many step fees one grant allows a wallet: the granter grants (or tops up) an allowance of
 * this many times the fee of the step being issued, so a wallet's next steps need no new grant.
 */
export const DEFAULT_COSMOS_FEE_GRANT_STEPS = '5';

/**
 * A fee granter holding less than this many base units of its chain's fee denom (1 ATOM, 1 OSMO,
 * 1 USDC at 6 decimals) is not used: its steps answer SPONSORSHIP_UNAVAILABLE.
 */
export const DEFAULT_COSMOS_FEE_GRANTER_MIN_BALANCE = '1000000';
/** Fees (steps and grants) a granter pays per API key, Cosmos chain and UTC day, in base units of the fee denom. */
export const DEFAULT_SPONSORSHIP_DAILY_BUDGET_COSMOS = '1000000';

/** A whole number of base units of a Cosmos fee denom (uatom, uosmo, uusdc). */
const BASE_UNITS = /^(0|[1-9][0-9]{0,77})$/;

/** The Cosmos family's variables of signer-surface's environment (`withCosmosFeeGranterSettings`). */
export interface CosmosFeeGranterVariables {
  COSMOS_FEE_GRANTER_KEYS?: SecretText;
  COSMOS_FEE_GRANTER_KEYS_FILE?: string;
  COSMOS_FEE_GRANT_STEPS: string;
  COSMOS_FEE_GRANTER_MIN_BALANCE: string;
  SPONSORSHIP_DAILY_BUDGET_COSMOS: string;
  /** COSMOS_FEE_GRANTER_KEYS or COSMOS_FEE_GRANTER_KEYS_FILE read and checked (once, at validation). */
  readonly cosmosFeeGranterKeys: RelayerKeysReading;
}

const section = new EnvironmentSection<CosmosFeeGranterVariables>(
  'the Cosmos family (withCosmosFeeGranterSettings)',
);

/**
 * The Cosmos family's section of signer-surface's environment, validated at load with the rest:
 * the fee granters' keys, how many step fees a grant allows, their minimum balance and the daily budget.
 */
export function withCosmosFeeGranterSettings<Base extends SignerSurfaceConfigClass>(base: Base) {
  class WithCosmosFeeGranterSettings extends base implements CosmosFeeGranterVariables {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      section.carriedBy(this);
    }

    /**
     * The fee granter of each Cosmos chain: JSON `{"<chain id>": ["<hex secp256k1 private key>"]}`
     * (the first key of a chain is its granter). Every Cosmos step names it as `fee.granter`; it
     * grants each wallet an x/feegrant allowance (MsgGrantAllowance) before the wallet's first step.
     * Held as a SecretText like RELAYER_KEYS. Unset (and the _FILE unset): Cosmos steps are unavailable.
     */
    @IsOptional()
    @Transform(toSecretText, { toClassOnly: true })
    COSMOS_FEE_GRANTER_KEYS?: SecretText;

    /** A file holding the COSMOS_FEE_GRANTER_KEYS JSON; exclusive with COSMOS_FEE_GRANTER_KEYS. */
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    COSMOS_FEE_GRANTER_KEYS_FILE?: string;

    /** A grant allows this many times the fee of the step it is made for (1 to 1000). */
    @Matches(/^([1-9][0-9]{0,2}|1000)$/, {
      message: 'COSMOS_FEE_GRANT_STEPS must be an integer from 1 to 1000',
    })
    COSMOS_FEE_GRANT_STEPS: string = DEFAULT_COSMOS_FEE_GRANT_STEPS;

    /** A fee granter whose balance of its chain's fee denom is under this many base units is not used. */
    @Matches(BASE_UNITS, {
      message:
        'COSMOS_FEE_GRANTER_MIN_BALANCE must be a decimal string of base units (e.g. 1000000 for 1 ATOM)',
    })
    COSMOS_FEE_GRANTER_MIN_BALANCE: string = DEFAULT_COSMOS_FEE_GRANTER_MIN_BALANCE;

    /**
     * Fees the fee granters pay per API key, per Cosmos chain, per UTC day, in base units of the
     * chain's fee denom (the steps' fees and the grants'); SPONSORSHIP_BUDGET_OVERRIDES per key and chain.
     */
    @Matches(BASE_UNITS, {
      message:
        'SPONSORSHIP_DAILY_BUDGET_COSMOS must be a decimal string of base units (e.g. 1000000 for 1 ATOM)',
    })
    SPONSORSHIP_DAILY_BUDGET_COSMOS: string = DEFAULT_SPONSORSHIP_DAILY_BUDGET_COSMOS;

    /** COSMOS_FEE_GRANTER_KEYS or COSMOS_FEE_GRANTER_KEYS_FILE read and checked. */
    @Validate(RelayerKeysReadable)
    get cosmosFeeGranterKeys(): RelayerKeysReading {
      return section.keysOf(this, () =>
        readCosmosFeeGranterKeys({
          json: this.COSMOS_FEE_GRANTER_KEYS,
          file: this.COSMOS_FEE_GRANTER_KEYS_FILE,
        }),
      );
    }
  }
  return WithCosmosFeeGranterSettings;
}

/** The Cosmos family's variables of the loaded config; throws when it was loaded without the section. */
export function cosmosFeeGranterVariablesOf(config: SignerSurfaceConfig): CosmosFeeGranterVariables {
  return section.of(config);
}
