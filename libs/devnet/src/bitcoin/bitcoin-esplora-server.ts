import { IncomingMessage, ServerResponse } from 'node:http';
import * as btc from '@scure/btc-signer';
import { LocalHttpServer } from '../local-http-server';
import { BitcoinChain, ChainTransaction } from './bitcoin-chain';
import {
  esploraAddressStats,
  esploraBlock,
  esploraStatus,
  esploraTransaction,
  hex,
} from './bitcoin-esplora-format';
import { BITCOIN_NETWORKS } from '@swapgw/chains/bitcoin-bridge';
import { BitcoinMiner } from './bitcoin-miner';
import { outputAt } from './bitcoin-transaction-parts';
import { BitcoinRejection } from './bitcoin-transaction-rules';

type Answer = { status: number; body: unknown };
type Route = {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: (params: string[], body: string) => Answer;
};

/** Esplora's confirmation targets in /fee-estimates. */
const FEE_TARGETS = [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008];
/** Esplora pages: 25 confirmed transactions per page, up to 50 mempool ones. */
const CHAIN_TXS_PAGE = 25;
const MEMPOOL_TXS_LIMIT = 50;
const TXID = '([0-9a-fA-F]{64})';
const ADDRESS = '([A-Za-z0-9]{14,90})';

/**
 * The Esplora HTTP API (Blockstream's esplora API.md) over a BitcoinChain, plus devnet-only
 * controls of its miner under /devnet/ (never used by production code):
 *   POST /devnet/mine                    {"blocks": n}? → [{height, hash}] mined now, paused or not
 *   POST /devnet/miner/pause | /resume   → the miner's state
 *   POST /devnet/miner/min-fee-rate      {"satsPerVbyte": n} → the state; blocks then take only
 *                                        transactions paying at least n sat/vB
 *   GET  /devnet/miner                   → {paused, blockMs, minFeeRate}
 */
export class BitcoinEsploraServer {
  private readonly http = new LocalHttpServer((req, res) => this.handle(req, res));
  private readonly routes: Route[];

