import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import { BinaryReader, BinaryWriter } from 'cosmjs-types/binary';

/**
 * Noble's x/forwarding (noble-assets/forwarding, proto/noble/forwarding/v1): an account derived from
 * an IBC channel and a recipient on its other end, which sends on over that channel whatever it
 * receives (at the end of the block it arrives in). Anyone may register one (`MsgRegisterAccount`,
 * permissionless), so a CCTP mint (or a devnet bridge payout) names it as its 32-byte recipient and
 * the funds continue over IBC without a signature of the account's. cosmjs-types has no noble types,
 * so the message is encoded here field by field.
 *
 * Devnet extension (decision, docs/chains.md): the real module forwards with an empty memo; the
 * devnet's also carries a packet `memo` (field 5 of the message, appended to the address's preimage
 * when set), so a forward can swap on arrival on Osmosis (crosschain-swaps' `wasm` memo). Without a
 * memo the address and the message are the real module's.
 */
export const MSG_REGISTER_ACCOUNT_TYPE_URL = '/noble.forwarding.v1.MsgRegisterAccount';
/** Its amino name (`noble/forwarding/RegisterAccount`). */
export const MSG_REGISTER_ACCOUNT_AMINO_TYPE = 'noble/forwarding/RegisterAccount';
export const MSG_REGISTER_ACCOUNT_RESPONSE_TYPE_URL = '/noble.forwarding.v1.MsgRegisterAccountResponse';
/** x/forwarding's module name, the key its addresses are derived under. */
export const FORWARDING_MODULE_NAME = 'forwarding';
/** ibc-go's MaximumReceiverLength: a longer recipient is refused. */
export const FORWARDING_MAX_RECIPIENT_LENGTH = 2048;

/** What a forwarding account is derived from and forwards to. */
export interface ForwardingTarget {
  /** This chain's channel the funds leave by (`channel-<n>`). */
  channel: string;
  /** The receiver on the channel's other end, as written there. */
  recipient: string;
  /** Where MsgClearAccount may send stuck funds (an address of this chain), or ''. */
  fallback: string;
  /** Devnet extension: the forwarded packet's memo, or ''. */
  memo: string;
}

export interface MsgRegisterAccount extends ForwardingTarget {
  signer: string;
}

/**
 * types.GenerateAddress: address.Derive([]byte("forwarding"), channel+recipient+fallback)[12:], i.e.
 * the last 20 bytes of SHA-256(SHA-256("forwarding") ‖ preimage); on the devnet the memo follows the
 * fallback in the preimage when there is one.
 */
export function forwardingAddressBytes(target: ForwardingTarget): Uint8Array {
  const encoder = new TextEncoder();
  const preimage = encoder.encode(`${target.channel}${target.recipient}${target.fallback}${target.memo}`);
  const typeHash = sha256(encoder.encode(FORWARDING_MODULE_NAME));
  const derived = sha256(new Uint8Array([...typeHash, ...preimage]));
  return derived.subarray(12);
}

/** The forwarding account's bech32 address on a chain of `prefix` (`noble1…`). */
export function nobleForwardingAddress(prefix: string, target: ForwardingTarget): string {
  return bech32.encode(prefix, bech32.toWords(forwardingAddressBytes(target)));
}

/**
 * The protobuf of noble.forwarding.v1.MsgRegisterAccount: signer = 1, recipient = 2, channel = 3,
 * fallback = 4 (strings) and, on the devnet, memo = 5; proto3 defaults omitted.
 */
export function encodeMsgRegisterAccount(json: Record<string, unknown>): Uint8Array {
  const msg = registerAccountOf(json);
  const writer = BinaryWriter.create();
  const fields: [number, string][] = [
    [1, msg.signer],
    [2, msg.recipient],
    [3, msg.channel],
    [4, msg.fallback],
    [5, msg.memo],
  ];
  for (const [field, value] of fields) if (value !== '') writer.uint32((field << 3) | 2).string(value);
  return writer.finish();
}

