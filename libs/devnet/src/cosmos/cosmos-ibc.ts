import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import { MsgTransfer, MsgTransferResponse } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { MsgAcknowledgement, MsgRecvPacket, MsgTimeout } from 'cosmjs-types/ibc/core/channel/v1/tx';
import { TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { CosmosChain, RelayerTxContext } from './cosmos-chain';
import {
  COSMOS_DEVNET_CHANNELS,
  COSMOS_MAINNET_CHANNELS,
  CosmosChainSpec,
  CosmosNetwork,
} from './cosmos-chain-spec';
import { asCosmosTxError, CosmosTxError } from './cosmos-errors';
import { addressBytes } from './cosmos-keys';
import {
  checkAddress,
  CosmosMessageHandler,
  parseCoins,
  transferEvents,
  TxEvent,
  messageEvent,
} from './cosmos-messages';
import type { Coin, CosmosState } from './cosmos-state';

/**
 * ICS-20 fungible token transfer between the devnet's chains, as ibc-go (v10) runs it: channels on
 * port `transfer` (unordered, ics20-1), `MsgTransfer` escrowing a native denom or burning a voucher,
 * packets committed with a sequence and a timeout, and the devnet's relayer (`IbcRelayer`) delivering
 * them: a voucher `ibc/<SHA-256 of "transfer/<channel>/<denom>">` minted on the destination (or the
 * escrow released when the token goes home), the acknowledgement back, and a refund on the source
 * for an error acknowledgement or a timeout. No light clients or proofs: the relayer is trusted.
 * Each chain's middleware (`TransferMiddleware`: packet-forward-middleware, ibc-hooks) sees a packet
 * before the transfer app, and may answer its acknowledgement later (async).
 */

export const TRANSFER_PORT = 'transfer';
export const ICS20_VERSION = 'ics20-1';

/**
 * Every channel of every network the chains run as (the devnet's and the mainnet replica's,
 * cosmos-chain-spec.ts), by chain id, unique across them: where a chain's IBC module looks a channel up.
 */
export const IBC_CHANNELS: CosmosNetwork['channels'] = {
  ...COSMOS_DEVNET_CHANNELS,
  ...COSMOS_MAINNET_CHANNELS,
};

/** Gas of a MsgTransfer beyond the ante handler's: the escrow or burn and the packet commitment. */
export const MSG_TRANSFER_GAS = 60_000;

export interface IbcChannelEnd {
  chainId: string;
  channel: string;
  connection: string;
  counterpartyChainId: string;
  counterpartyChannel: string;
}

/** The channel `channel` of `chainId`, with its counterparty's end; undefined when there is none. */
export function ibcChannel(chainId: string, channel: string): IbcChannelEnd | undefined {
  const entry = Object.entries(IBC_CHANNELS[chainId] ?? {}).find(([, id]) => id === channel);
  if (!entry) return undefined;
  const [counterpartyChainId] = entry;
  return {
    chainId,
    channel,
    connection: channel.replace('channel-', 'connection-'),
    counterpartyChainId,
    counterpartyChannel: IBC_CHANNELS[counterpartyChainId][chainId],
  };
}

/** The voucher denom of a full denom path: `ibc/` + uppercase hex SHA-256 of the path. */
export function ibcDenom(path: string): string {
  return `ibc/${ibcHash(path)}`;
}

function ibcHash(path: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(path))).toUpperCase();
}

/** ibc-go's GetEscrowAddress: the first 20 bytes of SHA-256("ics20-1\0transfer/<channel>"). */
export function escrowAddress(prefix: string, channel: string): string {
  const preimage = new TextEncoder().encode(`${ICS20_VERSION}\0${TRANSFER_PORT}/${channel}`);
  return bech32.encode(prefix, bech32.toWords(sha256(preimage).subarray(0, 20)));
}

/** A denom's trace: `path` the port/channel hops, `baseDenom` the origin denom. */
export interface DenomTrace {
  path: string;
  baseDenom: string;
}

/** The trace of a full denom path `transfer/channel-0/uatom` (base denoms may hold slashes too). */
export function parseDenomPath(fullPath: string): DenomTrace {
  const parts = fullPath.split('/');
  let hops = 0;
  while (hops + 1 < parts.length && parts[hops] === TRANSFER_PORT && /^channel-\d+$/.test(parts[hops + 1])) {
    hops += 2;
  }
  return { path: parts.slice(0, hops).join('/'), baseDenom: parts.slice(hops).join('/') };
}

