/** The executable plan of a route: its legs, their tokens and the integrator fee they carry. */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
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
import { MAX_INTEGRATOR_FEE_BPS, MAX_INTEGRATOR_FEE_RECIPIENTS } from './quote-request';
import {
  RouteAcrossDeposit,
  RouteCall,
  RouteSolanaTransaction,
  RouteThorchainSwap,
} from './route-prebuilt-transactions';

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

/** Who takes an integrator fee on chain: the gateway's router (default) or the aggregator's own call. */
export const INTEGRATOR_FEE_COLLECTORS = ['gateway', 'aggregator'] as const;
export type IntegratorFeeCollector = (typeof INTEGRATOR_FEE_COLLECTORS)[number];

/**
 * One recipient's integrator fee as a plan carries it: `amount` base units of `token` on its chain
 * (the route's input token on the source chain), which the route's first transaction pays to
 * `recipient` before the first leg spends the rest (the legs are quoted for amountIn minus every fee).
 * `collectedBy: 'aggregator'`: the first leg is an aggregator's prebuilt call or transaction that
 * takes the fee itself (0x `swapFeeBps`, LI.FI `fee`, Jupiter's platform fee); that transaction
 * spends the plan's whole amountIn (its leg's amountIn plus the fees, as every first leg),
 * `amount` is what the aggregator reported, and the planner adds no transfer of its own.
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

  /**
   * What the leg swaps or bridges (base units of tokenIn), always net of the plan's integrator fees,
   * whoever collects them: the first leg's transaction spends amountIn plus every fee of
   * `RoutePlan.integratorFees` (the gateway's router paying them beside the leg, or the aggregator's
   * prebuilt transaction (0x, LI.FI, Jupiter) taking them out of what it was asked), so
   * `legs[0].amountIn + Σ integratorFees[].amount = RoutePlan.amountIn`. Re-priced and checked the
   * same way for every provider.
   */
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

  /**
   * Osmosis swap legs: the id of the pool of each hop of `path` (poolmanager's route), so
   * `path.length - 1` entries: the pools the quote priced, which the leg's MsgSwapExactAmountIn names.
   */
  @IsOptional()
  @IsArray()
  @Matches(/^[1-9][0-9]{0,19}$/, { each: true, message: 'each pool id must be a positive decimal integer' })
  poolIds?: string[];

  @IsOptional()
  @ValidateNested()
  @Type(() => RouteCall)
  call?: RouteCall;

  /** Bridge legs of provider `across`: what the SpokePool deposit carries (see RouteAcrossDeposit). */
  @IsOptional()
  @ValidateNested()
  @Type(() => RouteAcrossDeposit)
  across?: RouteAcrossDeposit;

  /** Bridge legs of provider `thorchain`: what the deposit's memo says (see RouteThorchainSwap). */
  @IsOptional()
  @ValidateNested()
  @Type(() => RouteThorchainSwap)
  thorchain?: RouteThorchainSwap;

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
