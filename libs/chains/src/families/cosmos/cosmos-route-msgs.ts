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
  const memo = crosschainSwapMemo({
    contract: swap.spender,
    outputDenom: swap.tokenOut.address,
    minOutputAmount: swap.minAmountOut,
    receiver: input.receiver,
    recoveryAddress: input.recoveryAddress,
  });
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
      memo,
    },
  };
}

/**
 * The ibc-hooks `wasm` memo asking Osmosis's crosschain-swaps `contract` to swap what arrives into
 * `outputDenom`, at least `minOutputAmount`, for `receiver` (an `osmo1…` address, or another chain's,
 * which the contract reaches over its channel there); what it holds after a failed delivery goes to
 * `recoveryAddress`. The packet's receiver must be the contract.
 */
export function crosschainSwapMemo(input: {
  contract: string;
  outputDenom: string;
  minOutputAmount: string;
  receiver: string;
  recoveryAddress: string;
}): string {
  return JSON.stringify({
    wasm: {
      contract: input.contract,
      msg: {
        osmosis_swap: {
          output_denom: input.outputDenom,
          slippage: { min_output_amount: input.minOutputAmount },
          receiver: input.receiver,
          on_failed_delivery: { local_recovery_addr: input.recoveryAddress },
        },
      },
    },
  });
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
