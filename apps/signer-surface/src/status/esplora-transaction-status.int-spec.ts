import bs58 from 'bs58';
import { CodedError, TransactionStatusResult } from '@swapgw/contracts';
import { freePort } from '@swapgw/testing';
import { createServer, Server } from 'node:http';
import { ChainRegistry } from '@swapgw/chains';
import { SignerChains } from '../chains/signer-chains';
import { EsploraTransactionStatus } from '@swapgw/chains/families';
import { TransactionStatusService } from './transaction-status.service';

// A local HTTP server speaking Esplora's documented format (GET /tx/:txid, GET /tx/:txid/status;
// unknown txid → 404 "Transaction not found").
const CONFIRMED = 'a'.repeat(64);
const MEMPOOL = 'b'.repeat(64);
const UNKNOWN = 'c'.repeat(64);
const BROKEN = 'd'.repeat(64);
const BLOCK_TIME = 1_731_000_000;

const statuses: Record<string, object> = {
  [CONFIRMED]: {
    confirmed: true,
    block_height: 870_000,
    block_hash: '00000000000000000001'.padEnd(64, '0'),
    block_time: BLOCK_TIME,
  },
  [MEMPOOL]: { confirmed: false },
};

let server: Server;
let baseUrl: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const match = /^\/api\/tx\/([0-9a-f]{64})(\/status)?$/.exec(req.url ?? '');
    if (match?.[1] === BROKEN) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal server error');
      return;
    }
    const status = match ? statuses[match[1]] : undefined;
    if (!match || !status) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Transaction not found');
      return;
    }
    const body = match[2]
      ? status
      : {
          txid: match[1],
          version: 2,
          locktime: 0,
          vin: [],
          vout: [],
          size: 200,
          weight: 800,
          fee: 1000,
          status,
        };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${port}/api`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const codeOf = async (promise: Promise<TransactionStatusResult>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CodedError) return error.code;
    throw error;
  }
  throw new Error('expected an error');
};

describe('EsploraTransactionStatus', () => {
  it('reports a mined transaction as confirmed at its block time', async () => {
    const adapter = new EsploraTransactionStatus(baseUrl, 2000);
    expect(await adapter.status('bitcoin', CONFIRMED)).toEqual({
      txHash: CONFIRMED,
      chain: 'bitcoin',
      status: 'confirmed',
      confirmedAtMs: BLOCK_TIME * 1000,
    });
    expect(requests).toContain(`/api/tx/${CONFIRMED}/status`);
  });

  it('reports a mempool transaction as pending, accepting an upper-case txid', async () => {
    const adapter = new EsploraTransactionStatus(`${baseUrl}/`, 2000);
    expect(await adapter.status('bitcoin', MEMPOOL.toUpperCase())).toEqual({
      txHash: MEMPOOL,
      chain: 'bitcoin',
      status: 'pending',
    });
  });

  it('answers TRANSACTION_NOT_FOUND for an unknown txid and INVALID_TX_HASH for an EVM-style hash', async () => {
    const adapter = new EsploraTransactionStatus(baseUrl, 2000);
    expect(await codeOf(adapter.status('bitcoin', UNKNOWN))).toBe('TRANSACTION_NOT_FOUND');
    expect(await codeOf(adapter.status('bitcoin', `0x${UNKNOWN}`))).toBe('INVALID_TX_HASH');
  });

  it('answers STATUS_UPSTREAM_ERROR when the API fails or nothing listens', async () => {
    expect(await codeOf(new EsploraTransactionStatus(baseUrl, 2000).status('bitcoin', BROKEN))).toBe(
      'STATUS_UPSTREAM_ERROR',
    );
    const closedPort = await freePort();
    expect(
      await codeOf(
        new EsploraTransactionStatus(`http://127.0.0.1:${closedPort}`, 2000).status('bitcoin', CONFIRMED),
      ),
    ).toBe('STATUS_UPSTREAM_ERROR');
  });
});

describe('TransactionStatusService for the bitcoin chain of the registry', () => {
  const serviceWith = (statusApiUrls: Record<string, string>) =>
    new TransactionStatusService(new SignerChains(new ChainRegistry({ statusApiUrls }), 2000));

  it('looks bitcoin up through the Esplora API configured for it (ESPLORA_URL_BITCOIN)', async () => {
    const service = serviceWith({ bitcoin: baseUrl });
    expect(await service.status({ chain: 'bitcoin', txHash: MEMPOOL })).toEqual({
      txHash: MEMPOOL,
      chain: 'bitcoin',
      status: 'pending',
    });
    expect(await codeOf(service.status({ chain: 'bitcoin', txHash: UNKNOWN }))).toBe('TRANSACTION_NOT_FOUND');
  });

  it('answers 502 without a configured API or RPC, 400 for an unknown chain', async () => {
    const service = serviceWith({});
    const solanaSignature = bs58.encode(new Uint8Array(64).fill(7));
    expect(await codeOf(service.status({ chain: 'bitcoin', txHash: MEMPOOL }))).toBe('STATUS_UPSTREAM_ERROR');
    expect(await codeOf(service.status({ chain: 'solana', txHash: solanaSignature }))).toBe(
      'STATUS_UPSTREAM_ERROR',
    );
    expect(await codeOf(service.status({ chain: 'ethereum', txHash: `0x${MEMPOOL}` }))).toBe(
      'STATUS_UPSTREAM_ERROR',
    );
    expect(await codeOf(service.status({ chain: 'dogecoin', txHash: MEMPOOL }))).toBe('UNKNOWN_CHAIN');
  });

  it("answers a malformed hash with 400 before looking for the chain's RPC", async () => {
    const service = serviceWith({});
    expect(await codeOf(service.status({ chain: 'ethereum', txHash: '[]' }))).toBe('INVALID_TX_HASH');
    expect(await codeOf(service.status({ chain: 'bitcoin', txHash: `0x${MEMPOOL}` }))).toBe(
      'INVALID_TX_HASH',
    );
    expect(await codeOf(service.status({ chain: 'solana', txHash: MEMPOOL }))).toBe('INVALID_TX_HASH');
  });
});
