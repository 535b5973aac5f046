import { IncomingMessage, ServerResponse } from 'node:http';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { LocalHttpServer } from '../local-http-server';
import { CosmosChain, TxAlreadyKnownError } from './cosmos-chain';
import { cometBlockJson, cometTxJson, cometTxResultJson, rfc3339 } from './cosmos-json';
import { abciQuery } from './cosmos-queries';
import { searchTxs } from './cosmos-tx-search';
import { txHash } from './cosmos-tx';

/** The CometBFT version reported: cosmjs's connectComet picks its 0.38 client from it. */
export const COMETBFT_VERSION = '0.38.17';

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: string,
  ) {
    super(message);
  }
}

type Params = Record<string, unknown>;

/**
 * CometBFT's RPC for one chain: JSON-RPC over POST (single or batch) and the URI form
 * (`GET /<method>?arg=…`, strings quoted, bytes as 0x-hex), the methods wallets and cosmjs use.
 */
export class CosmosRpcServer {
  private readonly http = new LocalHttpServer((req, res) => this.serve(req, res));
  /** A fixed, chain-specific validator address (hex, 20 bytes): the single validator of the devnet. */
  private readonly validator: string;
  private readonly nodeId: string;

  constructor(private readonly chain: CosmosChain) {
    const digest = bytesToHex(sha256(new TextEncoder().encode(`validator/${chain.spec.id}`))).toUpperCase();
    this.validator = digest.slice(0, 40);
    this.nodeId = digest.slice(24, 64).toLowerCase();
  }

