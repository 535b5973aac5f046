import { BinaryWriter } from 'cosmjs-types/binary';
import { Coin } from 'cosmjs-types/cosmos/base/v1beta1/coin';

/** Osmosis's poolmanager swap, what a same-chain Osmosis swap leg is signed as. */
export const MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL = '/osmosis.poolmanager.v1beta1.MsgSwapExactAmountIn';

/** One hop of a poolmanager route (SwapAmountInRoute), as proto3 JSON names it. */
export interface SwapAmountInRouteJson {
  poolId: string;
  tokenOutDenom: string;
}

/** MsgSwapExactAmountIn in proto3 JSON (camelCase), the `value` of its `{typeUrl, value}`. */
export interface MsgSwapExactAmountInJson {
  sender: string;
  routes: SwapAmountInRouteJson[];
  tokenIn: { denom: string; amount: string };
  tokenOutMinAmount: string;
}

function swapOf(json: Record<string, unknown>): MsgSwapExactAmountInJson {
  const routes = Array.isArray(json.routes) ? (json.routes as Record<string, unknown>[]) : [];
  const tokenIn = (json.tokenIn ?? {}) as Record<string, unknown>;
  return {
    sender: String(json.sender ?? ''),
    routes: routes.map((r) => ({
      poolId: String(r.poolId ?? '0'),
      tokenOutDenom: String(r.tokenOutDenom ?? ''),
    })),
    tokenIn: { denom: String(tokenIn.denom ?? ''), amount: String(tokenIn.amount ?? '') },
    tokenOutMinAmount: String(json.tokenOutMinAmount ?? ''),
  };
}

/**
 * The protobuf of osmosis/poolmanager/v1beta1/tx.proto's MsgSwapExactAmountIn (cosmjs-types has no
 * Osmosis types): sender = 1, routes = 2 (SwapAmountInRoute {pool_id = 1, token_out_denom = 2}),
 * token_in = 3, token_out_min_amount = 4; proto3 defaults omitted, as every encoder writes them.
 */
export function encodeMsgSwapExactAmountIn(json: Record<string, unknown>): Uint8Array {
  const msg = swapOf(json);
  if (!msg.routes.every((r) => /^\d+$/.test(r.poolId))) throw new Error('a pool id is a decimal integer');
  const writer = BinaryWriter.create();
  if (msg.sender !== '') writer.uint32(10).string(msg.sender);
  for (const route of msg.routes) {
    const inner = writer.uint32(18).fork();
    if (BigInt(route.poolId) !== 0n) inner.uint32(8).uint64(BigInt(route.poolId));
    if (route.tokenOutDenom !== '') inner.uint32(18).string(route.tokenOutDenom);
    inner.ldelim();
  }
  Coin.encode(msg.tokenIn, writer.uint32(26).fork()).ldelim();
  if (msg.tokenOutMinAmount !== '') writer.uint32(34).string(msg.tokenOutMinAmount);
  return writer.finish();
}

/** Its amino JSON (`osmosis/poolmanager/swap-exact-amount-in`), as Osmosis's amino codec writes it. */
export function msgSwapExactAmountInAmino(json: Record<string, unknown>): Record<string, unknown> {
  const msg = swapOf(json);
  return {
    sender: msg.sender,
    routes: msg.routes.map((r) => ({ pool_id: r.poolId, token_out_denom: r.tokenOutDenom })),
    token_in: msg.tokenIn,
    token_out_min_amount: msg.tokenOutMinAmount,
  };
}
