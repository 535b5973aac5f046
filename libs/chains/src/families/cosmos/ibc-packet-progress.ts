import type { CometEvent, CometTxResult, CosmosStatusClient } from './cosmos-status-client';

/**
 * Where an ICS-20 packet is, as its chains' own events tell it (what a client watching the relayers
 * reads, never the relayer itself):
 *  - `sent`: the source committed it (`send_packet` in the transfer's tx);
 *  - `received`: the destination ran it (`recv_packet`), its acknowledgement not relayed back yet;
 *  - `acknowledged`: the source took its acknowledgement (`acknowledge_packet`); an error
 *    acknowledgement refunded the sender there (`acknowledgementError`, `refunded`);
 *  - `timed_out`: the destination passed its timeout without receiving it and the source took the
 *    proof (`timeout_packet`), which refunded the sender in the same tx.
 */
export const IBC_PACKET_STATES = ['sent', 'received', 'acknowledged', 'timed_out'] as const;
export type IbcPacketState = (typeof IBC_PACKET_STATES)[number];

export interface IbcPacketProgress {
  state: IbcPacketState;
  /** The packet's sequence on its source channel (decimal). */
  sequence: string;
  sourceChannel: string;
  /** API id of the destination chain; null when the source's channel leads to no chain listed here. */
  destinationChain: string | null;
  destinationChannel: string;
  /** The packet's timeout (ms since the epoch); null when it times out by height only. */
  timeoutAtMs: number | null;
  /** The destination's tx that received it (the relayer's MsgRecvPacket), once known. */
  receivedTxHash: string | null;
  /** The source's tx that took its acknowledgement or its timeout (MsgAcknowledgement / MsgTimeout). */
  settledTxHash: string | null;
  /** The error acknowledgement's text when the destination refused the packet; else null. */
  acknowledgementError: string | null;
  /** Whether the coin went back to the sender on the source chain (a timeout or an error ack). */
  refunded: boolean;
}

/** A Cosmos chain's CometBFT RPC as the packet look-ups use it: /tx and tx_search. */
export type CosmosTxReader = Pick<CosmosStatusClient, 'committedTx' | 'searchTxs'>;

/** The chain at the other end of a source channel, and its RPC; undefined when none is known. */
export type IbcCounterpartyOf = (sourceChannel: string) => { chain: string; rpc: CosmosTxReader } | undefined;

const attributeOf = (event: CometEvent, key: string): string | undefined =>
  event.attributes.find((attribute) => attribute.key === key)?.value;

const eventsOf = (tx: CometTxResult, type: string): CometEvent[] =>
  (tx.tx_result.events ?? []).filter((event) => event.type === type);

const succeeded = (tx: CometTxResult): boolean => tx.tx_result.code === 0;
/** The first tx of `found` that succeeded (a relayer's tx may fail, e.g. relaying what another relayed). */
const committedOk = (found: CometTxResult[]): CometTxResult | undefined => found.find(succeeded);

/** `type.key='value'` conditions joined by AND, as CometBFT's tx indexer takes them. */
const packetQuery = (type: string, conditions: Record<string, string>): string =>
  Object.entries(conditions)
    .map(([key, value]) => `${type}.${key}='${value.replace(/'/g, '')}'`)
    .join(' AND ');

/** The first packet a committed tx sent (its `send_packet` event), or undefined when it sent none. */
export function sentPacketOf(tx: CometTxResult): SentPacket | undefined {
  const [sent] = eventsOf(tx, 'send_packet');
  return sent ? sentPacketOfEvent(sent) : undefined;
}

/** The sending fields of one `send_packet` event, or undefined when it lacks them. */
export function sentPacketOfEvent(sent: CometEvent): SentPacket | undefined {
  const sequence = attributeOf(sent, 'packet_sequence');
  const sourceChannel = attributeOf(sent, 'packet_src_channel');
  const destinationChannel = attributeOf(sent, 'packet_dst_channel');
  if (!sequence || !sourceChannel || !destinationChannel) return undefined;
  const timeoutNs = BigInt(attributeOf(sent, 'packet_timeout_timestamp') || '0');
  return {
    sequence,
    sourceChannel,
    destinationChannel,
    timeoutAtMs: timeoutNs > 0n ? Number(timeoutNs / 1_000_000n) : null,
  };
}

/**
 * The progress of the packet the committed, successful tx `txHash` sent on `source`: the source's
 * `acknowledge_packet` or `timeout_packet` for its channel and sequence, else the destination's
 * `recv_packet`. Null when `txHash` is not committed yet or sent no packet (a Cosmos tx that is no
 * transfer: nothing to follow). Upstream failures are thrown: the caller asks again later.
 */
export async function ibcPacketProgress(
  source: CosmosTxReader,
  counterpartyOf: IbcCounterpartyOf,
  txHash: string,
): Promise<IbcPacketProgress | null> {
  const tx = await source.committedTx(txHash);
  if (!tx || tx.tx_result.code !== 0) return null;
  const sent = sentPacketOf(tx);
  if (!sent) return null;
  return packetProgressOf(source, counterpartyOf, sent);
}

/** A packet's sending fields, as `send_packet` names them (sentPacketOf). */
export type SentPacket = Pick<
  IbcPacketProgress,
  'sequence' | 'sourceChannel' | 'destinationChannel' | 'timeoutAtMs'
>;

/**
 * The progress of the packet `sent` on `source` (from a tx, or from a block's FinalizeBlock events
 * when a module's EndBlocker sent it): the source's `acknowledge_packet` or `timeout_packet` for its
 * channel and sequence, else the destination's `recv_packet`.
 */
export async function packetProgressOf(
  source: CosmosTxReader,
  counterpartyOf: IbcCounterpartyOf,
  sent: SentPacket,
): Promise<IbcPacketProgress> {
  const counterparty = counterpartyOf(sent.sourceChannel);
  const byPacket = { packet_src_channel: sent.sourceChannel, packet_sequence: sent.sequence };
  const progress: IbcPacketProgress = {
    ...sent,
    state: 'sent',
    destinationChain: counterparty?.chain ?? null,
    receivedTxHash: null,
    settledTxHash: null,
    acknowledgementError: null,
    refunded: false,
  };
  const timedOut = committedOk(await source.searchTxs(packetQuery('timeout_packet', byPacket)));
  if (timedOut) return { ...progress, state: 'timed_out', settledTxHash: timedOut.hash, refunded: true };
  const received = counterparty
    ? (
        await counterparty.rpc.searchTxs(
          packetQuery('recv_packet', {
            packet_dst_channel: sent.destinationChannel,
            packet_sequence: sent.sequence,
          }),
        )
      ).find(succeeded)
    : undefined;
  const acknowledged = committedOk(await source.searchTxs(packetQuery('acknowledge_packet', byPacket)));
  if (acknowledged) {
    const error = eventsOf(acknowledged, 'fungible_token_packet')
      .map((event) => attributeOf(event, 'error'))
      .find((text) => text !== undefined && text !== '');
    return {
      ...progress,
      state: 'acknowledged',
      receivedTxHash: received?.hash ?? null,
      settledTxHash: acknowledged.hash,
      acknowledgementError: error ?? null,
      refunded: error !== undefined,
    };
  }
  if (received) return { ...progress, state: 'received', receivedTxHash: received.hash };
  return progress;
}