/** The denom trace a voucher `ibc/<hash>` (or `<hash>`) of this chain stands for. */
export function denomTrace(state: CosmosState, hash: string): DenomTrace | undefined {
  const fullPath = state.get(`ibc/trace/${hash.replace(/^ibc\//, '').toUpperCase()}`);
  return fullPath === undefined ? undefined : parseDenomPath(fullPath);
}

/** Records the trace of the voucher of `fullPath` (what receiving it first does). */
export function recordDenomTrace(state: CosmosState, fullPath: string): void {
  state.set(key.trace(ibcHash(fullPath)), fullPath);
}

/** ICS-20 FungibleTokenPacketData, as its JSON (sorted keys, memo omitted when empty). */
export interface TransferPacketData {
  amount: string;
  denom: string;
  memo?: string;
  receiver: string;
  sender: string;
}

/** A packet as the source chain commits it (bigints as decimal strings, data as its JSON text). */
export interface StoredPacket {
  sequence: string;
  sourceChannel: string;
  destinationChannel: string;
  data: string;
  timeoutHeight: string;
  timeoutTimestamp: string;
}

const key = {
  nextSequence: (channel: string) => `ibc/nextSequenceSend/${channel}`,
  commitment: (channel: string, sequence: string) => `ibc/commitments/${channel}/${sequence}`,
  receipt: (channel: string, sequence: string) => `ibc/receipts/${channel}/${sequence}`,
  ack: (channel: string, sequence: string) => `ibc/acks/${channel}/${sequence}`,
  trace: (hash: string) => `ibc/trace/${hash}`,
};

/** What MsgTransfer knows of the counterparty: its latest height and block time (its light client). */
export type CounterpartyView = (chainId: string) => { height: number; time: Date } | undefined;

/** `ibc.applications.transfer.v1.MsgTransfer`, bound to the view of the counterparties it times out against. */
export function msgTransferHandler(counterparty: CounterpartyView): CosmosMessageHandler<MsgTransfer> {
  return {
    typeUrl: '/ibc.applications.transfer.v1.MsgTransfer',
    aminoType: 'cosmos-sdk/MsgTransfer',
    decode: (bytes) => MsgTransfer.decode(bytes),
    signers: (msg) => [msg.sender],
    validate(msg, spec) {
      checkAddress(spec, msg.sender, 'sender');
      if (msg.receiver.trim() === '') throw new CosmosTxError('invalidAddress', 'missing recipient address');
      if (!/^channel-\d+$/.test(msg.sourceChannel)) {
        throw new CosmosTxError('invalidRequest', `invalid source channel ID ${msg.sourceChannel}`);
      }
      if (!msg.token) throw new CosmosTxError('invalidCoins', 'missing token');
      parseCoins([msg.token], false);
    },
    gas: () => MSG_TRANSFER_GAS,
    execute(msg, ctx) {
      const end = ibcChannel(ctx.spec.id, msg.sourceChannel);
      if (msg.sourcePort !== TRANSFER_PORT || !end) {
        throw new CosmosTxError(
          'channelNotFound',
          `port ID (${msg.sourcePort}) channel ID (${msg.sourceChannel})`,
        );
      }
      const [token] = parseCoins([msg.token], false);
      fullDenomPath(ctx.state, token.denom);
      checkTimeout(msg, end, counterparty);
      const packet = sendTransfer(ctx, end, {
        sender: msg.sender,
        receiver: msg.receiver,
        token,
        memo: msg.memo,
        timeoutHeight: msg.timeoutHeight.revisionHeight,
        timeoutTimestamp: msg.timeoutTimestamp,
      });
      ctx.events.push(messageEvent('/ibc.applications.transfer.v1.MsgTransfer', msg.sender, 'transfer'));
      const sequence = BigInt(packet.sequence);
      return {
        typeUrl: '/ibc.applications.transfer.v1.MsgTransferResponse',
        value: MsgTransferResponse.encode({ sequence }).finish(),
      };
    },
    toJson: (msg) => ({
      ...transferJsonHead(msg),
      timeout_height: {
        revision_number: msg.timeoutHeight.revisionNumber.toString(),
        revision_height: msg.timeoutHeight.revisionHeight.toString(),
      },
      timeout_timestamp: msg.timeoutTimestamp.toString(),
      memo: msg.memo,
      encoding: msg.encoding,
    }),
    // The amino JSON of ibc-go (and cosmjs's converter): zero fields omitted, timeout_height kept.
    toAmino: (msg) => ({
      ...transferJsonHead(msg),
      timeout_height: {
        ...(msg.timeoutHeight.revisionHeight
          ? { revision_height: msg.timeoutHeight.revisionHeight.toString() }
          : {}),
        ...(msg.timeoutHeight.revisionNumber
          ? { revision_number: msg.timeoutHeight.revisionNumber.toString() }
          : {}),
      },
      ...(msg.timeoutTimestamp ? { timeout_timestamp: msg.timeoutTimestamp.toString() } : {}),
      ...(msg.memo ? { memo: msg.memo } : {}),
    }),
  };
}

