/** Calls and transactions a provider prebuilt for a route leg (aggregator calls, Jupiter transactions, Across deposits). */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { BASE_UNITS_AMOUNT } from './quote-formats';

/** A 20-byte EVM address, 0x-prefixed, any case. */
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A contract call prebuilt by an aggregator (value in wei, decimal string). */
export class RouteCall {
  @IsString()
  @IsNotEmpty()
  to!: string;

  @IsString()
  data!: string;

  @Matches(BASE_UNITS_AMOUNT)
  value!: string;

  /**
   * The wallet the aggregator built the call for (LI.FI `fromAddress`, 0x `taker`): the call spends
   * that wallet's tokens and pays out as it was quoted, so only that wallet may sign it.
   */
  @IsString()
  @IsNotEmpty()
  from!: string;
}

/** The integrator fee a prebuilt Solana transaction pays (RouteSolanaTransaction `integratorFee`). */
export class RouteSolanaTransactionFee {
  @IsString()
  @IsNotEmpty()
  recipient!: string;

  /** The recipient's token account the transaction pays (Jupiter's `feeAccount`). */
  @IsString()
  @IsNotEmpty()
  feeAccount!: string;

  @Matches(/^(0|[1-9][0-9]*)$/)
  amount!: string;
}

/**
 * A Solana transaction prebuilt by an aggregator (Jupiter's POST /swap) for one wallet: the unsigned
 * versioned transaction the signer hands out as is and verifies the user's signature over.
 */
export class RouteSolanaTransaction {
  /** Base64 of the serialized unsigned VersionedTransaction (v0), fee payer = `signer`. */
  @IsString()
  @Matches(/^[A-Za-z0-9+/]+={0,2}$/)
  serializedTransaction!: string;

  /** The wallet (base58) the transaction was built for: its fee payer and only required signer. */
  @IsString()
  @IsNotEmpty()
  signer!: string;

  /** Block height after which the transaction's blockhash is too old to land. */
  @IsInt()
  @Min(0)
  lastValidBlockHeight!: number;

  /**
   * The integrator fee the aggregator's transaction pays itself (Jupiter's platform fee, in the
   * input mint, to `feeAccount`, the recipient's token account of that mint): `recipient` is the
   * route's fee recipient and `amount` its fee in base units of the input. Absent without a fee.
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => RouteSolanaTransactionFee)
  integratorFee?: RouteSolanaTransactionFee;
}

/**
 * What an Across deposit needs beyond the leg's own fields, as Across's suggested-fees API answered
 * it: the source chain's SpokePool (`spender`), the token and amount the relayer pays on the
 * destination, and the quote's timing. The deposit is `deposit(depositor, recipient, inputToken,
 * outputToken, inputAmount, outputAmount, destinationChainId, exclusiveRelayer, quoteTimestamp,
 * fillDeadline, exclusivityParameter = exclusivityDeadline, message)`, addresses as bytes32.
 */
export class RouteAcrossDeposit {
  @Matches(EVM_ADDRESS)
  spokePool!: string;

  /** The token the relayer pays on the destination chain (Across's outputToken). */
  @Matches(EVM_ADDRESS)
  outputToken!: string;

  /** What the recipient receives for the quoted inputAmount (= the leg's minAmountOut). */
  @Matches(BASE_UNITS_AMOUNT)
  outputAmount!: string;

  /** Unix seconds: the deposit's quoteTimestamp (the SpokePool takes it up to an hour old). */
  @IsInt()
  @Min(0)
  quoteTimestamp!: number;

  /** Unix seconds on the destination chain after which the deposit can no longer be filled. */
  @IsInt()
  @Min(0)
  fillDeadline!: number;

  /** The relayer with exclusivity, or the zero address when none has it. */
  @Matches(EVM_ADDRESS)
  exclusiveRelayer!: string;

  /**
   * Across's `exclusivityDeadline`, the deposit's `exclusivityParameter`: 0 = no exclusivity, a
   * period in seconds from the deposit (up to a year), else a timestamp.
   */
  @IsInt()
  @Min(0)
  exclusivityDeadline!: number;
}

/** One affiliate of a THORChain swap memo: a THORName or THOR address, and its bps of the input. */
export class RouteThorchainAffiliate {
  @Matches(/^[a-zA-Z0-9+_.-]{1,64}$/)
  name!: string;

  @IsInt()
  @Min(0)
  @Max(1000)
  bps!: number;
}

/**
 * What a THORChain swap deposit needs beyond the leg's own fields (`spender` is the inbound
 * address, the vault the deposit pays), as THORNode's /thorchain/quote/swap answered it: the asset
 * paid out (THORChain notation, `BASE.USDC-0X8335…`), the streaming parameters the quote priced,
 * the affiliate, and the quote's `expiry`. The deposit's memo is written at build from these, the
 * recipient and the leg's minimum: `=:ASSET:DESTINATION:LIMIT/INTERVAL/QUANTITY:AFFILIATE:FEE`.
 */
export class RouteThorchainSwap {
  @Matches(/^[A-Z][A-Z0-9]{1,9}\.[A-Z0-9]{1,20}(-0X[0-9A-F]{40})?$/)
  asset!: string;

  /** Blocks between sub-swaps (0: not streaming). */
  @IsInt()
  @Min(0)
  streamingInterval!: number;

  /** Number of sub-swaps (0: THORChain chooses). */
  @IsInt()
  @Min(0)
  streamingQuantity!: number;

  /**
   * The affiliates the memo names, in order: the operator's (THORCHAIN_AFFILIATE) first when it is
   * configured, then each integrator fee recipient that is a THORName or THOR address. THORChain
   * takes each one's bps out of the deposit, which then carries the gross amount.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @ValidateNested({ each: true })
  @Type(() => RouteThorchainAffiliate)
  affiliates?: RouteThorchainAffiliate[];

  /** Older messages: the one affiliate (a THORName or THOR address), with its bps; see `affiliates`. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  affiliate?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  affiliateBps?: number;

  /** Unix seconds: deposit before it (the inbound address may rotate after). */
  @IsInt()
  @Min(0)
  expiry!: number;

  /**
   * Out of an EVM chain: THORChain's vault there (the quote's `inbound_address`), which the router's
   * `depositWithExpiry(vault, asset, amount, memo, expiry)` credits; the leg's `spender` is the
   * router. Absent out of Bitcoin, where `spender` is the inbound address itself.
   */
  @IsOptional()
  @Matches(EVM_ADDRESS)
  inboundAddress?: string;
}
