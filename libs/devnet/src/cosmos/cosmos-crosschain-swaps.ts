import { bech32 } from '@scure/base';
import { cosmosChainOf, CosmosNetwork } from './cosmos-chain-spec';
import { CosmosTxError } from './cosmos-errors';
import { ibcChannel, IbcChannelEnd, isErrorAck, localDenom, refund, sendTransfer } from './cosmos-ibc';
import { classicContractAddress, WasmContract } from './cosmos-ibc-hooks';
import { addressBytes } from './cosmos-keys';
import { transferEvents } from './cosmos-messages';
import { allPools, OsmosisPool, poolAddress, routeSwap, SwapAmountInRoute } from './cosmos-osmosis';
import type { Coin, CosmosState } from './cosmos-state';

/**
 * A stand-in for Osmosis's crosschain-swaps contract (osmosis-labs/osmosis
 * cosmwasm/contracts/crosschain-swaps, with its swaprouter and crosschain-registry): not CosmWasm
 * code, but the same `osmosis_swap` message answered the same way. The funds an ibc-hooks packet
 * brought are swapped through osmosis-devnet's pools into `output_denom`, at least
 * `slippage.min_output_amount` of it or the whole packet fails, and the output goes to `receiver`:
 * a bank send for an `osmo1…` address, else an ICS-20 transfer from the contract over Osmosis's
 * channel to the chain of the receiver's bech32 prefix (the registry's job), `next_memo` as its memo.
 */

/**
 * Where the devnet puts the contract: the address wasmd gives code 3's instance 3 on a fresh chain,
 * as crosschain-swaps gets it when deployed in its README's order (swaprouter, crosschain-registry,
 * crosschain-swaps). Fixed, so the manifest and every memo can name it.
 */
export const CROSSCHAIN_SWAPS_ADDRESS = classicContractAddress('osmo', 3n, 3n);

/** crosschain-swaps' PACKET_LIFETIME: the onward transfer times out a week after the swap. */
export const CROSSCHAIN_SWAPS_PACKET_LIFETIME_S = 604_800n;

/** The `osmosis_swap` message, as crosschain-swaps' ExecuteMsg::OsmosisSwap deserializes it. */
export interface OsmosisSwapMsg {
  outputDenom: string;
  minOutputAmount: bigint;
  receiver: string;
  /** `do_nothing`, or the Osmosis address the output goes to when the onward transfer fails. */
  recoveryAddress?: string;
  nextMemo?: Record<string, unknown>;
}

