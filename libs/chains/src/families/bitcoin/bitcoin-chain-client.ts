import type { BroadcastOutcome, TransactionProgress } from '../chain-family';
import type { BitcoinUtxo } from './bitcoin-step-psbt';
import { BITCOIN_TXID } from './esplora-transaction-status';

/** The Esplora API could not be reached, timed out or answered 5xx: the same call may be made again. */
export class BitcoinApiUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BitcoinApiUnreachable';
  }
}

/** A UTXO as Esplora lists it, with whether it is in a block yet. */
export interface BitcoinAddressUtxo extends BitcoinUtxo {
  confirmed: boolean;
  blockHeight: number | null;
}

/** Sat/vB the network asks now, by confirmation target (blocks), from `GET /fee-estimates`. */
export type BitcoinFeeRates = ReadonlyMap<number, number>;

interface EsploraStats {
  funded_txo_sum: number;
  spent_txo_sum: number;
}

type Fetch = typeof fetch;

/** Esplora's texts (from bitcoind) for a transaction it already has. */
const ALREADY_KNOWN = /txn-already-in-mempool|txn-already-known|transaction already in block chain/i;

/**
 * A Bitcoin chain read and written through an Esplora HTTP API (Blockstream esplora, electrs,
 * mempool.space; the devnet serves the same API): balances, UTXOs, broadcast, where a transaction
 * stands, fee rates. Every call is bounded by `timeoutMs`. What it answers has the shape of the
 * signing families' client (BroadcastOutcome, TransactionProgress) so it can become one.
 */
export class BitcoinChainClient {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
    private readonly fetchFn: Fetch = fetch,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Satoshis of `address`, confirmed plus mempool (spends in the mempool already count). */
  async readBalance(address: string): Promise<bigint> {
    const body = await this.json<{ chain_stats: EsploraStats; mempool_stats: EsploraStats }>(
      `/address/${encodeURIComponent(address)}`,
    );
    const net = (s: EsploraStats) => BigInt(s.funded_txo_sum) - BigInt(s.spent_txo_sum);
    return net(body.chain_stats) + net(body.mempool_stats);
  }

  /** The unspent outputs of `address`, those in the mempool included. */
  async utxos(address: string): Promise<BitcoinAddressUtxo[]> {
    const body = await this.json<
      { txid: string; vout: number; value: number; status: { confirmed: boolean; block_height?: number } }[]
    >(`/address/${encodeURIComponent(address)}/utxo`);
    return body.map((u) => ({
      txid: u.txid,
      vout: u.vout,
      value: BigInt(u.value),
      address,
      confirmed: u.status.confirmed,
      blockHeight: u.status.block_height ?? null,
    }));
  }

  /**
   * `POST /tx` of the raw transaction (hex). A 400 is the node refusing it: `already-known` when it
   * has it (in the mempool or a block), `rejected` otherwise; no answer or a 5xx is `unreachable`.
   */
  async broadcast(rawTxHex: string): Promise<BroadcastOutcome> {
    let response: Response;
    try {
      response = await this.fetchFn(`${this.baseUrl}/tx`, {
        method: 'POST',
        body: rawTxHex,
        headers: { 'content-type': 'text/plain' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { kind: 'unreachable', message: (error as Error).message };
    }
    const text = (await response.text().catch(() => '')).trim();
    if (response.ok) return { kind: 'sent' };
    if (response.status >= 500) return { kind: 'unreachable', message: `${response.status} ${text}` };
    return ALREADY_KNOWN.test(text)
      ? { kind: 'already-known', message: text }
      : { kind: 'rejected', message: text };
  }

  /**
   * Where `txid` stands: unknown (404), in the mempool, or in a block with its confirmations (the
   * tip's height − the block's + 1), confirmed once they reach `confirmationsRequired`. A Bitcoin
   * transaction never fails on chain: an invalid one is never mined.
   */
  async progress(txid: string, confirmationsRequired: number): Promise<TransactionProgress> {
    if (!BITCOIN_TXID.test(txid)) throw new Error(`${txid} is not a Bitcoin txid`);
    const status = await this.json<{ confirmed: boolean; block_height?: number; block_time?: number } | null>(
      `/tx/${txid.toLowerCase()}/status`,
      { notFound: null },
    );
    if (status === null) return { kind: 'unknown' };
    if (!status.confirmed || status.block_height === undefined) return { kind: 'in-pool' };
    const tip = await this.json<number>('/blocks/tip/height');
    const confirmations = Math.max(0, tip - status.block_height + 1);
    const at = { blockNumber: status.block_height, confirmations, required: confirmationsRequired };
    return confirmations >= confirmationsRequired
      ? {
          kind: 'confirmed',
          ...at,
          blockTimeMs: status.block_time === undefined ? null : status.block_time * 1000,
        }
      : { kind: 'included', ...at };
  }

  /** `GET /tx/:txid/outspend/:vout`: the txid that spends the output, null while it is unspent. */
  async spenderOf(txid: string, vout: number): Promise<string | null> {
    const body = await this.json<{ spent: boolean; txid?: string }>(
      `/tx/${txid.toLowerCase()}/outspend/${vout}`,
    );
    return body.spent ? (body.txid ?? null) : null;
  }

  /** `GET /fee-estimates`: sat/vB by confirmation target in blocks. */
  async feeRates(): Promise<BitcoinFeeRates> {
    const body = await this.json<Record<string, number>>('/fee-estimates');
    return new Map(
      Object.entries(body)
        .map(([target, rate]) => [Number(target), rate] as const)
        .filter(([target, rate]) => Number.isInteger(target) && Number.isFinite(rate) && rate > 0)
        .sort(([a], [b]) => a - b),
    );
  }

  isUnreachable(error: unknown): boolean {
    return error instanceof BitcoinApiUnreachable;
  }

  private async json<T>(path: string, options: { notFound?: T } = {}): Promise<T> {
    let response: Response;
    try {
      response = await this.fetchFn(`${this.baseUrl}${path}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new BitcoinApiUnreachable(`GET ${path}: ${(error as Error).message}`);
    }
    if (response.status === 404 && 'notFound' in options) return options.notFound as T;
    if (response.status >= 500) throw new BitcoinApiUnreachable(`GET ${path}: ${response.status}`);
    const text = await response.text();
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`GET ${path} answered something that is not JSON`);
    }
  }
}