/** Decodes a MsgRegisterAccount (unknown fields skipped, as protobuf readers do). */
export function decodeMsgRegisterAccount(bytes: Uint8Array): MsgRegisterAccount {
  const reader = new BinaryReader(bytes);
  const msg: MsgRegisterAccount = { signer: '', recipient: '', channel: '', fallback: '', memo: '' };
  const names = ['', 'signer', 'recipient', 'channel', 'fallback', 'memo'] as const;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    if (field >= 1 && field <= 5 && (tag & 7) === 2)
      msg[names[field] as keyof MsgRegisterAccount] = reader.string();
    else reader.skipType(tag & 7);
  }
  return msg;
}

/** The response: address = 1, the forwarding account's. */
export function encodeMsgRegisterAccountResponse(address: string): Uint8Array {
  return BinaryWriter.create().uint32(10).string(address).finish();
}

/** proto3 JSON of the message (its field names are single words: camelCase and snake_case alike). */
export function msgRegisterAccountJson(msg: MsgRegisterAccount): Record<string, string> {
  return {
    signer: msg.signer,
    recipient: msg.recipient,
    channel: msg.channel,
    fallback: msg.fallback,
    ...(msg.memo ? { memo: msg.memo } : {}),
  };
}

function registerAccountOf(json: Record<string, unknown>): MsgRegisterAccount {
  const text = (key: string) => String(json[key] ?? '');
  return {
    signer: text('signer'),
    recipient: text('recipient'),
    channel: text('channel'),
    fallback: text('fallback'),
    memo: text('memo'),
  };
}

/**
 * noble.forwarding.v1.MsgClearAccount (signer = 1, address = 2 strings, fallback = 3 bool), anyone's
 * to sign: a registered forwarding account still holding funds (a forward refunded or never sent)
 * forwards them again at the block's end, or, with `fallback` and a fallback registered, sends them
 * to the fallback address at once (`AccountCleared`).
 */
export const MSG_CLEAR_ACCOUNT_TYPE_URL = '/noble.forwarding.v1.MsgClearAccount';
export const MSG_CLEAR_ACCOUNT_AMINO_TYPE = 'noble/forwarding/ClearAccount';
export const MSG_CLEAR_ACCOUNT_RESPONSE_TYPE_URL = '/noble.forwarding.v1.MsgClearAccountResponse';
/** The typed event of a clearing to the fallback (`address`, `recipient` the fallback; JSON values). */
export const ACCOUNT_CLEARED_EVENT = 'noble.forwarding.v1.AccountCleared';

export interface MsgClearAccount {
  signer: string;
  address: string;
  fallback: boolean;
}

export function encodeMsgClearAccount(json: Record<string, unknown>): Uint8Array {
  const writer = BinaryWriter.create();
  const signer = String(json.signer ?? '');
  const address = String(json.address ?? '');
  if (signer !== '') writer.uint32(10).string(signer);
  if (address !== '') writer.uint32(18).string(address);
  if (json.fallback === true) writer.uint32(24).bool(true);
  return writer.finish();
}

export function decodeMsgClearAccount(bytes: Uint8Array): MsgClearAccount {
  const reader = new BinaryReader(bytes);
  const msg: MsgClearAccount = { signer: '', address: '', fallback: false };
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 10) msg.signer = reader.string();
    else if (tag === 18) msg.address = reader.string();
    else if (tag === 24) msg.fallback = reader.bool();
    else reader.skipType(tag & 7);
  }
  return msg;
}

/** proto3 JSON of the message (`fallback` omitted when false, as proto3 JSON omits defaults). */
export function msgClearAccountJson(msg: MsgClearAccount): Record<string, unknown> {
  return { signer: msg.signer, address: msg.address, ...(msg.fallback ? { fallback: true } : {}) };
}