/** What a transfer sends: MsgTransfer's fields once validated (the timeouts as the packet carries them). */
export interface TransferRequest {
  sender: string;
  receiver: string;
  token: Coin;
  memo: string;
  timeoutHeight: bigint;
  timeoutTimestamp: bigint;
}

/** Where the transfer app runs: a tx's or a relayer tx's state and events, on a chain. */
export interface IbcAppContext {
  state: CosmosState;
  spec: CosmosChainSpec;
  events: TxEvent[];
}

/**
 * The transfer keeper's sendTransfer and SendPacket: the token escrowed (or its voucher burnt), the
 * packet committed with the channel's next sequence. What MsgTransfer runs, and what a middleware
 * (packet-forward-middleware, a contract) runs to send tokens on from a chain they arrived on.
 */
export function sendTransfer(ctx: IbcAppContext, end: IbcChannelEnd, request: TransferRequest): StoredPacket {
  const { state } = ctx;
  const { sender, token } = request;
  const fullPath = fullDenomPath(state, token.denom);
  const sequence = BigInt(state.get(key.nextSequence(end.channel)) ?? '1');
  if (senderChainIsSource(end.channel, fullPath)) {
    const escrow = escrowAddress(ctx.spec.bech32Prefix, end.channel);
    state.send(sender, escrow, [token]);
    ctx.events.push(...transferEvents(sender, escrow, [token]).slice(0, 3));
  } else {
    state.burn(sender, [token]);
    ctx.events.push(burnEvent(sender, token));
  }
  const data: TransferPacketData = {
    amount: token.amount.toString(),
    denom: fullPath,
    ...(request.memo ? { memo: request.memo } : {}),
    receiver: request.receiver,
    sender,
  };
  const packet: StoredPacket = {
    sequence: sequence.toString(),
    sourceChannel: end.channel,
    destinationChannel: end.counterpartyChannel,
    data: JSON.stringify(data),
    timeoutHeight: request.timeoutHeight.toString(),
    timeoutTimestamp: request.timeoutTimestamp.toString(),
  };
  state.set(key.nextSequence(end.channel), (sequence + 1n).toString());
  state.set(key.commitment(end.channel, packet.sequence), JSON.stringify(packet));
  ctx.events.push(packetEvent('send_packet', packet, end), {
    type: 'ibc_transfer',
    attributes: [
      { key: 'sender', value: sender },
      { key: 'receiver', value: request.receiver },
      { key: 'amount', value: data.amount },
      { key: 'denom', value: fullPath },
      { key: 'memo', value: request.memo },
    ],
  });
  return packet;
}

/** The fields MsgTransfer's proto JSON and amino JSON write alike. */
function transferJsonHead(msg: MsgTransfer): Record<string, unknown> {
  return {
    source_port: msg.sourcePort,
    source_channel: msg.sourceChannel,
    token: { denom: msg.token.denom, amount: msg.token.amount },
    sender: msg.sender,
    receiver: msg.receiver,
  };
}

/** The full path of a denom held here: a voucher's trace, a native denom itself. */
export function fullDenomPath(state: CosmosState, denom: string): string {
  if (!denom.startsWith('ibc/')) return denom;
  const hash = denom.slice(4);
  const path = state.get(key.trace(hash.toUpperCase()));
  if (path === undefined) throw new CosmosTxError('traceNotFound', hash);
  return path;
}

