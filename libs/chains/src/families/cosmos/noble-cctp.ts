import { base64, bech32 } from '@scure/base';
import { BinaryReader, BinaryWriter } from 'cosmjs-types/binary';
import { BITCOIN_BRIDGE_CHAIN_ID } from '../../bitcoin-bridge';
import { SOLANA_BRIDGE_CHAIN_ID } from '../../solana-bridge';
import type { CosmosMsgJson } from '@swapgw/contracts';
import { CCTP_DOMAINS } from './cctp-domains';

/**
 * Circle's CCTP on Noble (circle/cctp/v1/tx.proto of noble-assets/cctp): what a Noble wallet signs to
 * send its USDC to another chain, `MsgDepositForBurn`, which burns the USDC and emits the
 * `circle.cctp.v1.DepositForBurn` event the attesters (on the devnet: the devnet bridge's relayer)
 * act on. cosmjs-types has no circle types, so the message is encoded here field by field.
 */
export const MSG_DEPOSIT_FOR_BURN_TYPE_URL = '/circle.cctp.v1.MsgDepositForBurn';
/** Noble's amino name of the message (what a Ledger signs in a LEGACY_AMINO_JSON sign doc). */
export const MSG_DEPOSIT_FOR_BURN_AMINO_TYPE = 'cctp/DepositForBurn';
/** The typed event x/cctp emits for each burn (its attributes are JSON values, as every typed event's). */
export const DEPOSIT_FOR_BURN_EVENT = 'circle.cctp.v1.DepositForBurn';
/** x/cctp's typed event of a received message (`source_domain` a JSON number, `nonce` a JSON string). */
export const CCTP_MESSAGE_RECEIVED_EVENT = 'circle.cctp.v1.MessageReceived';
/** x/cctp's typed event of the mint a received message made (`mint_recipient`, `amount`, `mint_token`). */
export const CCTP_MINT_AND_WITHDRAW_EVENT = 'circle.cctp.v1.MintAndWithdraw';
export const MSG_DEPOSIT_FOR_BURN_RESPONSE_TYPE_URL = '/circle.cctp.v1.MsgDepositForBurnResponse';

export { CCTP_DOMAINS, NOBLE_BECH32_PREFIX, NOBLE_BRIDGE_CHAIN_ID } from './cctp-domains';

/**
 * The devnet's CCTP domain of Bitcoin (the devnet bridge's Bitcoin end; Circle has none): the ASCII
 * bytes of `BTC` (0x425443), as Solana's bridge id is the ASCII of `SolM`. Bitcoin's bridge id
 * (BITCOIN_BRIDGE_CHAIN_ID, 20000000000001) does not fit CCTP's uint32 domain; this number does,
 * is larger than any CCTP domain and is no devnet EVM chain id.
 */
export const DEVNET_BITCOIN_CCTP_DOMAIN = 0x425443;

/**
 * The CCTP `destination_domain` of a chain the devnet bridge knows by `bridgeChainId`: Solana and
 * Noble by their CCTP domains; the devnet's EVM chains, which have none (they are not Circle's),
 * by their EVM chain id (31337, 31338: no CCTP domain is that large); Bitcoin by
 * DEVNET_BITCOIN_CCTP_DOMAIN.
 */
export function cctpDomainOfBridgeChain(bridgeChainId: number | bigint): number {
  const id = BigInt(bridgeChainId);
  if (id === BigInt(SOLANA_BRIDGE_CHAIN_ID)) return CCTP_DOMAINS.solana;
  if (id === BigInt(BITCOIN_BRIDGE_CHAIN_ID)) return DEVNET_BITCOIN_CCTP_DOMAIN;
  if (id < 0n || id > 0xffffffffn) throw new Error(`bridge chain ${id} has no CCTP domain (uint32)`);
  return Number(id);
}

/** The inverse of cctpDomainOfBridgeChain: the bridge's id of the chain a burn names. */
export function bridgeChainOfCctpDomain(domain: number): bigint {
  if (domain === CCTP_DOMAINS.solana) return BigInt(SOLANA_BRIDGE_CHAIN_ID);
  if (domain === DEVNET_BITCOIN_CCTP_DOMAIN) return BigInt(BITCOIN_BRIDGE_CHAIN_ID);
  return BigInt(domain);
}

