import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CosmosStatusClient } from './cosmos-status-client';

const HASH = 'ab'.repeat(32);

/** A CometBFT RPC that answers each method as the test says (a JSON-RPC body, or raw text). */
describe('CosmosStatusClient (CometBFT RPC answers)', () => {
  let server: Server;
  let client: CosmosStatusClient;
  let answers: Record<string, unknown>;
  const seen: { method: string; params: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const { method, params } = JSON.parse(text) as { method: string; params: Record<string, unknown> };
        seen.push({ method, params });
        const answer = answers[method];
        res.writeHead(typeof answer === 'string' ? 502 : 200, { 'content-type': 'application/json' });
        res.end(
          typeof answer === 'string'
            ? answer
            : JSON.stringify({ jsonrpc: '2.0', id: 1, ...(answer as object) }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new CosmosStatusClient(
      { id: 'cosmoshub-devnet', rpcUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
      2_000,
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (seen.length = 0));

  const txAnswer = (code: number, extra: Record<string, unknown> = {}) => ({
    result: { hash: HASH.toUpperCase(), height: '12', tx_result: { code, ...extra } },
  });

  it('confirms a code-0 tx at its block time, asking /tx by the base64 of the hash', async () => {
    answers = {
      tx: txAnswer(0),
      block: { result: { block: { header: { time: '2026-11-29T16:00:00.5Z' } } } },
    };
    await expect(client.transactionStatus(HASH)).resolves.toEqual({
      txHash: HASH.toUpperCase(),
      chain: 'cosmoshub-devnet',
      status: 'confirmed',
      confirmedAtMs: Date.parse('2026-11-29T16:00:00.5Z'),
    });
    expect(seen[0].params.hash).toBe(Buffer.from(HASH, 'hex').toString('base64'));
    expect(seen[1]).toEqual({ method: 'block', params: { height: '12' } });
  });

  it('reports a tx whose code is not 0 as failed with codespace, code and log', async () => {
    answers = { tx: txAnswer(5, { codespace: 'sdk', log: 'insufficient funds' }) };
    await expect(client.transactionStatus(HASH)).resolves.toMatchObject({
      status: 'failed',
      error: 'sdk/5: insufficient funds',
    });
  });

  const notCommitted = { error: { code: -32603, message: 'Internal error', data: `tx (${HASH}) not found` } };
  const mempool = (...txs: Buffer[]) => ({
    result: {
      n_txs: String(txs.length),
      total: String(txs.length),
      txs: txs.map((t) => t.toString('base64')),
    },
  });

  it('answers pending for a tx the node holds in its mempool (unconfirmed_txs), by the SHA-256 of its bytes', async () => {
    const raw = Buffer.from('a signed TxRaw, as broadcast');
    const hash = createHash('sha256').update(raw).digest('hex');
    answers = { tx: notCommitted, unconfirmed_txs: mempool(Buffer.from('another tx'), raw) };
    await expect(client.transactionStatus(hash)).resolves.toEqual({
      txHash: hash.toUpperCase(),
      chain: 'cosmoshub-devnet',
      status: 'pending',
    });
    expect(seen.at(-1)).toEqual({ method: 'unconfirmed_txs', params: { limit: '100' } });
  });

  it('names an unknown tx TRANSACTION_NOT_FOUND and a broken node STATUS_UPSTREAM_ERROR', async () => {
    answers = { tx: notCommitted, unconfirmed_txs: mempool(Buffer.from('another tx')) };
    await expect(client.transactionStatus(HASH)).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
    answers = { tx: notCommitted, unconfirmed_txs: '<html>bad gateway</html>' };
    await expect(client.transactionStatus(HASH)).rejects.toMatchObject({ code: 'STATUS_UPSTREAM_ERROR' });
    answers = { tx: '<html>bad gateway</html>' };
    await expect(client.transactionStatus(HASH)).rejects.toMatchObject({ code: 'STATUS_UPSTREAM_ERROR' });
    answers = { tx: { result: { height: '3' } } };
    await expect(client.transactionStatus(HASH)).rejects.toMatchObject({ code: 'STATUS_UPSTREAM_ERROR' });
    answers = {
      tx: txAnswer(0),
      block: { error: { code: -32603, message: 'Internal error', data: 'pruned' } },
    };
    await expect(client.transactionStatus(HASH)).rejects.toMatchObject({ code: 'STATUS_UPSTREAM_ERROR' });
  });

  it('tells what broadcast_tx_sync did with a tx', async () => {
    const outcome = async (answer: unknown) => {
      answers = { broadcast_tx_sync: answer };
      return client.broadcastTxSync('AAAA');
    };
    expect(await outcome({ result: { code: 0, log: '', hash: HASH } })).toEqual({ kind: 'sent' });
    expect(
      await outcome({ result: { code: 19, codespace: 'sdk', log: 'tx already in mempool' } }),
    ).toMatchObject({
      kind: 'already-known',
    });
    expect(
      await outcome({
        error: { code: -32603, message: 'Internal error', data: 'tx already exists in cache' },
      }),
    ).toMatchObject({ kind: 'already-known' });
    expect(
      await outcome({ result: { code: 32, codespace: 'sdk', log: 'account sequence mismatch' } }),
    ).toEqual({
      kind: 'rejected',
      message: 'sdk/32: account sequence mismatch',
    });
    expect(
      await outcome({
        error: { code: -32603, message: 'Internal error', data: 'mempool is full: number of txs 5000' },
      }),
    ).toMatchObject({ kind: 'unreachable' });
    expect(await outcome('<html>bad gateway</html>')).toMatchObject({ kind: 'unreachable' });
    expect(seen.at(-1)).toEqual({ method: 'broadcast_tx_sync', params: { tx: 'AAAA' } });
  });
});