/** ibc-go's SenderChainIsSource: the denom did not arrive through this channel. */
export function senderChainIsSource(channel: string, fullPath: string): boolean {
  return !fullPath.startsWith(`${TRANSFER_PORT}/${channel}/`);
}

/** SendPacket's checks against the counterparty's latest height and time, as its light client has them. */
function checkTimeout(msg: MsgTransfer, end: IbcChannelEnd, counterparty: CounterpartyView): void {
  const height = msg.timeoutHeight.revisionHeight;
  if (height === 0n && msg.timeoutTimestamp === 0n) {
    throw new CosmosTxError(
      'invalidPacket',
      'packet timeout height and packet timeout timestamp cannot both be 0',
    );
  }
  const latest = counterparty(end.counterpartyChainId);
  if (!latest) return;
  if (height > 0n && BigInt(latest.height) >= height) {
    throw new CosmosTxError(
      'packetTimeout',
      `receiving chain block height >= packet timeout height (0-${latest.height} >= 0-${height})`,
    );
  }
  const latestNs = BigInt(latest.time.getTime()) * 1_000_000n;
  if (msg.timeoutTimestamp > 0n && latestNs >= msg.timeoutTimestamp) {
    throw new CosmosTxError(
      'packetTimeout',
      `receiving chain block timestamp >= packet timeout timestamp (${latestNs} >= ${msg.timeoutTimestamp})`,
    );
  }
}

function burnEvent(burner: string, coin: Coin): TxEvent {
  return {
    type: 'burn',
    attributes: [
      { key: 'burner', value: burner },
      { key: 'amount', value: `${coin.amount}${coin.denom}` },
    ],
  };
}

/** The packet attributes ibc-go's core emits on send_packet, recv_packet, … (ibc-go v8+ names). */
function packetEvent(
  type: string,
  packet: StoredPacket,
  end: IbcChannelEnd,
  extra: TxEvent['attributes'] = [],
) {
  const withData = type === 'send_packet' || type === 'recv_packet' || type === 'write_acknowledgement';
  const attributes = [
    ...(withData
      ? [
          { key: 'packet_data', value: packet.data },
          { key: 'packet_data_hex', value: Buffer.from(packet.data).toString('hex') },
        ]
      : []),
    { key: 'packet_timeout_height', value: `0-${packet.timeoutHeight}` },
    { key: 'packet_timeout_timestamp', value: packet.timeoutTimestamp },
    { key: 'packet_sequence', value: packet.sequence },
    { key: 'packet_src_port', value: TRANSFER_PORT },
    { key: 'packet_src_channel', value: packet.sourceChannel },
    { key: 'packet_dst_port', value: TRANSFER_PORT },
    { key: 'packet_dst_channel', value: packet.destinationChannel },
    { key: 'packet_channel_ordering', value: 'ORDER_UNORDERED' },
    { key: 'packet_connection', value: end.connection },
    { key: 'connection_id', value: end.connection },
    ...extra,
  ];
  return { type, attributes };
}

/** The transfer module's fungible_token_packet attributes naming the packet's data. */
function packetDataAttributes(data: TransferPacketData): TxEvent['attributes'] {
  return [
    { key: 'module', value: TRANSFER_PORT },
    { key: 'sender', value: data.sender },
    { key: 'receiver', value: data.receiver },
    { key: 'denom', value: data.denom },
    { key: 'amount', value: data.amount },
    { key: 'memo', value: data.memo ?? '' },
  ];
}

/** ibc-go's acknowledgements: `{"result":"AQ=="}`, or the deterministic error text. */
export const SUCCESS_ACK = JSON.stringify({ result: 'AQ==' });
export function errorAck(error: CosmosTxError): string {
  return JSON.stringify({ error: `ABCI code: ${error.code}: error handling packet: see events for details` });
}

export function isErrorAck(ack: string): boolean {
  return 'error' in (JSON.parse(ack) as Record<string, unknown>);
}

/** The local denom of a full path on the chain holding it: the path itself when native, else its voucher. */
export function localDenom(fullPath: string): string {
  return parseDenomPath(fullPath).path === '' ? fullPath : ibcDenom(fullPath);
}

/** A chain's context when IBC core runs the transfer stack (a relayer tx in its block). */
export interface IbcHostContext extends IbcAppContext {
  blockTime: Date;
  height: number;
}

