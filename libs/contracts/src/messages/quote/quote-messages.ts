import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { RouteIssue } from './route-issues';

/** Message types answered by quote-service on `quote.requests`. */
export const QuoteMessageTypes = {
  create: 'quote.create',
  /** The preflight of one route plan against a wallet (POST /swap/build answers it as `issues`). */
  preflight: 'quote.preflight',
  /** Re-prices one leg of a served route plan against the chain or provider as it is now (POST /swap/build). */
  reprice: 'quote.reprice',
} as const;

export const QUOTE_NETWORKS = ['mainnet', 'testnet'] as const;
export type QuoteNetwork = (typeof QUOTE_NETWORKS)[number];

/** Route families (the spec leaves the values open): one chain, or a bridge between two. */
export const ROUTE_FAMILIES = ['same-chain', 'cross-chain'] as const;
export type RouteFamily = (typeof ROUTE_FAMILIES)[number];

/** Positive human decimal amount such as "1.5" (no sign, no exponent). */
export const HUMAN_AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
/** Non-negative integer amount in base units. */
export const BASE_UNITS_AMOUNT = /^(0|[1-9][0-9]*)$/;
/** A 20-byte EVM address, 0x-prefixed, any case. */
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/**
 * Canonical token reference `<namespace>:<chain id>:<kind>:<address>`, e.g.
 * `eip155:31337:erc20:0xA0b8...` or `solana:mainnet:spl:EPjFWdd5...`.
 */
export const TOKEN_REF = /^[a-z0-9-]{3,16}:[A-Za-z0-9_-]{1,64}:[a-z0-9-]{2,16}:[A-Za-z0-9]{1,128}$/;

/** The most an integrator's fees may add up to on one quote, in basis points of the input amount. */
export const MAX_INTEGRATOR_FEE_BPS = 300;
/** The most recipients one quote's integrator fee may be split between. */
export const MAX_INTEGRATOR_FEE_RECIPIENTS = 5;

/**
 * One recipient's part of an integrator fee: `bps` of the quote's input amount, paid in the input
 * token on the source chain to `recipient` (an address of the source chain).
 */
export class IntegratorFeeShare {
  @IsInt()
  @Min(0)
  @Max(MAX_INTEGRATOR_FEE_BPS)
  bps!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  recipient!: string;
}

/** `quote.create`: the body of POST /quote plus the caller. */
export class CreateQuoteRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  owner?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  fromChain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  toChain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenIn!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenOut!: string;

  @IsString()
  @MaxLength(100)
  amount!: string;

  @IsOptional()
  @IsIn(QUOTE_NETWORKS)
  network?: QuoteNetwork;

  @IsOptional()
  @Matches(TOKEN_REF)
  tokenRefFromOverride?: string;

  @IsOptional()
  @Matches(TOKEN_REF)
  tokenRefToOverride?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps?: number;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  recipient?: string;

  /**
   * The wallet that will sign (an address of fromChain's family): when present, each route carries
   * `issues`, the preflight of its first leg against this wallet (balance, allowance, simulation).
   */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  userAddress?: string;

  /**
   * The integrator's fee, one share per recipient (the gateway turns a single object into one
   * share and fills in the API key's default when the request has none); empty or absent: no fee.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_INTEGRATOR_FEE_RECIPIENTS)
  @ValidateNested({ each: true })
  @Type(() => IntegratorFeeShare)
  integratorFee?: IntegratorFeeShare[];

  /**
   * The API key's default fee (set by the operator), used when `integratorFee` is absent: only its
   * shares whose recipient is an address of the source chain apply, so one default can name a
   * recipient per chain family.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_INTEGRATOR_FEE_RECIPIENTS)
  @ValidateNested({ each: true })
  @Type(() => IntegratorFeeShare)
  defaultIntegratorFee?: IntegratorFeeShare[];

  @IsOptional()
  @IsBoolean()
  debug?: boolean;
}

/**
 * What a wallet signs to build this route with `permitType` eip2612 or permit2 (no approval step).
 * Present when the first leg is an EVM ERC-20 leg that the chain's SwapGatewayRouter can perform.
 */