/** MsgDepositForBurn in proto3 JSON (camelCase; bytes as base64), the `value` of its `{typeUrl, value}`. */
export interface MsgDepositForBurnJson {
  from: string;
  /** Base units of `burnToken` (an sdk.Int, written as a decimal string). */
  amount: string;
  destinationDomain: number;
  /** 32 bytes, base64: the recipient on the destination domain (an address left-padded with zeros). */
  mintRecipient: string;
  /** The denom burnt: `uusdc`. */
  burnToken: string;
}

/** The decoded message (mintRecipient as bytes). */
export interface MsgDepositForBurn {
  from: string;
  amount: string;
  destinationDomain: number;
  mintRecipient: Uint8Array;
  burnToken: string;
}

function depositForBurnOf(json: Record<string, unknown>): MsgDepositForBurn {
  const domain = Number(json.destinationDomain ?? 0);
  if (!Number.isInteger(domain) || domain < 0 || domain > 0xffffffff)
    throw new Error('destinationDomain is a uint32');
  return {
    from: String(json.from ?? ''),
    amount: String(json.amount ?? ''),
    destinationDomain: domain,
    mintRecipient: base64.decode(String(json.mintRecipient ?? '')),
    burnToken: String(json.burnToken ?? ''),
  };
}

/**
 * The protobuf of circle.cctp.v1.MsgDepositForBurn: from = 1 (string), amount = 2 (string, an
 * sdk.Int), destination_domain = 3 (uint32), mint_recipient = 4 (bytes), burn_token = 5 (string);
 * proto3 defaults omitted, as every encoder writes them.
 */
export function encodeMsgDepositForBurn(json: Record<string, unknown>): Uint8Array {
  const msg = depositForBurnOf(json);
  const writer = BinaryWriter.create();
  if (msg.from !== '') writer.uint32(10).string(msg.from);
  if (msg.amount !== '') writer.uint32(18).string(msg.amount);
  if (msg.destinationDomain !== 0) writer.uint32(24).uint32(msg.destinationDomain);
  if (msg.mintRecipient.length > 0) writer.uint32(34).bytes(msg.mintRecipient);
  if (msg.burnToken !== '') writer.uint32(42).string(msg.burnToken);
  return writer.finish();
}

/** Decodes the protobuf of a MsgDepositForBurn (unknown fields skipped, as protobuf readers do). */
export function decodeMsgDepositForBurn(bytes: Uint8Array): MsgDepositForBurn {
  const reader = new BinaryReader(bytes);
  const msg: MsgDepositForBurn = {
    from: '',
    amount: '',
    destinationDomain: 0,
    mintRecipient: new Uint8Array(),
    burnToken: '',
  };
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        msg.from = reader.string();
        break;
      case 2:
        msg.amount = reader.string();
        break;
      case 3:
        msg.destinationDomain = reader.uint32();
        break;
      case 4:
        msg.mintRecipient = reader.bytes();
        break;
      case 5:
        msg.burnToken = reader.string();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return msg;
}

/** The response: nonce = 1 (uint64), the burn's CCTP nonce. */
export function encodeMsgDepositForBurnResponse(nonce: bigint): Uint8Array {
  const writer = BinaryWriter.create();
  if (nonce !== 0n) writer.uint32(8).uint64(nonce);
  return writer.finish();
}

/** Its amino JSON (`cctp/DepositForBurn`): snake_case, bytes as base64, as Noble's amino codec writes it. */
export function msgDepositForBurnAmino(json: Record<string, unknown>): Record<string, unknown> {
  const msg = depositForBurnOf(json);
  return {
    from: msg.from,
    amount: msg.amount,
    destination_domain: msg.destinationDomain,
    mint_recipient: base64.encode(msg.mintRecipient),
    burn_token: msg.burnToken,
  };
}