/** What the transfer stack answers a received packet: an acknowledgement now, or one written later (async). */
export type RecvOutcome = { ack: string } | { async: true };

/** The packet being received and the channel end it arrived on. */
export interface ReceivedPacket {
  packet: StoredPacket;
  end: IbcChannelEnd;
}

/**
 * An ICS-20 middleware around the transfer app, as a chain's transfer stack wraps it
 * (packet-forward-middleware, ibc-hooks): it sees a received packet first and handles it when its
 * memo names it, else passes it down; and it sees the acknowledgement or timeout of the packets the
 * chain sent, and may settle one itself instead of the transfer app's refund.
 */
export interface TransferMiddleware {
  onRecvPacket(
    ctx: IbcHostContext,
    received: ReceivedPacket,
    data: TransferPacketData,
    next: (data: TransferPacketData) => RecvOutcome,
  ): RecvOutcome;
  /** True when it settled the packet (the transfer app then refunds nothing). */
  onPacketSettled?: PacketSettledHook;
}

/**
 * Told that a packet the chain sent was acknowledged or timed out; true when it settled the packet
 * itself (the transfer app then refunds nothing). Middleware and ibc-hooks' contracts both have one.
 */
export type PacketSettledHook = (
  ctx: IbcHostContext,
  packet: StoredPacket,
  data: TransferPacketData,
  outcome: { ack: string } | { timeout: true },
) => boolean;

/** The local denom a received packet credits on the destination (ibc-hooks' ExtractDenomFromPacketOnRecv). */
export function receivedDenom(packet: StoredPacket, data: TransferPacketData): string {
  const sourcePrefix = `${TRANSFER_PORT}/${packet.sourceChannel}/`;
  return data.denom.startsWith(sourcePrefix)
    ? localDenom(data.denom.slice(sourcePrefix.length))
    : ibcDenom(`${TRANSFER_PORT}/${packet.destinationChannel}/${data.denom}`);
}

/** WriteAcknowledgement: the ack of a received packet stored for the relayer, now or (async) later. */
export function writeAcknowledgement(ctx: IbcAppContext, received: ReceivedPacket, ack: string): void {
  const { packet, end } = received;
  ctx.state.set(key.ack(end.channel, packet.sequence), JSON.stringify({ packet, ack }));
  ctx.events.push(
    packetEvent('write_acknowledgement', packet, end, [
      { key: 'packet_ack', value: ack },
      { key: 'packet_ack_hex', value: Buffer.from(ack).toString('hex') },
    ]),
  );
}

/**
 * RecvPacket on the destination, in its block: the receipt, OnRecvPacket through the chain's
 * middleware to the transfer app, the acknowledgement written unless the stack answers it later.
 * As ibc-go's core, the application's state changes are kept only with a success (or async) answer.
 */
function recvPacket(
  ctx: RelayerTxContext,
  spec: CosmosChainSpec,
  packet: StoredPacket,
  end: IbcChannelEnd,
  middleware: readonly TransferMiddleware[],
): void {
  const { state } = ctx;
  if (state.get(key.receipt(end.channel, packet.sequence)) !== undefined) {
    throw new CosmosTxError('packetReceived', `sequence ${packet.sequence}`);
  }
  const timeoutHeight = BigInt(packet.timeoutHeight);
  if (timeoutHeight > 0n && BigInt(ctx.height) >= timeoutHeight) {
    throw new CosmosTxError(
      'packetTimeout',
      `block height >= packet timeout height (0-${ctx.height} >= 0-${timeoutHeight})`,
    );
  }
  const nowNs = BigInt(ctx.blockTime.getTime()) * 1_000_000n;
  const timeoutNs = BigInt(packet.timeoutTimestamp);
  if (timeoutNs > 0n && nowNs >= timeoutNs) {
    throw new CosmosTxError(
      'packetTimeout',
      `block timestamp >= packet timeout timestamp (${nowNs} >= ${timeoutNs})`,
    );
  }
  state.set(key.receipt(end.channel, packet.sequence), '1');
  ctx.events.push(packetEvent('recv_packet', packet, end));
  const data = JSON.parse(packet.data) as TransferPacketData;
  const appEvents: TxEvent[] = [];
  const branch = state.branch();
  const app: IbcHostContext = { ...ctx, state: branch, spec, events: appEvents };
  const received = { packet, end };
  const transferApp = (d: TransferPacketData): RecvOutcome => {
    onRecvPacket(branch, spec, packet, d, appEvents);
    return { ack: SUCCESS_ACK };
  };
  const stack = middleware.reduceRight<(d: TransferPacketData) => RecvOutcome>(
    (next, layer) => (d) => layer.onRecvPacket(app, received, d, next),
    transferApp,
  );
  let outcome: RecvOutcome;
  let failure: string | undefined;
  try {
    outcome = stack(data);
    if ('ack' in outcome && isErrorAck(outcome.ack))
      failure = (JSON.parse(outcome.ack) as { error: string }).error;
  } catch (error) {
    const refused = asCosmosTxError(error);
    failure = refused.message;
    outcome = { ack: errorAck(refused) };
  }
  if (failure === undefined) state.replaceWith(branch);
  ctx.events.push(...(failure === undefined ? appEvents : []), {
    type: 'fungible_token_packet',
    attributes: [
      ...packetDataAttributes(data),
      { key: 'success', value: failure === undefined ? 'true' : 'false' },
      ...(failure === undefined ? [] : [{ key: 'error', value: failure }]),
    ],
  });
  if ('ack' in outcome) writeAcknowledgement({ state, spec, events: ctx.events }, received, outcome.ack);
}

