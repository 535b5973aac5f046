import { Interface, solidityPacked } from 'ethers';
import type { EncodedCall, IntegratorFeeTransfer, RouterPermit } from '../step-parts';

/**
 * ABI fragments of the contracts a swap's EVM steps call, and their encoding: the ERC-20 approve,
 * Uniswap V2 Router02 and V3 SwapRouter02 exact-input swaps, the devnet bridge deposit, the SwapGatewayRouter. Pure
 * (ethers only): the execution planner encodes its steps' calls with it, specs decode them.
 */
export const erc20Interface = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
]);

export const uniswapV2RouterInterface = new Interface([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);

/**
 * Router02's swaps that work for fee-on-transfer (taxed) tokens: they price the input by what the
 * pair received and check amountOutMin against what the recipient's balance grew by.
 */
const FEE_ON_TRANSFER_SUFFIX = 'SupportingFeeOnTransferTokens';

export const devnetBridgeInterface = new Interface([
  'function deposit(uint256 amount, uint256 destinationChainId, address recipient)',
  'function depositTo(uint256 amount, uint256 destinationChainId, bytes32 recipient)',
]);

const PERMIT_TUPLE = '(uint8 kind, uint256 nonce, uint256 deadline, bytes signature) permit';
const FEE_SWAP_TUPLE =
  '(address venue, uint256 amountIn, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline) swap';
const FEES_TUPLE = '(address recipient, uint256 amount)[] fees';
const FEE_DEPOSIT_TUPLE =
  '(address venue, uint256 amountIn, uint256 destinationChainId, address recipient) deposit';
const FEE_DEPOSIT_TO_TUPLE =
  '(address venue, uint256 amountIn, uint256 destinationChainId, bytes32 recipient) deposit';
const ACROSS_DEPOSIT_TUPLE =
  '(address spokePool, address recipient, address outputToken, uint256 outputAmount, uint256 destinationChainId, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter) d';

/**
 * The SwapGatewayRouter (libs/evm-contracts, one address on every chain): one entry per venue
 * (Router02, SwapRouter02, the bridge, Across's SpokePool) that pulls the input with the user's
 * permit or allowance, pays the integrator fees it is given (none: an empty list) and spends the
 * rest in the same call; the swaps take native coin in as the call's value; the bridge's depositTo
 * with a permit. Its Uniswap V2 swaps are Router02's fee-on-transfer variants, their output measured
 * at the recipient: a taxed token swaps through it on either side, amountOutMin being what arrives.
 */
export const swapGatewayRouterInterface = new Interface([
  `function depositToWithFees(${FEE_DEPOSIT_TO_TUPLE}, ${FEES_TUPLE}, ${PERMIT_TUPLE}) returns (uint256 bridgeNonce)`,
  `function swapWithFees(${FEE_SWAP_TUPLE}, address[] path, ${FEES_TUPLE}, ${PERMIT_TUPLE}) payable returns (uint256 amountOut)`,
  `function swapV3WithFees(${FEE_SWAP_TUPLE}, bytes path, ${FEES_TUPLE}, ${PERMIT_TUPLE}) payable returns (uint256 amountOut)`,
  `function depositWithFees(${FEE_DEPOSIT_TUPLE}, ${FEES_TUPLE}, ${PERMIT_TUPLE}) returns (uint256 bridgeNonce)`,
  `function acrossWithFees(${ACROSS_DEPOSIT_TUPLE}, address inputToken, uint256 amountIn, ${FEES_TUPLE}, ${PERMIT_TUPLE})`,
  'event IntegratorFeePaid(address indexed recipient, address indexed token, address indexed payer, uint256 amount)',
]);

/** The router's `PermitKind` (allowance: the caller approved the router, no signature). */
const PERMIT_KIND = { eip2612: 0, permit2: 1, allowance: 2 } as const satisfies Record<
  RouterPermit['kind'] | 'allowance',
  number
>;

/** The permit as the router's `Permit` tuple. */
function permitTuple(permit: RouterPermit): unknown[] {
  return [PERMIT_KIND[permit.kind], permit.nonce, permit.deadline, permit.signature];
}

export function encodeApprove(token: string, spender: string, amount: bigint): EncodedCall {
  return { to: token, data: erc20Interface.encodeFunctionData('approve', [spender, amount]), value: '0' };
}

export interface UniswapV2SwapArgs {
  router: string;
  /** Native ETH in (the path starts with WETH): swapExactETHForTokens with `value` = amountIn. */
  nativeIn: boolean;
  /** Native ETH out (the path ends with WETH): swapExactTokensForETH. */
  nativeOut: boolean;
  amountIn: bigint;
  amountOutMin: bigint;
  path: string[];
  to: string;
  /** Seconds since epoch. */
  deadline: bigint;
  /** Through the SwapGatewayRouter with the user's permit instead of Router02 after an approve. */
  permit?: RouterPermit;
  /**
   * A taxed token on either end: Router02's `...SupportingFeeOnTransferTokens` variant. With a permit
   * it needs nothing more: the SwapGatewayRouter swaps with those variants only.
   */
  feeOnTransfer?: boolean;
}

export function encodeUniswapV2Swap(args: UniswapV2SwapArgs): EncodedCall {
  const { router, amountIn, amountOutMin, path, to, deadline, permit } = args;
  if (args.nativeIn && args.nativeOut)
    throw new Error('A Uniswap V2 swap cannot have native ETH on both sides');
  if (args.nativeIn && permit) throw new Error('Native ETH in needs no permit');
  if (permit) return permittedSwap({ ...args, permit });
  const suffix = args.feeOnTransfer ? FEE_ON_TRANSFER_SUFFIX : '';
  if (args.nativeIn) {
    return {
      to: router,
      data: uniswapV2RouterInterface.encodeFunctionData(`swapExactETHForTokens${suffix}`, [
        amountOutMin,
        path,
        to,
        deadline,
      ]),
      value: amountIn.toString(),
    };
  }
  const method = `${args.nativeOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens'}${suffix}`;
  return {
    to: router,
    data: uniswapV2RouterInterface.encodeFunctionData(method, [amountIn, amountOutMin, path, to, deadline]),
    value: '0',
  };
}

/**
 * A Uniswap swap whose input the SwapGatewayRouter pulls with the user's permit: its
 * swapWithFees / swapV3WithFees with no integrator fee.
 */
function permittedSwap(
  args: Pick<
    UniswapV2SwapArgs,
    'router' | 'amountIn' | 'amountOutMin' | 'path' | 'to' | 'deadline' | 'nativeOut'
  > & {
    permit: RouterPermit;
    poolFees?: number[];
  },
): EncodedCall {
  return encodeFeeSwap({
    gatewayRouter: args.permit.router,
    venue: args.router,
    grossAmountIn: args.amountIn,
    amountOutMin: args.amountOutMin,
    path: args.path,
    ...(args.poolFees ? { poolFees: args.poolFees } : {}),
    nativeOut: args.nativeOut,
    to: args.to,
    deadline: args.deadline,
    integratorFees: [],
    permit: args.permit,
  });
}

export const uniswapV3SwapRouter02Interface = new Interface([
  'function exactInput((bytes path, address recipient, uint256 amountIn, uint256 amountOutMinimum) params) payable returns (uint256 amountOut)',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
]);

/** A Uniswap V3 path as the router reads it: token, fee (uint24), token, fee, ..., token. */
export function encodeUniswapV3Path(tokens: readonly string[], fees: readonly number[]): string {
  if (tokens.length < 2 || fees.length !== tokens.length - 1)
    throw new Error(
      `A Uniswap V3 path of ${tokens.length} tokens needs ${tokens.length - 1} fee tiers, got ${fees.length}`,
    );
  const types: string[] = [];
  const values: (string | number)[] = [];
  tokens.forEach((token, i) => {
    types.push('address');
    values.push(token);
    if (i < fees.length) {
      types.push('uint24');
      values.push(fees[i]);
    }
  });
  return solidityPacked(types, values);
}

export interface UniswapV3SwapArgs {
  /** SwapRouter02. */
  router: string;
  /** Native ETH in (the path starts with WETH): the router wraps `value` = amountIn. */
  nativeIn: boolean;
  /** Native ETH out (the path ends with WETH): the router receives WETH and unwraps it to `to`. */
  nativeOut: boolean;
  amountIn: bigint;
  amountOutMin: bigint;
  path: string[];
  fees: number[];
  to: string;
  /** Seconds since epoch: SwapRouter02's `multicall(deadline, …)` refuses the call after it. */
  deadline: bigint;
  /** Through the SwapGatewayRouter's swapV3WithFees (no fee) with the user's permit instead of an approve. */
  permit?: RouterPermit;
}

/**
 * A SwapRouter02 exact-input swap inside `multicall(deadline, …)` (its exactInput has no deadline of
 * its own): `exactInput` to `to`, or to the router then `unwrapWETH9(amountOutMin, to)` for native out.
 * With a permit, the SwapGatewayRouter's `swapV3WithFees` with no fee, which does the same after pulling the input.
 */
export function encodeUniswapV3Swap(args: UniswapV3SwapArgs): EncodedCall {
  const { router, amountIn, amountOutMin, to, deadline, permit } = args;
  if (args.nativeIn && args.nativeOut)
    throw new Error('A Uniswap V3 swap cannot have native ETH on both sides');
  if (permit) {
    if (args.nativeIn) throw new Error('Native ETH in needs no permit');
    return permittedSwap({ ...args, permit, poolFees: args.fees });
  }
  const path = encodeUniswapV3Path(args.path, args.fees);
  const calls = args.nativeOut
    ? [
        uniswapV3SwapRouter02Interface.encodeFunctionData('exactInput', [
          [path, router, amountIn, amountOutMin],
        ]),
        uniswapV3SwapRouter02Interface.encodeFunctionData('unwrapWETH9', [amountOutMin, to]),
      ]
    : [uniswapV3SwapRouter02Interface.encodeFunctionData('exactInput', [[path, to, amountIn, amountOutMin]])];
  return {
    to: router,
    data: uniswapV3SwapRouter02Interface.encodeFunctionData('multicall', [deadline, calls]),
    value: args.nativeIn ? amountIn.toString() : '0',
  };
}

/**
 * A deposit into the devnet bridge: `deposit` to an EVM address, or `depositTo` a 32-byte recipient
 * (a Solana public key) when `recipientEncoding` is `bytes32`. With `permit`, through the
 * SwapGatewayRouter (`depositWithFees` or `depositToWithFees` with no fee), which deposits into `bridge`.
 */
export function encodeBridgeDeposit(
  bridge: string,
  amount: bigint,
  destinationChainId: number,
  recipient: string,
  recipientEncoding: 'address' | 'bytes32',
  permit?: RouterPermit,
): EncodedCall {
  const method = recipientEncoding === 'bytes32' ? 'depositTo' : 'deposit';
  if (!permit) {
    const data = devnetBridgeInterface.encodeFunctionData(method, [amount, destinationChainId, recipient]);
    return { to: bridge, data, value: '0' };
  }
  return encodeFeeDeposit({
    gatewayRouter: permit.router,
    bridge,
    grossAmount: amount,
    destinationChainId,
    recipient,
    recipientEncoding,
    integratorFees: [],
    permit,
  });
}

export interface FeeSwapArgs {
  /** The chain's SwapGatewayRouter: the call's `to`, and the spender of the input. */
  gatewayRouter: string;
  /** Uniswap V2 Router02, or V3 SwapRouter02 when `poolFees` is given. */
  venue: string;
  /** What the router pulls: the swap's input plus every fee. */
  grossAmountIn: bigint;
  amountOutMin: bigint;
  path: string[];
  /** Uniswap V3 pool fees (swapV3WithFees); absent on V2. */
  poolFees?: number[];
  /**
   * Native coin in (the path starts with WETH): the call's value is grossAmountIn, the router pays
   * the fees in the native coin and swaps the rest (swapWithFees / swapV3WithFees sent with it).
   */
  nativeIn?: boolean;
  nativeOut: boolean;
  to: string;
  /** Seconds since epoch. */
  deadline: bigint;
  integratorFees: IntegratorFeeTransfer[];
  /** The user's permit for grossAmountIn; without one the router uses the wallet's allowance to it. */
  permit?: RouterPermit;
}

/** The fees as the router's IntegratorFee[]. */
function feesTuple(fees: IntegratorFeeTransfer[]): unknown[] {
  return fees.map((fee) => [fee.recipient, fee.amount]);
}

/** The permit tuple, or PermitKind Allowance (the wallet approved the router) without a permit. */
function permitOrAllowance(permit: RouterPermit | undefined): unknown[] {
  return permit ? permitTuple(permit) : [PERMIT_KIND.allowance, 0n, 0n, '0x'];
}

/**
 * A swap that pays integrator fees in the same transaction: the SwapGatewayRouter's `swapWithFees`
 * (V2) or `swapV3WithFees` pulls grossAmountIn from the caller (its allowance to the router, or the
 * permit), pays each fee to its recipient (IntegratorFeePaid) and swaps the rest through the venue.
 * Native coin in: the same entry points with grossAmountIn as the value (no permit).
 */
export function encodeFeeSwap(args: FeeSwapArgs): EncodedCall {
  if (args.nativeIn && (args.nativeOut || args.permit))
    throw new Error('A native-in fee swap has no permit and no native out');
  const swap = [args.venue, args.grossAmountIn, args.amountOutMin, args.to, args.nativeOut, args.deadline];
  const fees = feesTuple(args.integratorFees);
  const path = args.poolFees ? encodeUniswapV3Path(args.path, args.poolFees) : args.path;
  const method = args.poolFees ? 'swapV3WithFees' : 'swapWithFees';
  const data = swapGatewayRouterInterface.encodeFunctionData(method, [
    swap,
    path,
    fees,
    permitOrAllowance(args.permit),
  ]);
  return { to: args.gatewayRouter, data, value: args.nativeIn ? args.grossAmountIn.toString() : '0' };
}

export interface FeeDepositArgs {
  /** The chain's SwapGatewayRouter: the call's `to`, and the spender of the input. */
  gatewayRouter: string;
  /** The devnet bridge the router deposits into. */
  bridge: string;
  /** What the router pulls: the deposit plus every fee. */
  grossAmount: bigint;
  /** The bridge's id of the destination chain. */
  destinationChainId: number;
  /** An EVM address, or 32 bytes (a Solana public key, a Bitcoin payout's bridge recipient). */
  recipient: string;
  /** `bytes32`: the bridge's `depositTo` (a chain whose addresses are not EVM addresses). */
  recipientEncoding: 'address' | 'bytes32';
  integratorFees: IntegratorFeeTransfer[];
  permit?: RouterPermit;
}

/**
 * A bridge deposit that pays integrator fees in the same transaction: the SwapGatewayRouter's
 * `depositWithFees` (an EVM recipient) or `depositToWithFees` (a 32-byte recipient, the bridge's
 * `depositTo`) pulls grossAmount of the bridge's token (allowance or permit), pays each fee
 * (IntegratorFeePaid) and deposits the rest into the bridge for recipient.
 */
export function encodeFeeDeposit(args: FeeDepositArgs): EncodedCall {
  const deposit = [args.bridge, args.grossAmount, args.destinationChainId, args.recipient];
  const method = args.recipientEncoding === 'bytes32' ? 'depositToWithFees' : 'depositWithFees';
  const data = swapGatewayRouterInterface.encodeFunctionData(method, [
    deposit,
    feesTuple(args.integratorFees),
    permitOrAllowance(args.permit),
  ]);
  return { to: args.gatewayRouter, data, value: '0' };
}

export interface AcrossFeeDepositArgs {
  gatewayRouter: string;
  spokePool: string;
  inputToken: string;
  /** What the router pulls: the deposit's inputAmount plus every fee. */
  grossAmount: bigint;
  recipient: string;
  outputToken: string;
  outputAmount: bigint;
  destinationChainId: number;
  exclusiveRelayer: string;
  quoteTimestamp: number;
  fillDeadline: number;
  exclusivityParameter: number;
  integratorFees: IntegratorFeeTransfer[];
}

/**
 * An Across deposit that pays integrator fees in the same transaction: the SwapGatewayRouter's
 * `acrossWithFees` pulls grossAmount (the wallet's allowance to the router), pays each fee and
 * deposits the rest into the SpokePool with the wallet as depositor (refunds go to it).
 */
export function encodeAcrossFeeDeposit(args: AcrossFeeDepositArgs): EncodedCall {
  const deposit = [
    args.spokePool,
    args.recipient,
    args.outputToken,
    args.outputAmount,
    args.destinationChainId,
    args.exclusiveRelayer,
    args.quoteTimestamp,
    args.fillDeadline,
    args.exclusivityParameter,
  ];
  const data = swapGatewayRouterInterface.encodeFunctionData('acrossWithFees', [
    deposit,
    args.inputToken,
    args.grossAmount,
    feesTuple(args.integratorFees),
    permitOrAllowance(undefined),
  ]);
  return { to: args.gatewayRouter, data, value: '0' };
}