/** 32 bytes of a 0x-hex bridge recipient (a 20-byte address is left-padded with zeros, as CCTP writes it). */
export function mintRecipientBytes(recipientHex: string): Uint8Array {
  const hex = recipientHex.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]*$/.test(hex) || (hex.length !== 40 && hex.length !== 64))
    throw new Error(`${recipientHex} is neither a 20-byte address nor 32 bytes`);
  return Uint8Array.from(Buffer.from(hex.padStart(64, '0'), 'hex'));
}

/**
 * A Cosmos account as a bridge's 32-byte recipient (EVM `depositTo`, a CCTP mint_recipient): its 20
 * bytes left-padded with zeros, 0x-hex.
 */
export function cosmosRecipientBytes32(address: string): string {
  const bytes = bech32.fromWords(bech32.decode(address as `${string}1${string}`).words);
  if (bytes.length !== 20) throw new Error(`${address} is not a 20-byte Cosmos account`);
  return `0x${Buffer.from(bytes).toString('hex').padStart(64, '0')}`;
}

/** The Cosmos account of `prefix` a 32-byte recipient names, or undefined when it names no 20-byte account. */
export function cosmosAccountOfBytes32(prefix: string, recipient: string | Uint8Array): string | undefined {
  const bytes =
    typeof recipient === 'string' ? Buffer.from(recipient.replace(/^0x/, ''), 'hex') : Buffer.from(recipient);
  if (bytes.length !== 32 || bytes.subarray(0, 12).some((b) => b !== 0)) return undefined;
  return bech32.encode(prefix, bech32.toWords(bytes.subarray(12)));
}

/**
 * The MsgDepositForBurn of a bridge leg from Noble: `amount` of `burnToken` burnt by `from`, minted
 * on the chain the bridge knows by `destinationBridgeChainId` (as its CCTP domain) to `recipient`
 * (0x-hex: a 20-byte address or 32 bytes, as the destination family's bridge payout writes it).
 */
export function depositForBurnMsg(input: {
  from: string;
  amount: bigint;
  destinationBridgeChainId: number;
  recipient: string;
  burnToken: string;
}): CosmosMsgJson {
  const value: MsgDepositForBurnJson = {
    from: input.from,
    amount: input.amount.toString(),
    destinationDomain: cctpDomainOfBridgeChain(input.destinationBridgeChainId),
    mintRecipient: base64.encode(mintRecipientBytes(input.recipient)),
    burnToken: input.burnToken,
  };
  return { typeUrl: MSG_DEPOSIT_FOR_BURN_TYPE_URL, value: { ...value } };
}

/** A burn as Noble's `circle.cctp.v1.DepositForBurn` event in a committed tx tells it. */
export interface CctpBurnSeen {
  /** CCTP's nonce of the burn on Noble (decimal). */
  nonce: string;
  destinationDomain: number;
  amount: string;
  /** The mint recipient, 32 bytes as base64 (as the event writes it). */
  mintRecipient: string;
}

/**
 * The burn a committed, successful tx made on Noble (its typed `circle.cctp.v1.DepositForBurn`
 * event, attribute values JSON as the SDK's EmitTypedEvent writes them), or undefined: a tx that
 * failed or burnt nothing.
 */
export function cctpBurnOf(tx: {
  tx_result: { code: number; events?: { type: string; attributes: { key: string; value: string }[] }[] };
}): CctpBurnSeen | undefined {
  if (tx.tx_result.code !== 0) return undefined;
  const event = (tx.tx_result.events ?? []).find((each) => each.type === DEPOSIT_FOR_BURN_EVENT);
  if (!event) return undefined;
  const value = (key: string): unknown => {
    const attribute = event.attributes.find((each) => each.key === key);
    if (attribute === undefined) return undefined;
    try {
      return JSON.parse(attribute.value) as unknown;
    } catch {
      return attribute.value;
    }
  };
  const nonce = value('nonce');
  const domain = value('destination_domain');
  const amount = value('amount');
  const mintRecipient = value('mint_recipient');
  if (typeof nonce !== 'string' || !/^\d+$/.test(nonce)) return undefined;
  if (typeof domain !== 'number' || typeof amount !== 'string' || typeof mintRecipient !== 'string')
    return undefined;
  return { nonce, destinationDomain: domain, amount, mintRecipient };
}
