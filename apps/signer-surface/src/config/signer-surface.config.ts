import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Max, Min, Validate } from 'class-validator';
import { DEFAULT_RELAYER_GAS_EXTRA } from '@swapgw/chains';
import { KafkaServiceEnvironment } from '@swapgw/messaging';
import {
  IsBudgetOverrides,
  IsLamportAmount,
  IsSatAmount,
  IsWeiAmount,
  IsWeiByChain,
  RelayerKeysReadable,
} from '../sponsorship/relaying-config-checks';
import { RelayerKeysReading } from '../sponsorship/relayer-keys';
import { SecretText, toSecretText } from '../sponsorship/secret-text';
// Config loading composes the families' key readers (each family parses its own keys): the one
// place below the composition root that imports from families/ (tools/lint/signer-families.spec.ts).
import { readRelayerKeys } from '../families/evm/relayer-keys';
import { readSolanaFeePayerKeys } from '../families/solana/solana-fee-payer-keys';
import { readBitcoinFeeWalletKeys } from '../families/bitcoin/bitcoin-fee-wallet-keys';

/** 0.01 ETH: a relayer holding less is not used (enough for a few transactions at busy fees). */
export const DEFAULT_RELAYER_MIN_BALANCE_WEI = '10000000000000000';
/** 0.1 ETH per API key, chain and UTC day unless configured (the devnet stack gives 1 ETH). */
export const DEFAULT_SPONSORSHIP_DAILY_BUDGET_WEI = '100000000000000000';
/** 0.01 SOL: a Solana fee payer holding less is not used (2,000 transactions at the base fee). */
export const DEFAULT_SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS = '10000000';
/** 0.1 SOL per API key, Solana chain and UTC day unless configured (the devnet stack gives 1 SOL). */
export const DEFAULT_SPONSORSHIP_DAILY_BUDGET_LAMPORTS = '100000000';
/** 0.001 BTC: a Bitcoin fee wallet holding less is not used (a few hundred transactions at busy fees). */
export const DEFAULT_BITCOIN_FEE_WALLET_MIN_BALANCE_SATS = '100000';
/** 0.01 BTC per API key, Bitcoin chain and UTC day unless configured (the devnet stack gives 0.1 BTC). */
export const DEFAULT_SPONSORSHIP_DAILY_BUDGET_SATS = '1000000';

/**
 * Environment of signer-surface, validated at boot (the app refuses to start on a bad value).
 * DATABASE_URL, KAFKA_BROKERS, DEVNET_MANIFEST, LOG_LEVEL, INSTANCE_ID, HEALTH_PORT and
 * HEARTBEAT_INTERVAL_MS: KafkaServiceEnvironment (libs/messaging).
 */
export class SignerSurfaceConfig extends KafkaServiceEnvironment {
  override HEALTH_PORT = 3103;

  /**
   * How long an issued payload may be signed and submitted. Two minutes: long enough for a person
   * to read and sign in a wallet, short enough that nonce and fees are still right when it lands.
   */
  @IsInt()
  @Min(5_000)
  @Max(3_600_000)
  SIGNING_REQUEST_TTL_MS: number = 120_000;

  /** gasLimit = eth_estimateGas * this / 100. */
  @IsInt()
  @Min(100)
  @Max(300)
  GAS_LIMIT_PERCENT: number = 120;

  /** Gas added to a relayed transaction's limit after GAS_LIMIT_PERCENT (state written since the estimate). */
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RELAYER_GAS_EXTRA: number = DEFAULT_RELAYER_GAS_EXTRA;

  /** maxFeePerGas = the node's suggestion * this / 100, so the payload survives base fee rises. */
  @IsInt()
  @Min(100)
  @Max(500)
  FEE_SAFETY_PERCENT: number = 125;

  /** Blocks on top of the receipt's block (its own included) before a step counts as confirmed. */
  @IsInt()
  @Min(1)
  @Max(100)
  CONFIRMATIONS_REQUIRED: number = 1;

  /** Interval of the confirmation tracker over submitted transactions. */
  @IsInt()
  @Min(50)
  @Max(60_000)
  CONFIRMATION_POLL_MS: number = 1_000;

