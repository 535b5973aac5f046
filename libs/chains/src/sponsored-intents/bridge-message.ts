import { AbiCoder, hexlify } from 'ethers';
import { checksummed, uintString } from './intent-values';
import type { UintLike } from './intent-types';

// The messages a bridge-and-swap deposit carries to the destination chain's SwapGatewayRouter.

/**
 * The message a bridge-and-swap deposit carries to the destination chain's SwapGatewayRouter
 * (SwapGatewayRouter.BridgeSwapMessage, abi-encoded): its onBridgeRelease swaps what the bridge
 * delivered along `path` for at least `amountOutMin` to `recipient`, or pays `recipient` the bridged
 * tokens when that cannot happen. `owner` is only reported (BridgeSwapSettled): the EVM signer of a
 * bridgeAndSwapWithIntent, the zero address for a deposit made on Solana.
 */
export interface BridgeSwapMessage {
  owner: string;
  /** The Uniswap V2 Router02 of the destination chain. */
  venue: string;
  path: string[];
  amountOutMin: UintLike;
  recipient: string;
  unwrapNative: boolean;
  deadline: UintLike;
}

/** The ABI type of BridgeSwapMessage, as the router abi.decodes it. */
export const BRIDGE_SWAP_MESSAGE_ABI_TYPE =
  'tuple(address owner, address venue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline)';

/** The message an Across bridge-swap deposit carries (SwapGatewayRouter.AcrossSwapMessage); `path` is V3's bytes. */
export interface AcrossSwapMessage {
  owner: string;
  /** The Uniswap V3 SwapRouter02 of the destination chain. */
  venue: string;
  /** 0x-hex V3 path (token, uint24 fee, token, ...). */
  path: string;
  amountOutMin: UintLike;
  recipient: string;
  unwrapNative: boolean;
  deadline: UintLike;
}

/** The ABI type of AcrossSwapMessage, as handleV3AcrossMessage abi.decodes it. */
export const ACROSS_SWAP_MESSAGE_ABI_TYPE =
  'tuple(address owner, address venue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline)';

/** The bytes (0x-hex) of a BridgeSwapMessage, exactly as bridgeAndSwapWithIntent deposits them. */
export function encodeBridgeSwapMessage(message: BridgeSwapMessage): string {
  return AbiCoder.defaultAbiCoder().encode(
    [BRIDGE_SWAP_MESSAGE_ABI_TYPE],
    [
      [
        checksummed(message.owner, 'owner'),
        checksummed(message.venue, 'venue'),
        message.path.map((hop, i) => checksummed(hop, `path[${i}]`)),
        uintString(message.amountOutMin, 'amountOutMin'),
        checksummed(message.recipient, 'recipient'),
        message.unwrapNative,
        uintString(message.deadline, 'deadline'),
      ],
    ],
  );
}

/** The bytes (0x-hex) of an AcrossSwapMessage, exactly as acrossAndSwapWithIntent deposits them. */
export function encodeAcrossSwapMessage(message: AcrossSwapMessage): string {
  return AbiCoder.defaultAbiCoder().encode(
    [ACROSS_SWAP_MESSAGE_ABI_TYPE],
    [
      [
        checksummed(message.owner, 'owner'),
        checksummed(message.venue, 'venue'),
        hexlify(message.path),
        uintString(message.amountOutMin, 'amountOutMin'),
        checksummed(message.recipient, 'recipient'),
        message.unwrapNative,
        uintString(message.deadline, 'deadline'),
      ],
    ],
  );
}

/** The inverse of encodeBridgeSwapMessage (uints as bigint). */
export function decodeBridgeSwapMessage(
  bytes: string,
): BridgeSwapMessage & { amountOutMin: bigint; deadline: bigint } {
  const [[owner, venue, path, amountOutMin, recipient, unwrapNative, deadline]] =
    AbiCoder.defaultAbiCoder().decode([BRIDGE_SWAP_MESSAGE_ABI_TYPE], bytes) as unknown as [
      [string, string, string[], bigint, string, boolean, bigint],
    ];
  return { owner, venue, path: [...path], amountOutMin, recipient, unwrapNative, deadline };
}
