import { bech32 } from '@scure/base';
import { asCosmosTxError, CosmosTxError } from './cosmos-errors';
import {
  escrowAddress,
  ibcChannel,
  IbcHostContext,
  isErrorAck,
  localDenom,
  ReceivedPacket,
  receivedDenom,
  RecvOutcome,
  refund,
  sendTransfer,
  senderChainIsSource,
  StoredPacket,
  SUCCESS_ACK,
  TRANSFER_PORT,
  TransferMiddleware,
  TransferPacketData,
  TransferRequest,
  writeAcknowledgement,
} from './cosmos-ibc';
import { sdkAddressHash } from './cosmos-keys';
import type { CosmosState } from './cosmos-state';

/**
 * strangelove-ventures/packet-forward-middleware (v8, as the Hub, Osmosis and Noble run it) on the
 * devnet's chains: a packet whose memo is `{"forward":{"receiver","port","channel","timeout",
 * "retries","next"}}` is received to an intermediate address derived from the channel it arrived on
 * and the original sender (so nobody can route funds through someone else's account), then sent on over
 * `channel` to `receiver` with `next` as the new packet's memo (a further hop). The first packet's
 * acknowledgement waits for the forward's: success is written as success; an error acknowledgement,
 * or a timeout with no retries left, undoes the forward and the receive on this chain and writes an
 * error acknowledgement, so the chain before refunds its sender (hop by hop back to the origin).
 */

/** The module name PFM derives its intermediate addresses from (its own spelling, typo included). */
export const PFM_MODULE_NAME = 'packetfowardmiddleware';
/** ibc-go's DefaultRelativePacketTimeoutTimestamp: PFM's forward timeout when the memo names none. */
export const PFM_DEFAULT_TIMEOUT_NS = 10n * 60n * 1_000_000_000n;
/** Retries on timeout when the memo names none (the app's `retriesOnTimeout`; the chains here set 0). */
export const PFM_DEFAULT_RETRIES = 0;

/** The forward metadata of a memo, as PFM's ForwardMetadata unmarshals it. */
export interface ForwardMetadata {
  receiver: string;
  port: string;
  channel: string;
  /** Nanoseconds. */
  timeout: bigint;
  retries: number;
  /** The next hop's memo, as the forwarded packet carries it (a JSON text). */
  next: string;
}

/** A forward waiting for its acknowledgement: the packet it came in with, and how to retry it. */
interface InFlightForward {
  received: ReceivedPacket;
  request: { sender: string; receiver: string; denom: string; amount: string; memo: string };
  timeoutNs: string;
  retriesLeft: number;
}

const inFlightKey = (channel: string, sequence: string) => `pfm/inflight/${channel}/${sequence}`;

/**
 * PFM's GetReceiver: the first 20 bytes of address.Hash(module, "<arrival channel>/<original sender>"),
 * the channel being the packet's destination channel on this chain.
 */
export function pfmIntermediateReceiver(
  prefix: string,
  arrivalChannel: string,
  originalSender: string,
): string {
  const hash = sdkAddressHash(PFM_MODULE_NAME, `${arrivalChannel}/${originalSender}`);
  return bech32.encode(prefix, bech32.toWords(hash.subarray(0, 20)));
}

/** PFM's newErrorAcknowledgement: the error text unredacted, behind the module's prefix. */
function pfmErrorAck(message: string): string {
  return JSON.stringify({ error: `packet-forward-middleware error: ${message}` });
}

