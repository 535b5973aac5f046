import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, Validate } from 'class-validator';
import type { SignerSurfaceConfig, SignerSurfaceConfigClass } from '../../config/signer-surface.config';
import { IsSatAmount, RelayerKeysReadable } from '../../sponsorship/relaying-config-checks';
import { EnvironmentSection } from '../../sponsorship/environment-section';
import type { RelayerKeysReading } from '../../sponsorship/relayer-keys';
import { SecretText, toSecretText } from '../../sponsorship/secret-text';
import { readBitcoinFeeWalletKeys } from './bitcoin-fee-wallet-keys';

/** 0.001 BTC: a Bitcoin fee wallet holding less is not used (a few hundred transactions at busy fees). */
export const DEFAULT_BITCOIN_FEE_WALLET_MIN_BALANCE_SATS = '100000';
/** 0.01 BTC per API key, Bitcoin chain and UTC day unless configured (the devnet stack gives 0.1 BTC). */
export const DEFAULT_SPONSORSHIP_DAILY_BUDGET_SATS = '1000000';

/** The Bitcoin family's variables of signer-surface's environment (its section, `withBitcoinFeeWalletSettings`). */
export interface BitcoinFeeWalletVariables {
  BITCOIN_FEE_WALLET_KEYS?: SecretText;
  BITCOIN_FEE_WALLET_KEYS_FILE?: string;
  BITCOIN_FEE_WALLET_MIN_BALANCE_SATS: string;
  SPONSORSHIP_DAILY_BUDGET_SATS: string;
  BITCOIN_STUCK_AFTER_MS: number;
  BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE: number;
  BITCOIN_FEE_BUMP_MARGIN_PERCENT: number;
  /** BITCOIN_FEE_WALLET_KEYS or BITCOIN_FEE_WALLET_KEYS_FILE read and checked (read once, at validation). */
  readonly bitcoinFeeWalletKeys: RelayerKeysReading;
}

const section = new EnvironmentSection<BitcoinFeeWalletVariables>(
  'the Bitcoin family (withBitcoinFeeWalletSettings)',
);

/**
 * The Bitcoin family's section of signer-surface's environment, validated at load with the rest:
 * the fee wallets' keys, their minimum balance, the daily budget in sats and their fee bumps.
 */
export function withBitcoinFeeWalletSettings<Base extends SignerSurfaceConfigClass>(base: Base) {
  class WithBitcoinFeeWalletSettings extends base implements BitcoinFeeWalletVariables {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      section.carriedBy(this);
    }

    /**
     * Bitcoin fee wallets of sponsored swaps: JSON `{"<chain id>": ["<WIF private key>", ...]}`, each
     * the WIF of a compressed key of the chain's network (`c…` on regtest and testnet, `K…`/`L…` on
     * mainnet); the wallet is its P2WPKH address. A sponsored Bitcoin transaction spends one UTXO of a
     * fee wallet beside the user's, which pays the whole miner fee; the service signs that input.
     * Held as a SecretText like RELAYER_KEYS, and checked through `bitcoinFeeWalletKeys`. Unset (and
     * BITCOIN_FEE_WALLET_KEYS_FILE unset): sponsored Bitcoin steps are unavailable.
     */
    @IsOptional()
    @Transform(toSecretText, { toClassOnly: true })
    BITCOIN_FEE_WALLET_KEYS?: SecretText;

    /** A file holding the BITCOIN_FEE_WALLET_KEYS JSON; exclusive with BITCOIN_FEE_WALLET_KEYS. */
    @IsOptional()
    @IsString()
    @IsNotEmpty()
    BITCOIN_FEE_WALLET_KEYS_FILE?: string;

    /** A Bitcoin fee wallet whose balance (confirmed and unconfirmed UTXOs) is under this many sats is not used. */
    @Validate(IsSatAmount)
    BITCOIN_FEE_WALLET_MIN_BALANCE_SATS: string = DEFAULT_BITCOIN_FEE_WALLET_MIN_BALANCE_SATS;

    /** Miner fees the Bitcoin fee wallets sponsor per API key, per Bitcoin chain, per UTC day, in sats. */
    @Validate(IsSatAmount)
    SPONSORSHIP_DAILY_BUDGET_SATS: string = DEFAULT_SPONSORSHIP_DAILY_BUDGET_SATS;

    /**
     * A sponsored Bitcoin transaction still in the mempool this long after it was sent gets a CPFP
     * child from its fee wallet's change (see bitcoin-fee-bump.ts); that child is replaced (RBF) with
     * a higher fee after this long again while the transaction is still unconfirmed.
     */
    @IsInt()
    @Min(100)
    @Max(86_400_000)
    BITCOIN_STUCK_AFTER_MS: number = 600_000;

    /**
     * The most a fee bump makes a stuck Bitcoin transaction and its child pay together, sat/vB: no
     * child (or replacement of one) pays past it; at it, the transaction is left and reported.
     */
    @IsInt()
    @Min(2)
    @Max(10_000)
    BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE: number = 200;

    /** What a fee bump bids over the next-block fee estimate, percent (the estimate moves while it waits). */
    @IsInt()
    @Min(0)
    @Max(100)
    BITCOIN_FEE_BUMP_MARGIN_PERCENT: number = 10;

    /** BITCOIN_FEE_WALLET_KEYS or BITCOIN_FEE_WALLET_KEYS_FILE read and checked, as `relayerKeys`. */
    @Validate(RelayerKeysReadable)
    get bitcoinFeeWalletKeys(): RelayerKeysReading {
      return section.keysOf(this, () =>
        readBitcoinFeeWalletKeys({
          json: this.BITCOIN_FEE_WALLET_KEYS,
          file: this.BITCOIN_FEE_WALLET_KEYS_FILE,
        }),
      );
    }
  }
  return WithBitcoinFeeWalletSettings;
}

/** The Bitcoin family's variables of the loaded config; throws when it was loaded without the family's section. */
export function bitcoinFeeWalletVariablesOf(config: SignerSurfaceConfig): BitcoinFeeWalletVariables {
  return section.of(config);
}