  constructor(
    private readonly chain: BitcoinChain,
    private readonly miner: BitcoinMiner,
  ) {
    const get = (path: string, handle: Route['handle']): Route => ({
      method: 'GET',
      pattern: new RegExp(`^${path}$`),
      handle,
    });
    const post = (path: string, handle: Route['handle']): Route => ({
      method: 'POST',
      pattern: new RegExp(`^${path}$`),
      handle,
    });
    this.routes = [
      post('/tx', (_, body) => this.broadcast(body)),
      get(`/tx/${TXID}`, ([txid]) => this.withTx(txid, (entry) => json(this.transactionJson(entry)))),
      get(`/tx/${TXID}/status`, ([txid]) => this.withTx(txid, (entry) => json(esploraStatus(entry)))),
      get(`/tx/${TXID}/hex`, ([txid]) => this.withTx(txid, (entry) => text(hex(entry.raw)))),
      get(`/tx/${TXID}/outspend/(\\d+)`, ([txid, vout]) => this.outspend(txid, Number(vout))),
      get(`/tx/${TXID}/outspends`, ([txid]) =>
        this.withTx(txid, (entry) =>
          json(
            Array.from({ length: entry.tx.outputsLength }, (_, vout) => this.outspendOf(entry.txid, vout)),
          ),
        ),
      ),
      get(`/address/${ADDRESS}`, ([address]) =>
        this.withAddress(address, (script) => ({
          status: 200,
          body: { address, ...esploraAddressStats(script, this.chain.transactionsOf(script)) },
        })),
      ),
      get(`/address/${ADDRESS}/utxo`, ([address]) =>
        this.withAddress(address, (script) => this.utxos(script)),
      ),
      get(`/address/${ADDRESS}/txs`, ([address]) =>
        this.withAddress(address, (script) => {
          const all = this.chain.transactionsOf(script);
          const mempool = all.filter((e) => !e.block).slice(0, MEMPOOL_TXS_LIMIT);
          const confirmed = all.filter((e) => e.block).slice(0, CHAIN_TXS_PAGE);
          return json([...mempool, ...confirmed].map((entry) => this.transactionJson(entry)));
        }),
      ),
      get(`/address/${ADDRESS}/txs/mempool`, ([address]) =>
        this.withAddress(address, (script) =>
          json(
            this.chain
              .transactionsOf(script)
              .filter((e) => !e.block)
              .slice(0, MEMPOOL_TXS_LIMIT)
              .map((entry) => this.transactionJson(entry)),
          ),
        ),
      ),
      get(`/address/${ADDRESS}/txs/chain(?:/${TXID})?`, ([address, lastSeen]) =>
        this.withAddress(address, (script) => {
          const confirmed = this.chain.transactionsOf(script).filter((e) => e.block);
          const start = lastSeen ? confirmed.findIndex((e) => e.txid === lastSeen.toLowerCase()) + 1 : 0;
          return json(
            confirmed.slice(start, start + CHAIN_TXS_PAGE).map((entry) => this.transactionJson(entry)),
          );
        }),
      ),
      get('/blocks/tip/height', () => text(String(this.chain.tip.height))),
      get('/blocks/tip/hash', () => text(this.chain.tip.hash)),
      get('/blocks(?:/(\\d+))?', ([start]) => {
        const from = Math.min(
          start === undefined ? this.chain.tip.height : Number(start),
          this.chain.tip.height,
        );
        const blocks = this.chain.blocks.slice(Math.max(0, from - 9), from + 1).reverse();
        return json(blocks.map((b) => esploraBlock(b, this.chain)));
      }),
      get('/block-height/(\\d+)', ([height]) => {
        const block = this.chain.blocks[Number(height)];
        return block ? text(block.hash) : notFound('Block not found');
      }),
      get(`/block/${TXID}`, ([hash]) =>
        this.withBlock(hash, (block) => json(esploraBlock(block, this.chain))),
      ),
      get(`/block/${TXID}/status`, ([hash]) =>
        this.withBlock(hash, (block) =>
          json({
            in_best_chain: true,
            height: block.height,
            next_best: this.chain.blocks[block.height + 1]?.hash ?? null,
          }),
        ),
      ),
      get(`/block/${TXID}/txids`, ([hash]) => this.withBlock(hash, (block) => json(block.txids))),
      get(`/block/${TXID}/txs(?:/(\\d+))?`, ([hash, start]) =>
        this.withBlock(hash, (block) => {
          const from = Number(start ?? 0);
          if (from % CHAIN_TXS_PAGE !== 0 || (from > 0 && from >= block.txids.length))
            return { status: 400, body: 'start index out of range or not a multiple of 25' };
          return json(
            block.txids
              .slice(from, from + CHAIN_TXS_PAGE)
              .map((txid) => this.transactionJson(this.chain.knownTransaction(txid))),
          );
        }),
      ),
      get('/fee-estimates', () =>
        json(
          Object.fromEntries(FEE_TARGETS.map((target) => [String(target), this.chain.feeEstimate(target)])),
        ),
      ),
      get('/mempool', () => {
        const entries = this.chain.mempoolTransactions();
        return json({
          count: entries.length,
          vsize: entries.reduce((sum, e) => sum + e.vsize, 0),
          total_fee: entries.reduce((sum, e) => sum + Number(e.fee), 0),
        });
      }),
      get('/mempool/txids', () => json(this.chain.mempoolTransactions().map((e) => e.txid))),
      get('/devnet/miner', () => json(this.minerState())),
      post('/devnet/mine', (_, body) => {
        const blocks =
          body.trim() === '' ? 1 : Number((JSON.parse(body) as { blocks?: unknown }).blocks ?? 1);
        if (!Number.isInteger(blocks) || blocks < 1 || blocks > 1000)
          return { status: 400, body: 'blocks must be an integer from 1 to 1000' };
        return json(this.miner.mineNow(blocks).map((b) => ({ height: b.height, hash: b.hash })));
      }),
      post('/devnet/miner/pause', () => {
        this.miner.pause();
        return json(this.minerState());
      }),
      post('/devnet/miner/resume', () => {
        this.miner.resume();
        return json(this.minerState());
      }),
      post('/devnet/miner/min-fee-rate', (_, body) => {
        const rate = (JSON.parse(body) as { satsPerVbyte?: unknown }).satsPerVbyte;
        if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 1)
          return { status: 400, body: 'satsPerVbyte must be a number of at least 1 (the minimum relay fee)' };
        this.chain.minFeeRate = rate;
        return json(this.minerState());
      }),
    ];
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return this.http.listen(port, host);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/';
    let answer: Answer = { status: 404, body: 'Not Found' };
    for (const route of this.routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      if (route.method !== req.method) {
        answer = { status: 405, body: 'Method Not Allowed' };
        continue;
      }
      try {
        answer = route.handle(match.slice(1), Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        answer = { status: 400, body: (error as Error).message };
      }
      break;
    }
    const isText = typeof answer.body === 'string';
    res.writeHead(answer.status, {
      'content-type': isText ? 'text/plain' : 'application/json',
      'access-control-allow-origin': '*',
    });
    res.end(isText ? answer.body : JSON.stringify(answer.body));
  }