const GO_DURATION_UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** A Go time.Duration as PFM's memo carries it: a string ("10m", "1h30m", "90s") or a number of nanoseconds. */
export function parseGoDuration(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value !== 'string' || !/^(\d+(ns|us|µs|ms|s|m|h))+$/.test(value)) {
    throw new Error(`invalid duration ${JSON.stringify(value)}`);
  }
  let total = 0n;
  for (const [, amount, unit] of value.matchAll(/(\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += BigInt(amount) * GO_DURATION_UNITS[unit];
  }
  return total;
}

/**
 * The memo's forward metadata; undefined when the memo has no `forward` key (not PFM's packet). An
 * invalid one throws the message PFM's error acknowledgement carries.
 */
export function parseForwardMemo(memo: string | undefined): ForwardMetadata | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(memo ?? '');
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || parsed.forward === undefined || parsed.forward === null) return undefined;
  const forward = parsed.forward;
  if (!isObject(forward)) throw new Error('error parsing forward metadata: forward must be an object');
  const { receiver, port, channel } = forward;
  if (typeof receiver !== 'string' || receiver === '') {
    throw new Error('failed to validate metadata: receiver cannot be empty');
  }
  if (typeof port !== 'string' || !/^[a-zA-Z0-9._+\-#[\]<>]{2,128}$/.test(port)) {
    throw new Error(`failed to validate metadata: invalid port ${JSON.stringify(port ?? '')}`);
  }
  if (typeof channel !== 'string' || !/^channel-\d+$/.test(channel)) {
    throw new Error(`failed to validate metadata: invalid channel ${JSON.stringify(channel ?? '')}`);
  }
  let timeout = PFM_DEFAULT_TIMEOUT_NS;
  try {
    if (forward.timeout !== undefined) timeout = parseGoDuration(forward.timeout);
  } catch (error) {
    throw new Error(`error parsing forward metadata: ${(error as Error).message}`, { cause: error });
  }
  const retries = forward.retries ?? PFM_DEFAULT_RETRIES;
  if (typeof retries !== 'number' || !Number.isInteger(retries) || retries < 0 || retries > 255) {
    throw new Error('error parsing forward metadata: retries must be a uint8');
  }
  const next = forward.next;
  if (next !== undefined && next !== null && typeof next !== 'string' && !isObject(next)) {
    throw new Error('error parsing forward metadata: next must be an object or a JSON string');
  }
  return {
    receiver,
    port,
    channel,
    timeout,
    retries,
    next: next === undefined || next === null ? '' : typeof next === 'string' ? next : JSON.stringify(next),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The packet-forward-middleware of a chain's transfer stack. */
export const packetForwardMiddleware: TransferMiddleware = {
  onRecvPacket(ctx, received, data, next): RecvOutcome {
    let metadata: ForwardMetadata | undefined;
    try {
      metadata = parseForwardMemo(data.memo);
    } catch (error) {
      return { ack: pfmErrorAck((error as Error).message) };
    }
    if (!metadata) return next(data);
    const intermediate = pfmIntermediateReceiver(
      ctx.spec.bech32Prefix,
      received.packet.destinationChannel,
      data.sender,
    );
    // The transfer app credits the intermediate address; the memo is PFM's, not the app's.
    const inner = next({ ...data, receiver: intermediate, memo: undefined });
    if ('async' in inner) return inner;
    if (isErrorAck(inner.ack)) {
      const { error } = JSON.parse(inner.ack) as { error: string };
      return { ack: pfmErrorAck(`error receiving packet: ack: ${error}`) };
    }
    const request = {
      sender: intermediate,
      receiver: metadata.receiver,
      denom: receivedDenom(received.packet, data),
      amount: data.amount,
      memo: metadata.next,
    };
    try {
      forward(ctx, metadata.port, metadata.channel, {
        received,
        request,
        timeoutNs: metadata.timeout.toString(),
        retriesLeft: metadata.retries,
      });
    } catch (error) {
      // ForwardTransferPacket wraps every failure of the transfer as insufficient funds.
      const cause = asCosmosTxError(error).message;
      return { ack: pfmErrorAck(`failed to forward transfer packet: ${cause}: insufficient funds`) };
    }
    return { async: true };
  },

  onPacketSettled(ctx, packet, data, outcome): boolean {
    const stored = ctx.state.get(inFlightKey(packet.sourceChannel, packet.sequence));
    if (stored === undefined) return false;
    ctx.state.set(inFlightKey(packet.sourceChannel, packet.sequence), undefined);
    const inFlight = JSON.parse(stored) as InFlightForward;
    if ('ack' in outcome && !isErrorAck(outcome.ack)) {
      writeAcknowledgement(ctx, inFlight.received, SUCCESS_ACK);
      return true;
    }
    if ('timeout' in outcome && inFlight.retriesLeft > 0) {
      // The timed-out tokens back to the intermediate address, and the same forward sent again.
      refund(ctx.state, ctx.spec, packet, data);
      forward(ctx, TRANSFER_PORT, packet.sourceChannel, {
        ...inFlight,
        retriesLeft: inFlight.retriesLeft - 1,
      });
      return true;
    }
    undoForward(ctx.state, ctx.spec.bech32Prefix, packet, data, inFlight.received);
    const ack =
      'ack' in outcome
        ? outcome.ack
        : pfmErrorAck(
            `giving up on packet on channel (${packet.sourceChannel}) port (${TRANSFER_PORT}) after max retries`,
          );
    writeAcknowledgement(ctx, inFlight.received, ack);
    return true;
  },
};

/** ForwardTransferPacket: the onward MsgTransfer from the intermediate address, tracked until settled. */
function forward(ctx: IbcHostContext, port: string, channel: string, inFlight: InFlightForward): void {
  const end = ibcChannel(ctx.spec.id, channel);
  if (port !== TRANSFER_PORT || !end) {
    throw new CosmosTxError('channelNotFound', `port ID (${port}) channel ID (${channel})`);
  }
  const { request } = inFlight;
  const transfer: TransferRequest = {
    sender: request.sender,
    receiver: request.receiver,
    token: { denom: request.denom, amount: BigInt(request.amount) },
    memo: request.memo,
    timeoutHeight: 0n,
    timeoutTimestamp: BigInt(ctx.blockTime.getTime()) * 1_000_000n + BigInt(inFlight.timeoutNs),
  };
  const sent = sendTransfer(ctx, end, transfer);
  ctx.state.set(inFlightKey(end.channel, sent.sequence), JSON.stringify(inFlight));
}

/**
 * A failed forward, undone on this chain as PFM's WriteAcknowledgementForForwardedPacket does (the
 * transfer app's refund to the intermediate address skipped): the tokens the forward escrowed leave
 * the escrow, and what the receive took from the escrow of the channel it came in on goes back there,
 * so the supply is as before the packet and the previous chain refunds its sender.
 */
function undoForward(
  state: CosmosState,
  prefix: string,
  forwarded: StoredPacket,
  data: TransferPacketData,
  received: ReceivedPacket,
): void {
  const coin = { denom: localDenom(data.denom), amount: BigInt(data.amount) };
  const forwardEscrowed = senderChainIsSource(forwarded.sourceChannel, data.denom);
  const originalData = JSON.parse(received.packet.data) as TransferPacketData;
  const receiveUnescrowed = originalData.denom.startsWith(
    `${TRANSFER_PORT}/${received.packet.sourceChannel}/`,
  );
  const forwardEscrow = escrowAddress(prefix, forwarded.sourceChannel);
  const receiveEscrow = escrowAddress(prefix, received.end.channel);
  if (forwardEscrowed && receiveUnescrowed) state.send(forwardEscrow, receiveEscrow, [coin]);
  else if (forwardEscrowed) state.burn(forwardEscrow, [coin]);
  else if (receiveUnescrowed) state.mint(receiveEscrow, [coin]);
}