/** The transfer module's OnRecvPacket: unescrow a token coming home, else mint its voucher. */
function onRecvPacket(
  state: CosmosState,
  spec: CosmosChainSpec,
  packet: StoredPacket,
  data: TransferPacketData,
  events: TxEvent[],
): void {
  if (!addressBytes(spec.bech32Prefix, data.receiver)) {
    throw new CosmosTxError('invalidAddress', `failed to decode receiver address ${data.receiver}`);
  }
  if (!/^[1-9][0-9]*$/.test(data.amount))
    throw new CosmosTxError('invalidCoins', `invalid amount ${data.amount}`);
  const amount = BigInt(data.amount);
  const sourcePrefix = `${TRANSFER_PORT}/${packet.sourceChannel}/`;
  if (data.denom.startsWith(sourcePrefix)) {
    // The token returns to the chain it was escrowed on.
    const denom = localDenom(data.denom.slice(sourcePrefix.length));
    const escrow = escrowAddress(spec.bech32Prefix, packet.destinationChannel);
    state.send(escrow, data.receiver, [{ denom, amount }]);
    events.push(...transferEvents(escrow, data.receiver, [{ denom, amount }]).slice(0, 3));
    return;
  }
  const fullPath = `${TRANSFER_PORT}/${packet.destinationChannel}/${data.denom}`;
  const hash = ibcHash(fullPath);
  state.set(key.trace(hash), fullPath);
  state.mint(data.receiver, [{ denom: `ibc/${hash}`, amount }]);
  events.push(
    {
      type: 'denomination',
      attributes: [
        { key: 'trace_hash', value: hash },
        { key: 'denom', value: `ibc/${hash}` },
      ],
    },
    {
      type: 'coinbase',
      attributes: [
        { key: 'minter', value: data.receiver },
        { key: 'amount', value: `${amount}ibc/${hash}` },
      ],
    },
  );
}

/** The source gives the tokens of an unsuccessful packet back to its sender. */
export function refund(
  state: CosmosState,
  spec: CosmosChainSpec,
  packet: StoredPacket,
  data: TransferPacketData,
): void {
  const coin = { denom: localDenom(data.denom), amount: BigInt(data.amount) };
  if (senderChainIsSource(packet.sourceChannel, data.denom)) {
    state.send(escrowAddress(spec.bech32Prefix, packet.sourceChannel), data.sender, [coin]);
  } else {
    state.mint(data.sender, [coin]);
  }
}

function takeCommitment(state: CosmosState, packet: StoredPacket): void {
  const commitment = key.commitment(packet.sourceChannel, packet.sequence);
  if (state.get(commitment) === undefined) {
    throw new CosmosTxError('packetCommitmentNotFound', `sequence ${packet.sequence}`);
  }
  state.set(commitment, undefined);
}

/** Whether one of the chain's middleware settles this packet of its own (a forward it tracks). */
function settledByMiddleware(
  ctx: RelayerTxContext,
  spec: CosmosChainSpec,
  middleware: readonly TransferMiddleware[],
  packet: StoredPacket,
  data: TransferPacketData,
  outcome: { ack: string } | { timeout: true },
): boolean {
  const host: IbcHostContext = { ...ctx, spec };
  return middleware.some((layer) => layer.onPacketSettled?.(host, packet, data, outcome) ?? false);
}