export interface RoutePermitInfo {
  chain: string;
  /** EVM chain id: `chainId` of both EIP-712 domains. */
  chainId: number;
  /** The input token (EIP-2612 domain verifyingContract; Permit2 `permitted.token`). */
  token: string;
  /** EIP-2612 `value` and Permit2 `permitted.amount`: base units, as the typed data takes them. */
  amountBaseUnits: string;
  /** The SwapGatewayRouter: `spender` of both kinds of permit, and the `to` of the swap step. */
  spender: string;
  /** Permit2: `verifyingContract` of its domain {name: "Permit2", chainId}; approve it once per token. */
  permit2: string;
  /** The token's EIP-712 domain name and version, when it implements EIP-2612 `permit`. */
  eip2612?: { name: string; version: string };
}

/** Where the price of a gas unit came from: the chain's node (read within the last 10 s) or the documented per-family fallback. */
export const GAS_FEE_SOURCES = ['node', 'fallback'] as const;
export type GasFeeSource = (typeof GAS_FEE_SOURCES)[number];

/**
 * The kinds of sponsored cost (gas units per kind: the table of @swapgw/chains sponsored-gas):
 *  - `permit`: EVM, the relayer sends the token's EIP-2612 permit;
 *  - `approve-top-up`: EVM, a gas top-up to the user paying for the user's own approve(Permit2)
 *    (tokens without EIP-2612, e.g. WETH9);
 *  - `swap-intent` / `bridge-intent`: EVM, the relayer's router call (`swapWithIntent` /
 *    `bridgeWithIntent`) carrying the user's Permit2 witness signature;
 *  - `native-input-top-up`: EVM, the user's own native-input transaction and the top-up paying it;
 *  - `bridge-release`: the relayer's release on a bridge's destination (devnet bridge);
 *  - `solana-transaction`: a Solana transaction of the user with the relayer as fee payer;
 *  - `solana-ata-rent`: the rent of an associated token account created for the recipient.
 */
export const SPONSORED_GAS_KINDS = [
  'permit',
  'approve-top-up',
  'swap-intent',
  'bridge-intent',
  'native-input-top-up',
  'bridge-release',
  'solana-transaction',
  'solana-ata-rent',
  'bitcoin-transaction',
] as const;
export type SponsoredGasKind = (typeof SPONSORED_GAS_KINDS)[number];

/** One sponsored transaction (or rent) of a route on one chain. */
export interface RouteGasCoverageItem {
  kind: SponsoredGasKind;
  /** Index of the route leg (plan order) the item belongs to. */
  leg: number;
  /** Decimal string: EVM gas units; Solana signatures paid; Bitcoin virtual bytes; "0" for rent. */
  estimatedGasUnits: string;
  /** Decimal string, base units of the chain's native coin (wei / lamports). */
  estimatedCostBaseUnits: string;
}

/** What the service expects to pay on one chain of a route. */
export interface RouteGasCoverageChain {
  chain: string;
  nativeSymbol: string;
  nativeDecimals: number;
  /** Decimal string: EVM gas units of every sponsored transaction on the chain; Solana: signatures paid. */
  estimatedGasUnits: string;
  /** Decimal string: the price used per unit, wei per gas (EVM) or lamports per signature (Solana). */
  feePerGasBaseUnits: string;
  feeSource: GasFeeSource;
  /** Decimal string in base units of the native coin (wei / lamports): units × feePerGasBaseUnits, plus rent. */
  estimatedCostBaseUnits: string;
  /** estimatedCostBaseUnits in whole native units, 3 significant digits (e.g. "0.000412"). */
  estimatedCostFormatted: string;
  /** The items that make up estimatedCostBaseUnits, in the order they are sent. */
  breakdown: RouteGasCoverageItem[];
}

/**
 * Gas of the route as the service covers it: the service's relayers pay every fee, the user none
 * (`userPays` is always "0"). The figures are an upper bound: the permit or approve step is counted
 * on every ERC-20 leg (the quote does not know the user's Permit2 allowance), and so is the rent of
 * every token account that may have to be created.
 */
