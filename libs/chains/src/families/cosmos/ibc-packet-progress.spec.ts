import type { CometEvent, CometTxResult } from './cosmos-status-client';
import { ibcPacketProgress, type CosmosTxReader } from './ibc-packet-progress';

const TRANSFER = 'A1'.repeat(32);
const RECV = 'B2'.repeat(32);
const ACK = 'C3'.repeat(32);
const TIMEOUT = 'D4'.repeat(32);

const packetAttributes = (extra: Record<string, string> = {}) =>
  Object.entries({
    packet_sequence: '7',
    packet_src_port: 'transfer',
    packet_src_channel: 'channel-0',
    packet_dst_port: 'transfer',
    packet_dst_channel: 'channel-3',
    packet_timeout_height: '0-0',
    packet_timeout_timestamp: '1767225600000000000',
    ...extra,
  }).map(([key, value]) => ({ key, value }));

const tx = (hash: string, events: CometEvent[], code = 0): CometTxResult => ({
  hash,
  height: '10',
  tx_result: { code, events },
});

/** A chain's RPC over a fixed set of committed txs, answering tx_search queries of `type.key='value'` conditions. */
function chain(txs: CometTxResult[]): CosmosTxReader & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    committedTx: async (hash) => txs.find((t) => t.hash === hash.toUpperCase()) ?? null,
    searchTxs: async (query) => {
      queries.push(query);
      const conditions = query.split(' AND ').map((c) => /^(\w+)\.(\w+)='(.*)'$/.exec(c)!);
      return txs.filter((t) =>
        conditions.every(([, type, key, value]) =>
          (t.tx_result.events ?? []).some(
            (e) => e.type === type && e.attributes.some((a) => a.key === key && a.value === value),
          ),
        ),
      );
    },
  };
}

const sent = tx(TRANSFER, [{ type: 'send_packet', attributes: packetAttributes() }]);
const recv = tx(RECV, [{ type: 'recv_packet', attributes: packetAttributes() }]);

describe('ibcPacketProgress (a transfer followed through its chains\u2019 CometBFT events)', () => {
  const progressOf = (source: CosmosTxReader, destination: CosmosTxReader) =>
    ibcPacketProgress(
      source,
      (channel) => (channel === 'channel-0' ? { chain: 'osmosis-devnet', rpc: destination } : undefined),
      TRANSFER.toLowerCase(),
    );

  it('is sent once the transfer is committed, with its sequence, channels and timeout', async () => {
    const source = chain([sent]);
    await expect(progressOf(source, chain([]))).resolves.toEqual({
      state: 'sent',
      sequence: '7',
      sourceChannel: 'channel-0',
      destinationChain: 'osmosis-devnet',
      destinationChannel: 'channel-3',
      timeoutAtMs: 1767225600000,
      receivedTxHash: null,
      settledTxHash: null,
      acknowledgementError: null,
      refunded: false,
    });
    expect(source.queries).toContain(
      "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='7'",
    );
  });

  it('is received when the destination ran it (a failed relayer tx does not count), acknowledged when the source took the ack', async () => {
    const failedRecv = tx('E5'.repeat(32), [{ type: 'recv_packet', attributes: packetAttributes() }], 21);
    await expect(progressOf(chain([sent]), chain([failedRecv]))).resolves.toMatchObject({ state: 'sent' });
    await expect(progressOf(chain([sent]), chain([failedRecv, recv]))).resolves.toMatchObject({
      state: 'received',
      receivedTxHash: RECV,
    });
    const ack = tx(ACK, [
      { type: 'acknowledge_packet', attributes: packetAttributes() },
      { type: 'fungible_token_packet', attributes: [{ key: 'success', value: '\u0001' }] },
    ]);
    await expect(progressOf(chain([sent, ack]), chain([recv]))).resolves.toMatchObject({
      state: 'acknowledged',
      receivedTxHash: RECV,
      settledTxHash: ACK,
      acknowledgementError: null,
      refunded: false,
    });
  });

  it('an error acknowledgement refunded the sender; a timeout too', async () => {
    const errorAck = tx(ACK, [
      { type: 'acknowledge_packet', attributes: packetAttributes() },
      {
        type: 'fungible_token_packet',
        attributes: [{ key: 'error', value: 'ABCI code: 5: insufficient funds' }],
      },
    ]);
    await expect(progressOf(chain([sent, errorAck]), chain([recv]))).resolves.toMatchObject({
      state: 'acknowledged',
      acknowledgementError: 'ABCI code: 5: insufficient funds',
      refunded: true,
    });
    const timedOut = tx(TIMEOUT, [{ type: 'timeout_packet', attributes: packetAttributes() }]);
    await expect(progressOf(chain([sent, timedOut]), chain([]))).resolves.toMatchObject({
      state: 'timed_out',
      settledTxHash: TIMEOUT,
      refunded: true,
    });
  });

  it('follows nothing for a transfer not committed yet, a failed one, or a tx that sent no packet; another packet of the channel is not ours', async () => {
    await expect(progressOf(chain([]), chain([]))).resolves.toBeNull();
    const failed = tx(TRANSFER, [{ type: 'send_packet', attributes: packetAttributes() }], 5);
    await expect(progressOf(chain([failed]), chain([]))).resolves.toBeNull();
    await expect(
      progressOf(chain([tx(TRANSFER, [{ type: 'transfer', attributes: [] }])]), chain([])),
    ).resolves.toBeNull();
    const otherTimeout = tx(TIMEOUT, [
      { type: 'timeout_packet', attributes: packetAttributes({ packet_sequence: '8' }) },
    ]);
    await expect(progressOf(chain([sent, otherTimeout]), chain([]))).resolves.toMatchObject({
      state: 'sent',
    });
  });
});
