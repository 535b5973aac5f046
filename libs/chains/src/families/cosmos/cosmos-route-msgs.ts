import type { RouteLeg } from '@swapgw/contracts';
import type { CosmosMsgJson } from './cosmos-sign-doc';
import { MSG_TRANSFER_TYPE_URL } from './cosmos-sign-doc';
import { MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL, SwapAmountInRouteJson } from './osmosis-swap-msg';

/**
 * The messages a Cosmos route's one signature carries, from the legs quote-service's `osmosis`
 * provider writes (docs/chains.md, "Cosmos chains in the registry"): what a Cosmos step's SignDoc
 * (buildCosmosSignDoc) is built around. Pure: the chain reads (account, sequence, pools) are the
 * caller's.
 */

/**
 * An `ibc` bridge leg into an `osmosis` swap leg on arrival: one ICS-20 MsgTransfer of the bridge
 * leg's coin over `sourceChannel` to the swap leg's spender (Osmosis's crosschain-swaps contract),
 * whose ibc-hooks `wasm` memo asks the contract to swap into the swap leg's output, at least its
 * `minAmountOut`, for `receiver`. Should the swap fail after the packet was received, what the
 * contract holds goes to `recoveryAddress` (the wallet's own Osmosis address); a failed receive
 * refunds the sender on its chain.
 */
export function ibcSwapOnArrivalMsg(input: {
  transfer: RouteLeg;
  swap: RouteLeg;
  sourceChannel: string;
  sender: string;
  receiver: string;
  recoveryAddress: string;
  /** Unix time in nanoseconds after which the packet times out (and the sender is refunded). */
  timeoutTimestampNs: bigint;
}): CosmosMsgJson {
  const { transfer, swap } = input;
  if (transfer.kind !== 'bridge' || swap.kind !== 'swap' || transfer.destinationChain !== swap.chain)
    throw new Error('an IBC swap on arrival is a bridge leg into a swap leg on its destination chain');
  if (!transfer.tokenIn.address || !swap.tokenOut.address) throw new Error('Cosmos legs name their denoms');
  const memo = {
    wasm: {
      contract: swap.spender,
      msg: {
        osmosis_swap: {
          output_denom: swap.tokenOut.address,
          slippage: { min_output_amount: swap.minAmountOut },
          receiver: input.receiver,
          on_failed_delivery: { local_recovery_addr: input.recoveryAddress },
        },
      },
    },
  };
  return {
    typeUrl: MSG_TRANSFER_TYPE_URL,
    value: {
      sourcePort: 'transfer',
      sourceChannel: input.sourceChannel,
      token: { denom: transfer.tokenIn.address, amount: transfer.amountIn },
      sender: input.sender,
      // ibc-hooks runs the memo's contract only when it is the packet's receiver.
      receiver: swap.spender,
      timeoutHeight: { revisionNumber: '0', revisionHeight: '0' },
      timeoutTimestamp: input.timeoutTimestampNs.toString(),
      memo: JSON.stringify(memo),
    },
  };
}

/**
 * An `osmosis` swap leg on Osmosis: poolmanager's MsgSwapExactAmountIn of the leg's input over
 * `routes` (the pools the quote priced, read again by the caller), at least the leg's minAmountOut.
 */
export function osmosisSwapMsg(input: {
  swap: RouteLeg;
  sender: string;
  routes: readonly SwapAmountInRouteJson[];
}): CosmosMsgJson {
  const { swap } = input;
  if (swap.kind !== 'swap' || !swap.tokenIn.address)
    throw new Error('an Osmosis swap leg names its input denom');
  const last = input.routes[input.routes.length - 1];
  if (!last || last.tokenOutDenom !== swap.tokenOut.address)
    throw new Error("the routes must end in the leg's output denom");
  return {
    typeUrl: MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
    value: {
      sender: input.sender,
      routes: input.routes.map((r) => ({ poolId: r.poolId, tokenOutDenom: r.tokenOutDenom })),
      tokenIn: { denom: swap.tokenIn.address, amount: swap.amountIn },
      tokenOutMinAmount: swap.minAmountOut,
    },
  };
}