export interface RouteGasCoverage {
  paidBy: 'service';
  userPays: '0';
  /** One entry per chain the route's legs touch (a leg's chain, a bridge's destination), first touched first. */
  chains: RouteGasCoverageChain[];
}

/** What the wallet signs at one step: the payload `type` of GET /swap/{swapId}/signing. */
export const SIGNATURE_PAYLOAD_TYPES = [
  'evm-transaction',
  'evm-typed-data',
  'solana-versioned-transaction',
  'bitcoin-psbt',
] as const;
export type SignaturePayloadType = (typeof SIGNATURE_PAYLOAD_TYPES)[number];

/**
 * One signature the wallet gives for a route built with the default gas payment (sponsored), in
 * signing order: the steps of the build (`signing.step.total` counts them all). An `approve` with
 * `mayBeSkipped` is never offered when the wallet's allowance is already there (the list is an upper
 * bound: the step is then `skipped`, and the build still counts it).
 */
export interface RouteSignature {
  /** API chain id (GET /chains) the payload is signed for. */
  chain: string;
  kind: 'approve' | 'swap' | 'bridge';
  payloadType: SignaturePayloadType;
  mayBeSkipped: boolean;
}

/**
 * Why a provider that was asked gives no route (POST /quote `unavailableRoutes[].reason`), stable:
 *  - `AMOUNT_TOO_LOW` / `AMOUNT_TOO_HIGH`: under the provider's minimum or over its maximum (the
 *    bound in `details` when the provider states it);
 *  - `NO_LIQUIDITY`: the provider trades the tokens but no pool or market gives an output for the amount;
 *  - `PAIR_NOT_SUPPORTED`: the provider does not trade this pair (or a wrap, not a swap);
 *  - `SLIPPAGE_TOO_LOW`: no route fits within the requested slippage;
 *  - `INTEGRATOR_FEE_NOT_SUPPORTED`: the provider builds its own transaction and cannot take the
 *    requested integrator fee in it (too many recipients, a recipient it does not pay, or its answer
 *    did not carry the fee asked for);
 *  - `PROVIDER_UNAVAILABLE`: the provider failed or did not answer in time.
 */
export const UNAVAILABLE_ROUTE_REASONS = [
  'AMOUNT_TOO_LOW',
  'AMOUNT_TOO_HIGH',
  'NO_LIQUIDITY',
  'PAIR_NOT_SUPPORTED',
  'SLIPPAGE_TOO_LOW',
  /** The venue cannot swap one of the tokens: a taxed (fee-on-transfer) token on Uniswap V3. */
  'TOKEN_NOT_SUPPORTED',
  'INTEGRATOR_FEE_NOT_SUPPORTED',
  'PROVIDER_UNAVAILABLE',
] as const;
export type UnavailableRouteReason = (typeof UNAVAILABLE_ROUTE_REASONS)[number];

/**
 * What the provider said besides the reason. A bound (`minAmount`, `maxAmount`) is in human units of
 * `token` on `chain`: the token the limit applies to, which is the bridged token when a swap comes
 * before the bridge (e.g. USDC for WETH → BTC).
 */
export class UnavailableRouteDetails {
  @IsOptional()
  @Matches(HUMAN_AMOUNT)
  minAmount?: string;

  @IsOptional()
  @Matches(HUMAN_AMOUNT)
  maxAmount?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  token?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  chain?: string;

  /** For people, not for code: the provider's own words. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  message?: string;
}

/** A provider asked for the quote that gives no route, and why. */
export class UnavailableRoute {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  provider!: string;

  @IsIn(UNAVAILABLE_ROUTE_REASONS)
  reason!: UnavailableRouteReason;

  @ValidateNested()
  @Type(() => UnavailableRouteDetails)
  details!: UnavailableRouteDetails;
}

/** The `unavailableRoutes` of a quote reply, as its receiver validates them (QuoteResult). */
export class QuoteUnavailableRoutes {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => UnavailableRoute)
  unavailableRoutes!: UnavailableRoute[];
}

