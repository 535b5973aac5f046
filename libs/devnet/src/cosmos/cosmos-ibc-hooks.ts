import { bech32 } from '@scure/base';
import { CosmosTxError } from './cosmos-errors';
import {
  IbcHostContext,
  isErrorAck,
  PacketSettledHook,
  RecvOutcome,
  receivedDenom,
  TransferMiddleware,
} from './cosmos-ibc';
import { sdkAddressHash } from './cosmos-keys';
import type { Coin } from './cosmos-state';

/**
 * Osmosis's x/ibc-hooks wasm hook on osmosis-devnet: a packet whose memo is `{"wasm":{"contract",
 * "msg"}}` and whose receiver is that contract is received to an intermediary account derived from
 * the channel and the original sender, and the contract is executed by that account with the funds
 * (MsgExecuteContract). A failure anywhere is an error acknowledgement, the receive reverted, so the
 * sending chain refunds. The devnet has no CosmWasm VM: its contracts are TypeScript stand-ins
 * (`WasmContract`) at fixed addresses.
 */

/** ibc-hooks' SenderPrefix, the derivation key of its intermediary senders. */
export const IBC_HOOKS_SENDER_PREFIX = 'ibc-wasm-hook-intermediary';

/** ibc-hooks' DeriveIntermediateSender: address.Hash(prefix, "<channel>/<original sender>"), 32 bytes. */
export function ibcHooksIntermediateSender(prefix: string, channel: string, originalSender: string): string {
  return bech32.encode(
    prefix,
    bech32.toWords(sdkAddressHash(IBC_HOOKS_SENDER_PREFIX, `${channel}/${originalSender}`)),
  );
}

/**
 * wasmd's BuildContractAddressClassic: address.Module("wasm", code id ‖ instance id, big-endian
 * uint64s), 32 bytes: where the chain's instance `instanceId` of code `codeId` lives.
 */
export function classicContractAddress(prefix: string, codeId: bigint, instanceId: bigint): string {
  const key = new Uint8Array(16);
  const view = new DataView(key.buffer);
  view.setBigUint64(0, codeId);
  view.setBigUint64(8, instanceId);
  const name = new TextEncoder().encode('wasm');
  // address.Module: address.Hash("module", name ‖ 0 ‖ key).
  return bech32.encode(
    prefix,
    bech32.toWords(sdkAddressHash('module', new Uint8Array([...name, 0, ...key]))),
  );
}

/** A contract the devnet runs in place of CosmWasm code: executed with the funds, answering its response data. */
export interface WasmContract {
  address: string;
  execute(ctx: IbcHostContext, sender: string, funds: Coin[], msg: unknown): Uint8Array;
  /** ibc-hooks' ibc_callback: a packet the contract sent is settled; true when it took over the refund. */
  onPacketSettled?: PacketSettledHook;
}

/** The memo's wasm routing; undefined when the memo has no `wasm` key (not the hook's packet). */
export function parseWasmMemo(
  memo: string | undefined,
  receiver: string,
): { contract: string; msg: Record<string, unknown> } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(memo ?? '');
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || parsed.wasm === undefined) return undefined;
  const bad = (why: string) =>
    new CosmosTxError(
      'wasmHooksMsgValidation',
      `wasm metadata not properly formatted for: '${memo}'. ${why}`,
    );
  const { wasm } = parsed;
  if (!isObject(wasm)) throw bad('wasm must be an object');
  if (typeof wasm.contract !== 'string') throw bad('could not find key wasm["contract"]');
  try {
    bech32.decode(wasm.contract as `${string}1${string}`);
  } catch {
    throw bad('wasm["contract"] is not a valid bech32 address');
  }
  if (wasm.contract !== receiver)
    throw bad('wasm["contract"] should be the same as the receiver of the packet');
  if (!isObject(wasm.msg)) throw bad('could not find key wasm["msg"]');
  return { contract: wasm.contract, msg: wasm.msg };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ibc-hooks' ContractAck as the success acknowledgement's result: both fields base64, as Go marshals []byte. */
function contractAck(contractResult: Uint8Array, ibcAck: string): string {
  const result = JSON.stringify({
    contract_result: Buffer.from(contractResult).toString('base64'),
    ibc_ack: Buffer.from(ibcAck).toString('base64'),
  });
  return JSON.stringify({ result: Buffer.from(result).toString('base64') });
}

/** The ibc-hooks middleware of a chain whose contracts are `contracts`. */
export function ibcHooksMiddleware(contracts: readonly WasmContract[]): TransferMiddleware {
  const byAddress = new Map(contracts.map((c) => [c.address, c]));
  return {
    onRecvPacket(ctx, received, data, next): RecvOutcome {
      const routed = parseWasmMemo(data.memo, data.receiver);
      if (!routed) return next(data);
      const sender = ibcHooksIntermediateSender(ctx.spec.bech32Prefix, received.end.channel, data.sender);
      const inner = next({ ...data, receiver: sender });
      if ('async' in inner || isErrorAck(inner.ack)) return inner;
      const funds = [{ denom: receivedDenom(received.packet, data), amount: BigInt(data.amount) }];
      const contract = byAddress.get(routed.contract);
      if (!contract) {
        throw new CosmosTxError('wasmHooksWasmError', `${routed.contract}: no such contract`);
      }
      ctx.state.send(sender, contract.address, funds);
      let response: Uint8Array;
      try {
        response = contract.execute(ctx, sender, funds, routed.msg);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new CosmosTxError('wasmHooksWasmError', `cannot execute contract: ${message}`);
      }
      ctx.events.push({
        type: 'ibc-hooks',
        attributes: [
          { key: 'contract', value: contract.address },
          { key: 'sender', value: sender },
        ],
      });
      return { ack: contractAck(response, inner.ack) };
    },
    onPacketSettled(ctx, packet, data, outcome) {
      const contract = byAddress.get(data.sender);
      return contract?.onPacketSettled?.(ctx, packet, data, outcome) ?? false;
    },
  };
}
