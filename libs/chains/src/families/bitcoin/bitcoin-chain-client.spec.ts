import { BitcoinApiUnreachable, BitcoinChainClient } from './bitcoin-chain-client';

const TXID = 'ab'.repeat(32);
const ADDRESS = 'bcrt1q0xcqpzrky6eff2g52qdye53xkk9jxkvrl4xfg5';

/** A fake Esplora: answers by method and path, records what it was sent. */
function esplora(routes: Record<string, () => Response | Promise<Response>>) {
  const sent: { method: string; path: string; body?: string }[] = [];
  const fetchFn = (async (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url).replace('http://esplora.test/api', '');
    const method = init?.method ?? 'GET';
    sent.push({ method, path, body: init?.body as string | undefined });
    const route = routes[`${method} ${path}`];
    return route ? route() : new Response('Not Found', { status: 404 });
  }) as typeof fetch;
  return { client: new BitcoinChainClient('http://esplora.test/api/', 1_000, fetchFn), sent };
}

const json = (body: unknown) => () => new Response(JSON.stringify(body), { status: 200 });
const text = (status: number, body: string) => () => new Response(body, { status });

describe('BitcoinChainClient over Esplora', () => {
  it('reads a balance as confirmed plus mempool, and the UTXOs with their confirmation', async () => {
    const { client } = esplora({
      [`GET /address/${ADDRESS}`]: json({
        chain_stats: { funded_txo_sum: 150_000, spent_txo_sum: 50_000 },
        mempool_stats: { funded_txo_sum: 20_000, spent_txo_sum: 30_000 },
      }),
      [`GET /address/${ADDRESS}/utxo`]: json([
        { txid: TXID, vout: 1, value: 60_000, status: { confirmed: true, block_height: 120 } },
        { txid: TXID, vout: 2, value: 20_000, status: { confirmed: false } },
      ]),
    });
    expect(await client.readBalance(ADDRESS)).toBe(90_000n);
    expect(await client.utxos(ADDRESS)).toEqual([
      { txid: TXID, vout: 1, value: 60_000n, address: ADDRESS, confirmed: true, blockHeight: 120 },
      { txid: TXID, vout: 2, value: 20_000n, address: ADDRESS, confirmed: false, blockHeight: null },
    ]);
  });

  it('broadcasts the raw hex and maps what Esplora answers', async () => {
    const answers = [
      text(200, TXID),
      text(400, 'sendrawtransaction RPC error: {"code":-26,"message":"txn-already-in-mempool"}'),
      text(400, 'sendrawtransaction RPC error: {"code":-27,"message":"Transaction already in block chain"}'),
      text(400, 'sendrawtransaction RPC error: {"code":-26,"message":"min relay fee not met"}'),
      text(503, 'busy'),
    ];
    let next = 0;
    const { client, sent } = esplora({ 'POST /tx': () => answers[next++]() });
    expect(await client.broadcast('0200')).toEqual({ kind: 'sent' });
    expect(sent[0]).toEqual({ method: 'POST', path: '/tx', body: '0200' });
    expect((await client.broadcast('0200')).kind).toBe('already-known');
    expect((await client.broadcast('0200')).kind).toBe('already-known');
    expect(await client.broadcast('0200')).toEqual({
      kind: 'rejected',
      message: expect.stringContaining('min relay fee'),
    });
    expect((await client.broadcast('0200')).kind).toBe('unreachable');
    const down = new BitcoinChainClient('http://esplora.test', 1_000, (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    expect(await down.broadcast('0200')).toEqual({ kind: 'unreachable', message: 'fetch failed' });
  });

  it('tells where a transaction stands: unknown, in the pool, included, confirmed', async () => {
    let status: unknown = null;
    const { client } = esplora({
      [`GET /tx/${TXID}/status`]: () =>
        status === null ? text(404, 'Transaction not found')() : json(status)(),
      'GET /blocks/tip/height': json(102),
    });
    expect(await client.progress(TXID, 3)).toEqual({ kind: 'unknown' });
    status = { confirmed: false };
    expect(await client.progress(TXID, 3)).toEqual({ kind: 'in-pool' });
    status = { confirmed: true, block_height: 101, block_time: 1_700_000_000 };
    expect(await client.progress(TXID, 3)).toEqual({
      kind: 'included',
      blockNumber: 101,
      confirmations: 2,
      required: 3,
    });
    expect(await client.progress(TXID, 2)).toEqual({
      kind: 'confirmed',
      blockNumber: 101,
      confirmations: 2,
      required: 2,
      blockTimeMs: 1_700_000_000_000,
    });
    await expect(client.progress('0x' + TXID, 1)).rejects.toThrow(/not a Bitcoin txid/);
  });

  it('reads fee rates by target, and tells an unreachable API from one that answers an error', async () => {
    const { client } = esplora({
      'GET /fee-estimates': json({ '6': 4.5, '1': 12.25, '144': 1.01, x: 3 }),
      [`GET /address/${ADDRESS}`]: text(502, 'Bad Gateway'),
    });
    expect([...(await client.feeRates())]).toEqual([
      [1, 12.25],
      [6, 4.5],
      [144, 1.01],
    ]);
    const error = await client.readBalance(ADDRESS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BitcoinApiUnreachable);
    expect(client.isUnreachable(error)).toBe(true);
    expect(client.isUnreachable(await client.utxos(ADDRESS).catch((e: unknown) => e))).toBe(false);
  });
});