function acknowledgePacket(
  ctx: RelayerTxContext,
  spec: CosmosChainSpec,
  packet: StoredPacket,
  ack: string,
  end: IbcChannelEnd,
  middleware: readonly TransferMiddleware[],
): void {
  takeCommitment(ctx.state, packet);
  const data = JSON.parse(packet.data) as TransferPacketData;
  const failed = isErrorAck(ack);
  const settled = settledByMiddleware(ctx, spec, middleware, packet, data, { ack });
  if (failed && !settled) refund(ctx.state, spec, packet, data);
  ctx.events.push(packetEvent('acknowledge_packet', packet, end), {
    type: 'fungible_token_packet',
    attributes: [
      ...packetDataAttributes(data),
      { key: 'acknowledgement', value: ack },
      failed
        ? { key: 'error', value: (JSON.parse(ack) as { error: string }).error }
        : { key: 'success', value: '\u0001' },
    ],
  });
}

function timeoutPacket(
  ctx: RelayerTxContext,
  spec: CosmosChainSpec,
  packet: StoredPacket,
  end: IbcChannelEnd,
  middleware: readonly TransferMiddleware[],
): void {
  takeCommitment(ctx.state, packet);
  const data = JSON.parse(packet.data) as TransferPacketData;
  if (!settledByMiddleware(ctx, spec, middleware, packet, data, { timeout: true })) {
    refund(ctx.state, spec, packet, data);
  }
  ctx.events.push(packetEvent('timeout_packet', packet, end), {
    type: 'timeout',
    attributes: [
      { key: 'module', value: TRANSFER_PORT },
      { key: 'refund_receiver', value: data.sender },
      { key: 'refund_denom', value: data.denom },
      { key: 'refund_amount', value: data.amount },
      { key: 'memo', value: data.memo ?? '' },
    ],
  });
}

function packetProto(packet: StoredPacket) {
  return Packet.fromPartial({
    sequence: BigInt(packet.sequence),
    sourcePort: TRANSFER_PORT,
    sourceChannel: packet.sourceChannel,
    destinationPort: TRANSFER_PORT,
    destinationChannel: packet.destinationChannel,
    data: new TextEncoder().encode(packet.data),
    timeoutHeight: { revisionNumber: 0n, revisionHeight: BigInt(packet.timeoutHeight) },
    timeoutTimestamp: BigInt(packet.timeoutTimestamp),
  });
}

/** A relayer's tx as it would sign it (no signature: the devnet's relayer is trusted). */
function relayerTx(typeUrl: string, value: Uint8Array): Uint8Array {
  return TxRaw.encode({
    bodyBytes: TxBody.encode(
      TxBody.fromPartial({ messages: [{ typeUrl, value }], memo: 'swapgw devnet relayer' }),
    ).finish(),
    authInfoBytes: new Uint8Array(),
    signatures: [],
  }).finish();
}

/**
 * The devnet's relayer (Hermes' job, in process): after each round of blocks it relays every packet
 * committed on one chain to its counterparty (MsgRecvPacket, in the destination's next block), each
 * acknowledgement written there back to the source (MsgAcknowledgement), and a packet the
 * destination has passed the timeout of without receiving it back to the source as a timeout
 * (MsgTimeout). `stop()` models a relayer down: packets wait, and may time out.
 */
export class IbcRelayer {
  private readonly chains: Map<string, CosmosChain>;
  /** Relayer txs submitted and not yet seen executed: `<chain>/<store key>` → the chain's height then. */
  private readonly pending = new Map<string, number>();
  private running = true;
  readonly address: Record<string, string>;

  /**
   * `middleware`: per chain id, its transfer stack's middleware around the transfer app, outermost
   * first (what IBC core calls on each packet event it relays there).
   */
  constructor(
    chains: CosmosChain[],
    private readonly middleware: Readonly<Record<string, readonly TransferMiddleware[]>> = {},
  ) {
    this.chains = new Map(chains.map((c) => [c.spec.id, c]));
    this.address = Object.fromEntries(
      chains.map((c) => [
        c.spec.id,
        bech32.encode(
          c.spec.bech32Prefix,
          bech32.toWords(sha256(new TextEncoder().encode('relayer')).subarray(0, 20)),
        ),
      ]),
    );
  }