  private broadcast(body: string): Answer {
    try {
      return text(this.chain.submit(body));
    } catch (error) {
      if (!(error instanceof BitcoinRejection)) throw error;
      // esplora relays bitcoind's error as it is, prefixed with the RPC it called.
      return {
        status: 400,
        body: `sendrawtransaction RPC error: ${JSON.stringify({ code: error.code, message: error.message })}`,
      };
    }
  }

  private utxos(script: Uint8Array): Answer {
    const scriptHex = hex(script);
    const found: unknown[] = [];
    for (const entry of this.chain.transactionsOf(script)) {
      for (let vout = 0; vout < entry.tx.outputsLength; vout++) {
        const output = outputAt(entry.tx, vout);
        if (hex(output.script) !== scriptHex || !this.chain.isUnspent(entry.txid, vout)) continue;
        found.push({ txid: entry.txid, vout, status: esploraStatus(entry), value: Number(output.amount) });
      }
    }
    return json(found);
  }

  private outspend(txid: string, vout: number): Answer {
    return this.withTx(txid, (entry) =>
      vout < entry.tx.outputsLength ? json(this.outspendOf(entry.txid, vout)) : notFound('Output not found'),
    );
  }

  private outspendOf(txid: string, vout: number) {
    const spend = this.chain.outspend(txid, vout);
    if (!spend) return { spent: false };
    return {
      spent: true,
      txid: spend.txid,
      vin: spend.vin,
      status: esploraStatus(this.chain.knownTransaction(spend.txid)),
    };
  }

  private withTx(
    txid: string,
    answer: (entry: NonNullable<ReturnType<BitcoinChain['transaction']>>) => Answer,
  ) {
    const entry = this.chain.transaction(txid.toLowerCase());
    return entry ? answer(entry) : notFound('Transaction not found');
  }

  private withBlock(hash: string, answer: (block: BitcoinChain['blocks'][number]) => Answer): Answer {
    const block = this.chain.blocks.find((b) => b.hash === hash.toLowerCase());
    return block ? answer(block) : notFound('Block not found');
  }

  private withAddress(address: string, answer: (script: Uint8Array) => Answer): Answer {
    let script: Uint8Array;
    try {
      script = btc.OutScript.encode(btc.Address(BITCOIN_NETWORKS[this.chain.network]).decode(address));
    } catch {
      return { status: 400, body: 'Invalid Bitcoin address' };
    }
    return answer(script);
  }

  /** A transaction as Esplora lists it, its addresses on the chain's network. */
  private transactionJson(entry: ChainTransaction) {
    return esploraTransaction(entry, this.chain.network);
  }

  private minerState() {
    return { paused: this.miner.paused, blockMs: this.miner.blockMs, minFeeRate: this.chain.minFeeRate };
  }
}

const json = (body: unknown): Answer => ({ status: 200, body });
const text = (body: string): Answer => ({ status: 200, body });
const notFound = (message: string): Answer => ({ status: 404, body: message });