  listen(port: number, host: string): Promise<number> {
    return this.http.listen(port, host);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      if (req.method === 'POST') {
        const text = await readBody(req);
        const parsed = JSON.parse(text) as unknown;
        body = Array.isArray(parsed) ? parsed.map((r) => this.call(r, false)) : this.call(parsed, false);
      } else {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const method = url.pathname.replace(/^\//, '');
        const params: Params = {};
        for (const [key, value] of url.searchParams) params[key] = value;
        body =
          method === ''
            ? { jsonrpc: '2.0', id: -1, result: {} }
            : this.call({ jsonrpc: '2.0', id: -1, method, params }, true);
      }
    } catch (error) {
      body = {
        jsonrpc: '2.0',
        id: -1,
        error: { code: -32700, message: 'Parse error. Invalid JSON', data: (error as Error).message },
      };
    }
    const status =
      !Array.isArray(body) && (body as { error?: { code: number } }).error?.code === -32700 ? 500 : 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private call(request: unknown, fromUri: boolean): Record<string, unknown> {
    const {
      id = -1,
      method,
      params = {},
    } = (request ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    try {
      const named = (Array.isArray(params) ? {} : params) as Params;
      const result = this.dispatch(String(method), named, fromUri);
      return { jsonrpc: '2.0', id, result };
    } catch (error) {
      const rpc =
        error instanceof RpcError
          ? error
          : error instanceof TxAlreadyKnownError
            ? new RpcError(-32603, 'Internal error', error.message)
            : new RpcError(-32603, 'Internal error', (error as Error).message);
      return { jsonrpc: '2.0', id, error: { code: rpc.code, message: rpc.message, data: rpc.data } };
    }
  }

  private dispatch(method: string, params: Params, fromUri: boolean): unknown {
    const chain = this.chain;
    switch (method) {
      case 'health':
        return {};
      case 'status':
        return this.status();
      case 'abci_info': {
        const latest = chain.latestBlock;
        return {
          response: {
            data: 'swapgw-devnet-cosmos',
            version: '0.50.0',
            last_block_height: String(chain.height),
            last_block_app_hash: latest ? Buffer.from(latest.appHash, 'hex').toString('base64') : '',
          },
        };
      }
      case 'abci_query': {
        const path = stringParam(params.path, fromUri);
        const data = bytesParam(params.data, 'hex', fromUri);
        const answer = abciQuery(chain, path, data);
        return {
          response: {
            code: answer.code,
            log: answer.log,
            info: '',
            index: '0',
            key: null,
            value: answer.value.length ? Buffer.from(answer.value).toString('base64') : null,
            proofOps: null,
            height: String(chain.height),
            codespace: answer.codespace,
          },
        };
      }
      case 'broadcast_tx_sync':
      case 'broadcast_tx_async': {
        const tx = bytesParam(params.tx, 'base64', fromUri);
        const result = chain.checkTx(tx);
        const json = cometTxResultJson(result);
        return { code: json.code, data: '', log: json.log, codespace: json.codespace, hash: result.hash };
      }
      case 'tx': {
        const hash = bytesToHex(bytesParam(params.hash, 'base64', fromUri)).toUpperCase();
        const tx = chain.includedTx(hash);
        if (!tx) throw new RpcError(-32603, 'Internal error', `tx (${hash}) not found`);
        return cometTxJson(tx);
      }
      case 'unconfirmed_txs': {
        // CometBFT: the mempool's txs (base64), at most `limit` (default 30, at most 100).
        const limit = Math.min(Math.max(Number(stringParam(params.limit ?? '30', fromUri)) || 30, 1), 100);
        const pending = chain.mempoolTxs();
        const bytes = pending.reduce((total, tx) => total + tx.length, 0);
        return {
          n_txs: String(Math.min(pending.length, limit)),
          total: String(pending.length),
          total_bytes: String(bytes),
          txs: pending.slice(0, limit).map((tx) => Buffer.from(tx).toString('base64')),
        };
      }
      case 'tx_search': {
        const query = stringParam(params.query, fromUri);
        const page = Number(stringParam(params.page ?? '1', fromUri));
        const perPage = Number(stringParam(params.per_page ?? '30', fromUri));
        const order = stringParam(params.order_by ?? '', fromUri);
        const found = searchTxs(chain, query, order === 'desc' ? 'desc' : 'asc');
        const size = Math.min(Math.max(perPage || 30, 1), 100);
        const pages = Math.max(Math.ceil(found.length / size), 1);
        if (!Number.isInteger(page) || page < 1 || page > pages) {
          throw new RpcError(
            -32603,
            'Internal error',
            `page should be within [1, ${pages}] range, given ${page}`,
          );
        }
        return {
          txs: found.slice((page - 1) * size, page * size).map(cometTxJson),
          total_count: String(found.length),
        };
      }
      case 'block': {
        const height = heightParam(chain, params, fromUri);
        const block = chain.block(height);
        if (!block) {
          throw new RpcError(
            -32603,
            'Internal error',
            `height ${height} must be less than or equal to the current blockchain height ${chain.height}`,
          );
        }
        return cometBlockJson(chain.spec.id, block, chain.block(height - 1), this.validator);
      }
      case 'block_results': {
        // CometBFT 0.38: the block's tx results and its FinalizeBlock events (the EndBlockers').
        const height = heightParam(chain, params, fromUri);
        const block = chain.block(height);
        if (!block) {
          throw new RpcError(-32603, 'Internal error', `could not find results for height #${height}`);
        }
        const results = block.txs.map((raw) => chain.includedTx(txHash(raw))?.result);
        return {
          height: String(height),
          txs_results: results.length
            ? results.map((result) => (result ? cometTxResultJson(result) : null))
            : null,
          finalize_block_events: block.endBlockEvents.map((e) => ({
            type: e.type,
            attributes: e.attributes.map((a) => ({ ...a, index: true })),
          })),
          validator_updates: null,
          consensus_param_updates: null,
          app_hash: block.appHash,
        };
      }
      default:
        throw new RpcError(-32601, 'Method not found', '');
    }
  }

  private status(): Record<string, unknown> {
    const chain = this.chain;
    const latest = chain.latestBlock;
    const first = chain.block(1);
    return {
      node_info: {
        protocol_version: { p2p: '8', block: '11', app: '0' },
        id: this.nodeId,
        listen_addr: 'tcp://0.0.0.0:26656',
        network: chain.spec.id,
        version: COMETBFT_VERSION,
        channels: '40202122233038606100',
        moniker: `${chain.spec.id}-validator`,
        other: { tx_index: 'on', rpc_address: 'tcp://0.0.0.0:26657' },
      },
      sync_info: {
        latest_block_hash: latest?.hash ?? '',
        latest_app_hash: latest?.appHash ?? '',
        latest_block_height: String(chain.height),
        latest_block_time: rfc3339(latest?.time ?? new Date(0)),
        earliest_block_hash: first?.hash ?? '',
        earliest_app_hash: first?.appHash ?? '',
        earliest_block_height: first ? '1' : '0',
        earliest_block_time: rfc3339(first?.time ?? new Date(0)),
        catching_up: false,
      },
      validator_info: {
        address: this.validator,
        pub_key: {
          type: 'tendermint/PubKeyEd25519',
          value: Buffer.from(sha256(new TextEncoder().encode(this.validator))).toString('base64'),
        },
        voting_power: '10',
      },
    };
  }
}

/** A `height` parameter, the latest block's when absent (CometBFT's `block`, `block_results`). */
function heightParam(chain: CosmosChain, params: Params, fromUri: boolean): number {
  return params.height === undefined || params.height === null
    ? chain.height
    : Number(stringParam(params.height, fromUri));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function stringParam(value: unknown, fromUri: boolean): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new RpcError(-32602, 'Invalid params', 'expected a string parameter');
  return fromUri ? value.replace(/^"(.*)"$/s, '$1') : value;
}

/** A bytes parameter: JSON-RPC gives `encoding` (base64 for []byte, hex for HexBytes); the URI form 0x-hex. */
function bytesParam(value: unknown, encoding: 'base64' | 'hex', fromUri: boolean): Uint8Array {
  if (value === undefined || value === null || value === '') return new Uint8Array();
  const text = stringParam(value, false);
  if (fromUri && text.startsWith('0x')) return hexBytes(text.slice(2));
  const unquoted = fromUri ? text.replace(/^"(.*)"$/s, '$1') : text;
  if (encoding === 'hex') return hexBytes(unquoted);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(unquoted))
    throw new RpcError(-32602, 'Invalid params', 'illegal base64 data');
  return Uint8Array.from(Buffer.from(unquoted, 'base64'));
}

function hexBytes(text: string): Uint8Array {
  if (!/^([0-9a-fA-F]{2})*$/.test(text))
    throw new RpcError(-32602, 'Invalid params', 'encoding/hex: invalid byte');
  return Uint8Array.from(Buffer.from(text, 'hex'));
}