/**
 * Where a route's slippage comes from: the request's `slippageBps`, or computed per swap leg from
 * its price impact and pool depth when the request has none (`auto`).
 */
export const SLIPPAGE_SOURCES = ['request', 'auto'] as const;
export type SlippageSource = (typeof SLIPPAGE_SOURCES)[number];

/**
 * One recipient's integrator fee on a route: `bps` of the route's amountIn, `amount` of it in human
 * units of `token` (the input token's symbol) on `chain` (the source chain), paid to `recipient` in
 * the route's first transaction on the source chain. The fee is taken from the input: the providers
 * are quoted for amountIn minus every fee, so expectedAmountOut and minAmountOut are net of it.
 */
export interface RouteIntegratorFee {
  bps: number;
  amount: string;
  token: string;
  chain: string;
  recipient: string;
}

/** One route of a quote as the public API shows it (spec: QuoteRouteSummary). */
export interface QuoteRouteSummary {
  routeId: string;
  provider?: string;
  providers: string[];
  bridgeProvider?: string;
  family?: RouteFamily;
  stepCount: number;
  /**
   * Amounts in human units of their token (decimal strings, "0.0333"), as every amount of the public
   * API: what goes in, what the route expects out, and the least the build accepts out after the
   * quote's slippage (what the last leg's minimum enforces on chain).
   */
  amountIn: string;
  expectedAmountOut: string;
  minAmountOut: string;
  /**
   * How far below expectedAmountOut minAmountOut may be, in basis points: the slippage of each swap
   * leg compounded (a bridge with a fixed output adds none), rounded up.
   */
  slippageBps: number;
  slippageSource: SlippageSource;
  /** The tokens' decimals, to turn the amounts into base units where a wallet needs them. */
  tokenInDecimals: number;
  tokenOutDecimals: number;
  estimatedDurationSeconds: number;
  warnings?: string[];
  /**
   * Ours: the taxes measured on chain (bps) of buying tokenOut and of selling tokenIn on the
   * route's swaps (0: none); expectedAmountOut and minAmountOut are net of them. Absent when not
   * measured (a route with no Uniswap V2 swap of that token, or a probe that could not run).
   */
  buyTaxBps?: number;
  sellTaxBps?: number;
  /** Ours: present when the route can be built with a permit instead of an approval. */
  permit?: RoutePermitInfo;
  /** Ours: the gas the service expects to pay for the route, per chain (the user pays none). */
  gasCoverage: RouteGasCoverage;
  /** Ours: the signatures a default (sponsored) build of the route asks of the wallet, in order (see RouteSignature). */
  signatures: RouteSignature[];
  /**
   * Ours: the preflight against the request's `userAddress` (RouteIssue). Absent when the quote named
   * no userAddress (nothing was checked); `[]` when everything was checked and nothing was found.
   */
  issues?: RouteIssue[];
  /** The integrator's fee, one entry per recipient (empty without a fee); see RouteIntegratorFee. */
  integratorFee: RouteIntegratorFee[];
}

export interface QuoteResult {
  quoteId: string;
  expiresAtMs: number;
  routes: QuoteRouteSummary[];
  /**
   * Every route's executable plan, in the order of `routes`: for the services (the gateway keeps
   * them with the quotes it served and sends the chosen one in the build command), never shown to
   * API clients.
   */
  routePlans: RoutePlan[];
  /** The providers asked that give no route, and why (empty when every provider asked has one). */
  unavailableRoutes: UnavailableRoute[];
  /** Only with `debug`: per-provider outcome (ok, no route, failed, timed out) and timings. */
  debug?: Record<string, unknown>;
}

/** A token as a plan needs it; `address` null is the chain's native coin. */
export class TokenRef {
  @IsString()
  @IsNotEmpty()
  chain!: string;

  @IsString()
  @IsNotEmpty()
  symbol!: string;

  @IsOptional()
  @IsString()
  address!: string | null;

  @IsInt()
  @Min(0)
  @Max(255)
  decimals!: number;
}

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