export function parseOsmosisSwapMsg(msg: unknown): OsmosisSwapMsg {
  const swap = isObject(msg) ? msg.osmosis_swap : undefined;
  if (!isObject(swap)) throw new Error('unknown variant: expected `osmosis_swap`');
  const { output_denom, slippage, receiver, on_failed_delivery, next_memo } = swap;
  if (typeof output_denom !== 'string' || output_denom === '')
    throw new Error('missing field `output_denom`');
  if (!isObject(slippage)) throw new Error('missing field `slippage`');
  if ('twap' in slippage) {
    throw new Error(
      'slippage `twap` is not modelled on the devnet (no TWAP records): use `min_output_amount`',
    );
  }
  const min = slippage.min_output_amount;
  if (typeof min !== 'string' || !/^[0-9]+$/.test(min)) {
    throw new Error('slippage must be `{"min_output_amount": "<uint128>"}`');
  }
  if (typeof receiver !== 'string' || receiver === '') throw new Error('missing field `receiver`');
  let recoveryAddress: string | undefined;
  if (isObject(on_failed_delivery) && typeof on_failed_delivery.local_recovery_addr === 'string') {
    recoveryAddress = on_failed_delivery.local_recovery_addr;
    if (!addressBytes('osmo', recoveryAddress))
      throw new Error(`invalid local_recovery_addr ${recoveryAddress}`);
  } else if (on_failed_delivery !== 'do_nothing') {
    throw new Error('on_failed_delivery must be "do_nothing" or {"local_recovery_addr": "osmo1…"}');
  }
  if (next_memo !== undefined && next_memo !== null && !isObject(next_memo)) {
    throw new Error('next_memo must be a JSON object');
  }
  return {
    outputDenom: output_denom,
    minOutputAmount: BigInt(min),
    receiver,
    ...(recoveryAddress ? { recoveryAddress } : {}),
    ...(isObject(next_memo) ? { nextMemo: next_memo } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The route the devnet's swaprouter takes from `inputDenom` to `outputDenom` (the real one reads a
 * route table governance sets): the pool holding both, the lowest id first; else two pools through
 * one middle denom, the lowest first pool id then the lowest second; none, an error.
 */
export function swapRoute(state: CosmosState, inputDenom: string, outputDenom: string): SwapAmountInRoute[] {
  const pools = allPools(state).sort((a, b) => (a.id < b.id ? -1 : 1));
  const holds = (pool: OsmosisPool, denom: string) => pool.denoms.includes(denom);
  const direct = pools.find((p) => holds(p, inputDenom) && holds(p, outputDenom));
  if (direct) return [{ poolId: direct.id, tokenOutDenom: outputDenom }];
  for (const first of pools.filter((p) => holds(p, inputDenom))) {
    const middle = first.denoms[0] === inputDenom ? first.denoms[1] : first.denoms[0];
    const second = pools.find((p) => p !== first && holds(p, middle) && holds(p, outputDenom));
    if (second) {
      return [
        { poolId: first.id, tokenOutDenom: middle },
        { poolId: second.id, tokenOutDenom: outputDenom },
      ];
    }
  }
  throw new Error(`no route from ${inputDenom} to ${outputDenom}`);
}

const recoveryKey = (channel: string, sequence: string) => `crosschain-swaps/recovery/${channel}/${sequence}`;

/** Which chain an address belongs to by its prefix, and Osmosis's channel to it (the registry's lookup). */
function destinationOf(network: CosmosNetwork, receiver: string): { prefix: string; end?: IbcChannelEnd } {
  let prefix: string;
  try {
    prefix = bech32.decode(receiver as `${string}1${string}`).prefix;
  } catch {
    throw new Error(`invalid receiver ${receiver}`);
  }
  const osmosis = cosmosChainOf(network, 'osmosis');
  if (prefix === osmosis.bech32Prefix) return { prefix };
  const chain = network.chains.find((c) => c.bech32Prefix === prefix);
  const end = chain && ibcChannel(osmosis.id, network.channels[osmosis.id]?.[chain.id] ?? '');
  if (!end) throw new Error(`receiver prefix ${prefix} has no channel from osmosis in the registry`);
  return { prefix, end };
}

/** The contract on the Osmosis chain of `network`, at the network's `crosschainSwapsAddress`. */
export function crosschainSwapsContract(network: CosmosNetwork): WasmContract {
  const address = network.crosschainSwapsAddress;
  return {
    address,

    execute(ctx, _sender, funds: Coin[], msg): Uint8Array {
      const swap = parseOsmosisSwapMsg(msg);
      if (funds.length !== 1) throw new Error('crosschain-swaps takes exactly one coin');
      const destination = destinationOf(network, swap.receiver);
      if (!addressBytes(destination.prefix, swap.receiver))
        throw new Error(`invalid receiver ${swap.receiver}`);
      const [tokenIn] = funds;
      const routes = swapRoute(ctx.state, tokenIn.denom, swap.outputDenom);
      const { out, hops } = routeSwap(ctx.state, address, tokenIn, routes);
      if (out < swap.minOutputAmount) {
        throw new CosmosTxError('gammLimitMinAmount', `${swap.outputDenom} token is lesser than min amount`);
      }
      for (const hop of hops) {
        const pool = poolAddress(hop.pool.id);
        ctx.events.push(
          ...transferEvents(address, pool, [hop.tokenIn]).slice(0, 3),
          ...transferEvents(pool, address, [hop.tokenOut]).slice(0, 3),
          {
            type: 'token_swapped',
            attributes: [
              { key: 'module', value: 'gamm' },
              { key: 'sender', value: address },
              { key: 'pool_id', value: hop.pool.id.toString() },
              { key: 'tokens_in', value: `${hop.tokenIn.amount}${hop.tokenIn.denom}` },
              { key: 'tokens_out', value: `${hop.tokenOut.amount}${hop.tokenOut.denom}` },
            ],
          },
        );
      }
      const output = { denom: swap.outputDenom, amount: out };
      const { end } = destination;
      if (!end) {
        ctx.state.send(address, swap.receiver, [output]);
        ctx.events.push(...transferEvents(address, swap.receiver, [output]).slice(0, 3));
        return response({ sent_amount: out.toString(), denom: output.denom, receiver: swap.receiver });
      }
      const packet = sendTransfer(ctx, end, {
        sender: address,
        receiver: swap.receiver,
        token: output,
        memo: swap.nextMemo ? JSON.stringify(swap.nextMemo) : '',
        timeoutHeight: 0n,
        timeoutTimestamp:
          (BigInt(ctx.blockTime.getTime()) / 1000n + CROSSCHAIN_SWAPS_PACKET_LIFETIME_S) * 1_000_000_000n,
      });
      if (swap.recoveryAddress) {
        ctx.state.set(recoveryKey(end.channel, packet.sequence), swap.recoveryAddress);
      }
      return response({
        sent_amount: out.toString(),
        denom: output.denom,
        channel_id: end.channel,
        receiver: swap.receiver,
        packet_sequence: Number(packet.sequence),
      });
    },

    /**
     * ibc_lifecycle_complete: an onward transfer that failed is refunded to the contract; with a
     * `local_recovery_addr` the devnet sends it there at once (the real contract records it for the
     * address to claim with `recover`), with `do_nothing` it stays with the contract.
     */
    onPacketSettled(ctx, packet, data, outcome) {
      const key = recoveryKey(packet.sourceChannel, packet.sequence);
      const recovery = ctx.state.get(key);
      if (recovery === undefined) return false;
      ctx.state.set(key, undefined);
      if ('ack' in outcome && !isErrorAck(outcome.ack)) return false;
      refund(ctx.state, ctx.spec, packet, data);
      const coin = { denom: localDenom(data.denom), amount: BigInt(data.amount) };
      ctx.state.send(address, recovery, [coin]);
      return true;
    },
  };
}

function response(body: Record<string, unknown>): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(body));
}
