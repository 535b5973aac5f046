import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, Validate } from 'class-validator';
import { DEFAULT_RELAYER_GAS_EXTRA } from '@swapgw/chains';
import type { SignerSurfaceConfig, SignerSurfaceConfigClass } from '../../config/signer-surface.config';
import { IsWeiAmount, IsWeiByChain, RelayerKeysReadable } from '../../sponsorship/relaying-config-checks';
import { EnvironmentSection } from '../../sponsorship/environment-section';
import type { RelayerKeysReading } from '../../sponsorship/relayer-keys';
import { SecretText, toSecretText } from '../../sponsorship/secret-text';
import { readRelayerKeys } from './relayer-keys';

/** 0.01 ETH: a relayer holding less is not used (enough for a few transactions at busy fees). */
export const DEFAULT_RELAYER_MIN_BALANCE_WEI = '10000000000000000';
/** 0.1 ETH per API key, chain and UTC day unless configured (the devnet stack gives 1 ETH). */
export const DEFAULT_SPONSORSHIP_DAILY_BUDGET_WEI = '100000000000000000';

/** The EVM family's variables of signer-surface's environment (its section, `withRelayerSettings`). */
export interface RelayerVariables {
  RELAYER_GAS_EXTRA: number;
  RELAYER_KEYS?: SecretText;
  RELAYER_KEYS_FILE?: string;
  RELAYER_FEE_CEILING_PERCENT: number;
  RELAYER_MAX_FEE_PER_GAS_WEI?: string;
  RELAYER_MIN_BALANCE_WEI: string;
  SPONSORSHIP_DAILY_BUDGET_WEI: string;
  /** RELAYER_KEYS or RELAYER_KEYS_FILE read and checked (read once, at validation). */
  readonly relayerKeys: RelayerKeysReading;
}

const section = new EnvironmentSection<RelayerVariables>('the EVM family (withRelayerSettings)');

/**
 * The EVM family's section of signer-surface's environment, validated at load with the rest (the
 * composition root composes every family's section over SignerSurfaceConfig): the relayers' keys,
 * their minimum balance, the daily budget in wei and the relayers' gas and fee bounds.
 */
export function withRelayerSettings<Base extends SignerSurfaceConfigClass>(base: Base) {
  class WithRelayerSettings extends base implements RelayerVariables {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      section.carriedBy(this);
    }

    /** Gas added to a relayed transaction's limit after GAS_LIMIT_PERCENT (state written since the estimate). */
    @IsInt()
    @Min(0)
    @Max(1_000_000)
    RELAYER_GAS_EXTRA: number = DEFAULT_RELAYER_GAS_EXTRA;

    /**
     * Gas-sponsorship relayers: JSON `{"<chain id>": ["0x<private key>", ...]}`. The service sends
     * the transactions carrying users' signatures from these accounts and pays their gas. Held as a
     * SecretText from the moment it is read, so a dump of this config prints `[redacted]`; it has no
     * validator of its own because a failed check prints the variable's value (see `relayerKeys`).
     * Unset (and RELAYER_KEYS_FILE unset): no relayers, sponsorship unavailable.
     */
    @IsOptional()
    @Transform(toSecretText, { toClassOnly: true })
    RELAYER_KEYS?: SecretText;

    /** A file holding the RELAYER_KEYS JSON (a mounted Kubernetes Secret); exclusive with RELAYER_KEYS. */
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    RELAYER_KEYS_FILE?: string;

    /**
     * The fee ceiling of a relayer transaction, in % of the fee cap it was first sent with (what the
     * step's payload priced): fee bumps stop under it, a cancel bids it; no transaction ever bids more.
     */
    @IsInt()
    @Min(150)
    @Max(10_000)
    RELAYER_FEE_CEILING_PERCENT: number = 300;

    /**
     * An absolute fee cap per gas (wei) per chain above which no relayer transaction bids, whatever it
     * first bid: `"<wei>"` or `{"<chain id>": "<wei>", "*": "<wei>"}`. Unset: only the percentage.
     */
    @IsOptional()
    @Validate(IsWeiByChain)
    RELAYER_MAX_FEE_PER_GAS_WEI?: string;

    /**
     * A relayer whose balance is under this is not used: `"<wei>"` for every chain, or
     * `{"<chain id>": "<wei>", "*": "<wei>"}`. All of a chain's relayers under it: sponsorship unavailable.
     */
    @Validate(IsWeiByChain)
    RELAYER_MIN_BALANCE_WEI: string = DEFAULT_RELAYER_MIN_BALANCE_WEI;

    /** Gas (and value) the service sponsors per API key, per chain, per UTC day, in wei. */
    @Validate(IsWeiAmount)
    SPONSORSHIP_DAILY_BUDGET_WEI: string = DEFAULT_SPONSORSHIP_DAILY_BUDGET_WEI;

    /**
     * RELAYER_KEYS or RELAYER_KEYS_FILE read and checked (read once, at validation). The check sits
     * here rather than on the variables because loadConfig prints a failing variable's value, and
     * these hold private keys; the problem it reports names positions, never key text.
     */
    @Validate(RelayerKeysReadable)
    get relayerKeys(): RelayerKeysReading {
      return section.keysOf(this, () =>
        readRelayerKeys({ json: this.RELAYER_KEYS, file: this.RELAYER_KEYS_FILE }),
      );
    }
  }
  return WithRelayerSettings;
}

/** The EVM family's variables of the loaded config; throws when it was loaded without the family's section. */
export function relayerVariablesOf(config: SignerSurfaceConfig): RelayerVariables {
  return section.of(config);
}