  /** Interval at which waiting requests (waitFor balance) are re-checked. */
  @IsInt()
  @Min(50)
  @Max(300_000)
  WAITING_POLL_MS: number = 2_000;

  /** readyAtMs estimate given while a step waits for a balance (e.g. a bridge transfer). */
  @IsInt()
  @Min(0)
  WAITING_READY_ESTIMATE_MS: number = 30_000;

  /** A waiting step fails (WAIT_TIMEOUT) after this long without its balance. */
  @IsInt()
  @Min(1_000)
  WAITING_TIMEOUT_MS: number = 3_600_000;

  /** Bound on every chain RPC call, so an unresponsive node yields an error, not a hung handler. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  RPC_TIMEOUT_MS: number = 10_000;

  /** Esplora-compatible HTTP API for Bitcoin transaction status (e.g. https://blockstream.info/api). */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  ESPLORA_URL_BITCOIN?: string;

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

  /** A pending sponsored transaction not mined after this long is replaced with higher fees. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  RELAYER_STUCK_AFTER_MS: number = 15_000;

  /** Fee increase of a replacement, on both EIP-1559 fees: nodes refuse a replacement under +10%. */
  @IsInt()
  @Min(10)
  @Max(500)
  RELAYER_FEE_BUMP_PERCENT: number = 25;

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

  /** How often each relayer's nonce ledger is reconciled with its chain (also once at start). */
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  RELAYER_RECONCILE_MS: number = 15_000;

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
   * Per-API-key budgets: `{"<API key id>": "<wei>"}` or `{"<API key id>": {"<chain id>": "<wei>", "*": "<wei>"}}`;
   * keys not named get SPONSORSHIP_DAILY_BUDGET_WEI (SPONSORSHIP_DAILY_BUDGET_LAMPORTS on Solana,
   * SPONSORSHIP_DAILY_BUDGET_SATS on Bitcoin). Amounts are in each chain's base unit: wei, lamports on
   * a Solana chain, sats on a Bitcoin chain.
   */
  @IsOptional()
  @Validate(IsBudgetOverrides)
  SPONSORSHIP_BUDGET_OVERRIDES?: string;

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
   * child from its fee wallet's change (see families/bitcoin/bitcoin-fee-bump.ts); that child is replaced
   * (RBF) with a higher fee after this long again while the transaction is still unconfirmed.
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

  #relayerKeys: RelayerKeysReading | undefined;
  #solanaFeePayerKeys: RelayerKeysReading | undefined;
  #bitcoinFeeWalletKeys: RelayerKeysReading | undefined;

  /**
   * RELAYER_KEYS or RELAYER_KEYS_FILE read and checked (read once, at validation). The check sits
   * here rather than on the variables because loadConfig prints a failing variable's value, and
   * these hold private keys; the problem it reports names positions, never key text.
   */
  @Validate(RelayerKeysReadable)
  get relayerKeys(): RelayerKeysReading {
    return (this.#relayerKeys ??= readRelayerKeys({ json: this.RELAYER_KEYS, file: this.RELAYER_KEYS_FILE }));
  }

  /** SOLANA_FEE_PAYER_KEYS or SOLANA_FEE_PAYER_KEYS_FILE read and checked, as `relayerKeys`. */
  @Validate(RelayerKeysReadable)
  get solanaFeePayerKeys(): RelayerKeysReading {
    return (this.#solanaFeePayerKeys ??= readSolanaFeePayerKeys({
      json: this.SOLANA_FEE_PAYER_KEYS,
      file: this.SOLANA_FEE_PAYER_KEYS_FILE,
    }));
  }

  /** BITCOIN_FEE_WALLET_KEYS or BITCOIN_FEE_WALLET_KEYS_FILE read and checked, as `relayerKeys`. */
  @Validate(RelayerKeysReadable)
  get bitcoinFeeWalletKeys(): RelayerKeysReading {
    return (this.#bitcoinFeeWalletKeys ??= readBitcoinFeeWalletKeys({
      json: this.BITCOIN_FEE_WALLET_KEYS,
      file: this.BITCOIN_FEE_WALLET_KEYS_FILE,
    }));
  }
}

export const SIGNER_SURFACE_CONFIG = Symbol('SIGNER_SURFACE_CONFIG');