  stop(): void {
    this.running = false;
  }

  start(): void {
    this.running = true;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** One relaying pass over every chain's committed state; what it submits lands in the next blocks. */
  tick(): void {
    if (!this.running) return;
    for (const source of this.chains.values()) {
      for (const [commitmentKey, json] of source.queryState.entries('ibc/commitments/')) {
        const packet = JSON.parse(json) as StoredPacket;
        const end = ibcChannel(source.spec.id, packet.sourceChannel);
        const destination = end && this.chains.get(end.counterpartyChainId);
        const destEnd = destination && ibcChannel(destination.spec.id, end.counterpartyChannel);
        if (!end || !destination || !destEnd) continue;
        const ackJson = destination.queryState.get(key.ack(destEnd.channel, packet.sequence));
        if (ackJson !== undefined) {
          const { ack } = JSON.parse(ackJson) as { ack: string };
          this.submit(
            source,
            commitmentKey,
            MsgAcknowledgement.typeUrl,
            () =>
              MsgAcknowledgement.encode({
                packet: packetProto(packet),
                acknowledgement: new TextEncoder().encode(ack),
                proofAcked: new Uint8Array(),
                proofHeight: { revisionNumber: 0n, revisionHeight: BigInt(destination.height) },
                signer: this.address[source.spec.id],
              }).finish(),
            (ctx) => acknowledgePacket(ctx, source.spec, packet, ack, end, this.stackOf(source)),
          );
        } else if (destination.queryState.get(key.receipt(destEnd.channel, packet.sequence)) !== undefined) {
          // Received, its acknowledgement not written yet (a forward in flight): nothing to relay, and
          // no timeout can be proven against a receipt.
          continue;
        } else if (this.timedOut(destination, packet)) {
          this.submit(
            source,
            commitmentKey,
            MsgTimeout.typeUrl,
            () =>
              MsgTimeout.encode({
                packet: packetProto(packet),
                proofUnreceived: new Uint8Array(),
                proofHeight: { revisionNumber: 0n, revisionHeight: BigInt(destination.height) },
                nextSequenceRecv: 0n,
                signer: this.address[source.spec.id],
              }).finish(),
            (ctx) => timeoutPacket(ctx, source.spec, packet, end, this.stackOf(source)),
          );
        } else {
          this.submit(
            destination,
            `recv/${source.spec.id}/${commitmentKey}`,
            MsgRecvPacket.typeUrl,
            () =>
              MsgRecvPacket.encode({
                packet: packetProto(packet),
                proofCommitment: new Uint8Array(),
                proofHeight: { revisionNumber: 0n, revisionHeight: BigInt(source.height) },
                signer: this.address[destination.spec.id],
              }).finish(),
            (ctx) => recvPacket(ctx, destination.spec, packet, destEnd, this.stackOf(destination)),
          );
        }
      }
    }
  }

  private stackOf(chain: CosmosChain): readonly TransferMiddleware[] {
    return this.middleware[chain.spec.id] ?? [];
  }

  /** Whether the destination's latest block is past the packet's timeout (it can no longer receive it). */
  private timedOut(destination: CosmosChain, packet: StoredPacket): boolean {
    const latest = destination.latestBlock;
    if (!latest) return false;
    const height = BigInt(packet.timeoutHeight);
    const timestamp = BigInt(packet.timeoutTimestamp);
    return (
      (height > 0n && BigInt(latest.height) >= height) ||
      (timestamp > 0n && BigInt(latest.time.getTime()) * 1_000_000n >= timestamp)
    );
  }

  /** Submits a relayer tx once: again only if the chain has made a block since without it taking effect. */
  private submit(
    chain: CosmosChain,
    id: string,
    typeUrl: string,
    encode: () => Uint8Array,
    run: (ctx: RelayerTxContext) => void,
  ): void {
    const pendingId = `${chain.spec.id}/${typeUrl}/${id}`;
    const submittedAt = this.pending.get(pendingId);
    if (submittedAt !== undefined && chain.height <= submittedAt + 1) return;
    this.pending.set(pendingId, chain.height);
    chain.submitRelayerTx(relayerTx(typeUrl, encode()), run);
  }
}