/** Who takes an integrator fee on chain: the gateway's router (default) or the aggregator's own call. */
export const INTEGRATOR_FEE_COLLECTORS = ['gateway', 'aggregator'] as const;
export type IntegratorFeeCollector = (typeof INTEGRATOR_FEE_COLLECTORS)[number];

/**
 * One recipient's integrator fee as a plan carries it: `amount` base units of `token` on its chain
 * (the route's input token on the source chain), which the route's first transaction pays to
 * `recipient` before the first leg spends the rest (the legs are quoted for amountIn minus every fee).
 * `collectedBy: 'aggregator'`: the first leg is an aggregator's prebuilt call or transaction that
 * takes the fee itself (0x `swapFeeBps`, LI.FI `fee`, Jupiter's platform fee); that transaction
 * spends the whole amountIn, `amount` is what the aggregator reported, and the planner adds no
 * transfer of its own.
 */
export class RoutePlanIntegratorFee {
  @ValidateNested()
  @Type(() => TokenRef)
  token!: TokenRef;

  @IsString()
  @IsNotEmpty()
  recipient!: string;

  @IsInt()
  @Min(0)
  @Max(MAX_INTEGRATOR_FEE_BPS)
  bps!: number;

  @Matches(BASE_UNITS_AMOUNT)
  amount!: string;

  @IsOptional()
  @IsIn(INTEGRATOR_FEE_COLLECTORS)
  collectedBy?: IntegratorFeeCollector;
}

export const ROUTE_LEG_KINDS = ['swap', 'bridge'] as const;
export type RouteLegKind = (typeof ROUTE_LEG_KINDS)[number];

/**
 * One execution leg of a route: a swap on one chain, or a bridge transfer to another.
 *
 * EVM legs: `tokenIn.address` / `tokenOut.address` are ERC-20 addresses (null = native ETH),
 * `spender` is the contract to approve (router or bridge), `path` (uniswap-v2; with `poolFees`,
 * uniswap-v3) or `call` (LI.FI, 0x).
 * An EVM bridge leg of `devnet-bridge` calls `spender`: `deposit(amount, destinationBridgeChainId,
 * address recipient)` towards an EVM chain, `depositTo(amount, destinationBridgeChainId, bytes32
 * recipient)` towards Solana, the recipient being the 32 bytes of the Solana public key.
 * An EVM bridge leg of `across` carries `across` (RouteAcrossDeposit): the wallet approves `spender`
 * (the source chain's SpokePool) and calls its `deposit`; the relayer pays `across.outputAmount` of
 * `across.outputToken` on `destinationChain` (chain id `destinationBridgeChainId`).
 *
 * Solana legs (`chain` of the solana family, e.g. `solana-devnet`): token addresses are SPL mints
 * (null = native SOL).
 *  - `devnet-bridge` bridge leg: `spender` is the bridge vault (a USDC token account, not a program):
 *    the deposit is one transaction signed by the user with a `transferChecked` of `amountIn` from
 *    the user's USDC associated token account to `spender` (mint `tokenIn.address`, decimals
 *    `tokenIn.decimals`) and an SPL Memo v3 instruction signed by the user with the text
 *    `swapgw-bridge:v1:<destinationBridgeChainId>:<checksummed EVM recipient>`; the relayer pays
 *    `expectedAmountOut` on `destinationChain`.
 *  - `jupiter` swap leg: `solanaTransaction` is Jupiter's transaction for `solanaTransaction.signer`
 *    (present when the quote named a Solana recipient, the wallet that signs); `spender` is
 *    Jupiter's program id, informational (SPL swaps need no approval).
 */
export class RouteLeg {
  @IsIn(ROUTE_LEG_KINDS)
  kind!: RouteLegKind;

  @IsString()
  @IsNotEmpty()
  chain!: string;

  @IsString()
  @IsNotEmpty()
  provider!: string;

  @ValidateNested()
  @Type(() => TokenRef)
  tokenIn!: TokenRef;

  @ValidateNested()
  @Type(() => TokenRef)
  tokenOut!: TokenRef;

