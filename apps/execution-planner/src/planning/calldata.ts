import { PublicKey } from '@solana/web3.js';
import { hexlify, Interface, Signature } from 'ethers';

/**
 * ABI fragments of the contracts the planner calls. Only what is encoded here: the ERC-20 allowance
 * (approve / EIP-2612 permit), Uniswap V2 Router02 exact-input swaps, the devnet bridge deposit.
 */
export const erc20Interface = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
]);

export const uniswapV2RouterInterface = new Interface([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
]);

export const devnetBridgeInterface = new Interface([
  'function deposit(uint256 amount, uint256 destinationChainId, address recipient)',
  'function depositTo(uint256 amount, uint256 destinationChainId, bytes32 recipient)',
]);

export interface EncodedCall {
  to: string;
  data: string;
  /** Wei, decimal string. */
  value: string;
}

export function encodeApprove(token: string, spender: string, amount: bigint): EncodedCall {
  return { to: token, data: erc20Interface.encodeFunctionData('approve', [spender, amount]), value: '0' };
}

export interface PermitArgs {
  token: string;
  owner: string;
  spender: string;
  value: bigint;
  /** Seconds since epoch, as the token's permit checks it. */
  deadline: bigint;
  signature: { v: number; r: string; s: string };
}

export function encodePermit(args: PermitArgs): EncodedCall {
  const { v, r, s } = args.signature;
  return {
    to: args.token,
    data: erc20Interface.encodeFunctionData('permit', [args.owner, args.spender, args.value, args.deadline, v, r, s]),
    value: '0',
  };
}

/** Expands an EIP-2098 compact signature {r, vs} into {v, r, s}. */
export function expandCompactSignature(compact: { r: string; vs: string }): { v: number; r: string; s: string } {
  const signature = Signature.from({ r: compact.r, yParityAndS: compact.vs });
  return { v: signature.v, r: signature.r, s: signature.s };
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
}

export function encodeUniswapV2Swap(args: UniswapV2SwapArgs): EncodedCall {
  const { router, amountIn, amountOutMin, path, to, deadline } = args;
  if (args.nativeIn && args.nativeOut) throw new Error('A Uniswap V2 swap cannot have native ETH on both sides');
  if (args.nativeIn) {
    return {
      to: router,
      data: uniswapV2RouterInterface.encodeFunctionData('swapExactETHForTokens', [amountOutMin, path, to, deadline]),
      value: amountIn.toString(),
    };
  }
  const method = args.nativeOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens';
  return {
    to: router,
    data: uniswapV2RouterInterface.encodeFunctionData(method, [amountIn, amountOutMin, path, to, deadline]),
    value: '0',
  };
}

export function encodeBridgeDeposit(bridge: string, amount: bigint, destinationChainId: number, recipient: string): EncodedCall {
  return {
    to: bridge,
    data: devnetBridgeInterface.encodeFunctionData('deposit', [amount, destinationChainId, recipient]),
    value: '0',
  };
}

/** Bridge deposit to a non-EVM chain (Solana): the recipient is 32 bytes (a Solana public key). */
export function encodeBridgeDepositTo(bridge: string, amount: bigint, destinationChainId: number, recipient: string): EncodedCall {
  return {
    to: bridge,
    data: devnetBridgeInterface.encodeFunctionData('depositTo', [amount, destinationChainId, recipient]),
    value: '0',
  };
}

/** A Solana address as the `bytes32 recipient` of `depositTo`. */
export function solanaRecipientBytes32(address: string): string {
  return hexlify(new PublicKey(address).toBytes());
}