  @Matches(BASE_UNITS_AMOUNT)
  amountIn!: string;

  @Matches(BASE_UNITS_AMOUNT)
  expectedAmountOut!: string;

  /** expectedAmountOut with the leg's slippage applied. */
  @Matches(BASE_UNITS_AMOUNT)
  minAmountOut!: string;

  /** The slippage minAmountOut was computed with (0 for a bridge paying a fixed amount); absent in older plans. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps?: number;

  /** Contract that pulls tokenIn (router or bridge): the approval target. */
  @IsString()
  @IsNotEmpty()
  spender!: string;

  @IsOptional()
  @IsString()
  destinationChain?: string;

  /**
   * Bridge legs: the number the bridge uses for `destinationChain` (an EVM chain id, or the
   * manifest's `solana.bridge.chainId` for Solana): `destinationChainId` of `depositTo`, and the
   * chain id written in a Solana deposit memo.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  destinationBridgeChainId?: number;

  /**
   * Uniswap V2 legs: the tax (bps) tokenIn's contract keeps when it is sold into the pool, and
   * tokenOut's when it is bought out of it, as quote-service measured them on chain (0: none).
   * expectedAmountOut and minAmountOut are net of both; a leg with either above 0 is swapped
   * with Router02's `...SupportingFeeOnTransferTokens` functions. Absent: not measured.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  sellTaxBps?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  buyTaxBps?: number;

  /** Uniswap V2 / V3 path of token addresses (WETH stands in for native ETH). */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  path?: string[];

  /**
   * Uniswap V3 legs: the fee tier (hundredths of a bip: 100, 500, 3000, 10000) of the pool of each
   * hop of `path`, so `path.length - 1` entries; the leg is a SwapRouter02 `exactInput` (`spender`).
   */
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Min(1, { each: true })
  poolFees?: number[];

  @IsOptional()
  @ValidateNested()
  @Type(() => RouteCall)
  call?: RouteCall;

  /** Bridge legs of provider `across`: what the SpokePool deposit carries (see RouteAcrossDeposit). */
  @IsOptional()
  @ValidateNested()
  @Type(() => RouteAcrossDeposit)
  across?: RouteAcrossDeposit;

  /** Solana swap legs of an aggregator: the prebuilt transaction (see RouteSolanaTransaction). */
  @IsOptional()
  @ValidateNested()
  @Type(() => RouteSolanaTransaction)
  solanaTransaction?: RouteSolanaTransaction;

  @IsInt()
  @Min(0)
  estimatedDurationSeconds!: number;
}

/** The full executable plan of one route, stored with the quote and answered with it (QuoteResult.routePlans). */
export class RoutePlan {
  @IsString()
  @IsNotEmpty()
  quoteId!: string;

  @IsString()
  @IsNotEmpty()
  routeId!: string;

  @IsInt()
  expiresAtMs!: number;

  @IsString()
  @IsNotEmpty()
  fromChain!: string;

  @IsString()
  @IsNotEmpty()
  toChain!: string;

  @ValidateNested()
  @Type(() => TokenRef)
  tokenIn!: TokenRef;

  @ValidateNested()
  @Type(() => TokenRef)
  tokenOut!: TokenRef;

  @Matches(BASE_UNITS_AMOUNT)
  amountIn!: string;

  @Matches(BASE_UNITS_AMOUNT)
  expectedAmountOut!: string;

  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps!: number;

  @IsOptional()
  @IsString()
  recipient?: string;

  @IsArray()
  @IsString({ each: true })
  providers!: string[];

  @IsOptional()
  @IsString()
  bridgeProvider?: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RouteLeg)
  legs!: RouteLeg[];

  /**
   * The integrator's fee, one entry per recipient, paid out of `amountIn` (the legs spend the rest);
   * absent or empty without a fee.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_INTEGRATOR_FEE_RECIPIENTS)
  @ValidateNested({ each: true })
  @Type(() => RoutePlanIntegratorFee)
  integratorFees?: RoutePlanIntegratorFee[];
}
