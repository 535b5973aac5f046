import { createHash } from 'node:crypto';
import { CodedError, ErrorCodes, type TransactionStatusResult } from '@swapgw/contracts';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { BroadcastOutcome, ChainStatusClient } from '../chain-family';

export const COSMOS_TX_HASH = /^[0-9a-fA-F]{64}$/;

/** The CometBFT code of a tx the mempool holds already (the SDK's ErrTxInMempoolCache, code 19). */
const TX_IN_MEMPOOL = 19;

/** A Cosmos chain as the status look-ups know it: its API id and its CometBFT RPC. */
export interface CosmosChainRef {
  id: string;
  rpcUrl: string;
}

/** Throws INVALID_TX_HASH unless `txHash` is 64 hex digits (any case, no 0x); returns it uppercase. */
export function canonicalCosmosTxHash(chain: string, txHash: string): string {
  if (typeof txHash !== 'string' || !COSMOS_TX_HASH.test(txHash)) {
    throw new CodedError(ErrorCodes.INVALID_TX_HASH, 'A Cosmos tx hash is 64 hex digits (no 0x prefix)', {
      chain,
      txHash,
    });
  }
  return txHash.toUpperCase();
}

/** An ABCI event as CometBFT's RPC writes it (0.38: attributes as plain strings). */
export interface CometEvent {
  type: string;
  attributes: { key: string; value: string }[];
}

/** A committed tx as `/tx` and `tx_search` answer it (the fields read here). */
export interface CometTxResult {
  hash: string;
  height: string;
  tx_result: { code: number; codespace?: string; log?: string; events?: CometEvent[] };
}

/** How many of the mempool's txs `unconfirmed_txs` is asked for (CometBFT's maximum). */
const MEMPOOL_PAGE = 100;

class CometRpcError extends Error {
  constructor(
    readonly rpcCode: number | null,
    message: string,
    readonly data: string,
  ) {
    super(message);
  }
}

/**
 * A Cosmos chain for status look-ups and broadcasts over its CometBFT RPC (JSON-RPC POST), each call
 * bounded by `timeoutMs`. A tx `/tx` knows is committed: confirmed (CometBFT's blocks are final) when
 * its code is 0, else failed with `codespace/code: log` (its fee is paid all the same); one still in
 * the node's mempool (`unconfirmed_txs`, its first 100) is pending; one the node knows neither way
 * (evicted, never sent, sent to another node) is TRANSACTION_NOT_FOUND, as on Bitcoin.
 */
export class CosmosStatusClient {
  readonly family = 'cosmos' as const;

  constructor(
    readonly chain: CosmosChainRef,
    private readonly timeoutMs: number,
  ) {}

  assertTxHash(txHash: string): void {
    canonicalCosmosTxHash(this.chain.id, txHash);
  }

  async transactionStatus(txHash: string): Promise<TransactionStatusResult> {
    const chain = this.chain.id;
    const hash = canonicalCosmosTxHash(chain, txHash);
    const tx = await this.committed(hash);
    if (!tx && (await this.inMempool(hash))) return { txHash: hash, chain, status: 'pending' };
    if (!tx)
      throw new CodedError(
        ErrorCodes.TRANSACTION_NOT_FOUND,
        `Chain ${chain} does not know transaction ${hash}`,
        {
          chain,
          txHash: hash,
        },
      );
    if (tx.code !== 0) return { txHash: hash, chain, status: 'failed', error: tx.reason };
    return {
      txHash: hash,
      chain,
      status: 'confirmed',
      ...(tx.blockTimeMs !== null ? { confirmedAtMs: tx.blockTimeMs } : {}),
    };
  }

  /**
   * The committed transaction `txHash` (its block's height and time, its code and, failed,
   * `codespace/code: log`), or null when `/tx` does not know it; STATUS_UPSTREAM_ERROR otherwise.
   */
  async committed(
    txHash: string,
  ): Promise<{ height: number; code: number; reason: string; blockTimeMs: number | null } | null> {
    const tx = await this.committedTx(txHash);
    if (!tx) return null;
    const code = tx?.tx_result?.code;
    if (typeof code !== 'number' || typeof tx.height !== 'string')
      throw this.upstreamError(new Error('/tx answered without tx_result.code or height'));
    const { codespace, log } = tx.tx_result;
    const reason = code === 0 ? '' : `${codespace || 'sdk'}/${code}: ${log ?? ''}`.trim();
    if (code !== 0) return { height: Number(tx.height), code, reason, blockTimeMs: null };
    let blockTimeMs: number | null;
    try {
      const block = await this.call<{ block?: { header?: { time?: string } } }>('block', {
        height: tx.height,
      });
      const parsed = Date.parse(block?.block?.header?.time ?? '');
      blockTimeMs = Number.isFinite(parsed) ? parsed : null;
    } catch (error) {
      throw this.upstreamError(error);
    }
    return { height: Number(tx.height), code, reason, blockTimeMs };
  }

  /** Whether the node's mempool holds `hash` (an uppercase tx hash) among its first 100 txs. */
  private async inMempool(hash: string): Promise<boolean> {
    let pending: { txs?: string[] | null };
    try {
      pending = await this.call('unconfirmed_txs', { limit: String(MEMPOOL_PAGE) });
    } catch (error) {
      throw this.upstreamError(error);
    }
    return (pending?.txs ?? []).some(
      (tx) => createHash('sha256').update(Buffer.from(tx, 'base64')).digest('hex').toUpperCase() === hash,
    );
  }

  /** The committed tx `txHash` with its events, or null when `/tx` does not know it. */
  async committedTx(txHash: string): Promise<CometTxResult | null> {
    const hash = canonicalCosmosTxHash(this.chain.id, txHash);
    try {
      return await this.call<CometTxResult>('tx', {
        hash: Buffer.from(hash, 'hex').toString('base64'),
        prove: false,
      });
    } catch (error) {
      if (error instanceof CometRpcError && /not found/i.test(error.data)) return null;
      throw this.upstreamError(error);
    }
  }

  /**
   * The committed txs matching a CometBFT event query (`tx_search`, oldest first, the first 30): what
   * a relayer or an explorer asks of a node that indexes events.
   */
  async searchTxs(query: string): Promise<CometTxResult[]> {
    try {
      const found = await this.call<{ txs?: CometTxResult[] }>('tx_search', {
        query,
        prove: false,
        page: '1',
        per_page: '30',
        order_by: 'asc',
      });
      return found?.txs ?? [];
    } catch (error) {
      throw this.upstreamError(error);
    }
  }

  /**
   * The FinalizeBlock events of block `height` (CometBFT 0.38's `block_results`
   * `finalize_block_events`: the EndBlockers' work, e.g. x/forwarding's automatic forwards); null
   * when the node has no such block yet.
   */
  async blockEvents(height: number): Promise<CometEvent[] | null> {
    try {
      const results = await this.call<{ finalize_block_events?: CometEvent[] | null }>('block_results', {
        height: String(height),
      });
      return results?.finalize_block_events ?? [];
    } catch (error) {
      if (
        error instanceof CometRpcError &&
        /could not find results|must be less than or equal/i.test(error.data)
      )
        return null;
      throw this.upstreamError(error);
    }
  }

  /**
   * Sends a signed TxRaw (base64) with `broadcast_tx_sync`: CheckTx code 0 → sent; code 19 (already
   * in the mempool) → already-known; another code → rejected with `codespace/code: log`; no answer
   * → unreachable (the same bytes may be sent again).
   */
  async broadcastTxSync(rawTx: string): Promise<BroadcastOutcome> {
    let result: { code: number; codespace?: string; log?: string };
    try {
      result = await this.call('broadcast_tx_sync', { tx: rawTx });
    } catch (error) {
      if (error instanceof CometRpcError && error.rpcCode !== null) {
        // The node answered: a tx already committed is "tx already exists in cache" in CometBFT.
        if (/already exists in cache/i.test(error.data))
          return { kind: 'already-known', message: error.data };
        // A full mempool refuses nothing for good: the same bytes may be sent again.
        if (/mempool is full/i.test(error.data)) return { kind: 'unreachable', message: error.data };
        return { kind: 'rejected', message: `${error.message}: ${error.data}` };
      }
      return { kind: 'unreachable', message: (error as Error).message };
    }
    if (typeof result?.code !== 'number')
      return { kind: 'unreachable', message: 'broadcast_tx_sync answered no code' };
    if (result.code === 0) return { kind: 'sent' };
    const message = `${result.codespace || 'sdk'}/${result.code}: ${result.log ?? ''}`.trim();
    if (result.code === TX_IN_MEMPOOL && (result.codespace ?? 'sdk') === 'sdk')
      return { kind: 'already-known', message };
    return { kind: 'rejected', message };
  }

  private upstreamError(error: unknown): CodedError {
    return new CodedError(
      ErrorCodes.STATUS_UPSTREAM_ERROR,
      `The CometBFT RPC of chain ${this.chain.id} failed`,
      {
        chain: this.chain.id,
        reason: error instanceof CometRpcError ? `${error.message}: ${error.data}` : (error as Error).message,
      },
    );
  }

  private async call<T>(method: string, params: Record<string, unknown>): Promise<T> {
    const response = await fetch(this.chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    let body: { result?: T; error?: { code?: number; message?: string; data?: string } };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new Error(`${method} answered HTTP ${response.status}, not JSON`);
    }
    if (body?.error)
      throw new CometRpcError(
        body.error.code ?? null,
        body.error.message ?? 'RPC error',
        String(body.error.data ?? ''),
      );
    if (body?.result === undefined)
      throw new Error(`${method} answered HTTP ${response.status} without a result`);
    return body.result;
  }
}

/**
 * A listed Cosmos chain's status look-ups (ChainFamilies.status): GET /status/transaction answers
 * from the chain's CometBFT `/tx`, a hash of 64 hex digits in any case.
 */
export class CosmosChainStatusClient implements ChainStatusClient {
  readonly family = 'cosmos' as const;
  private readonly rpc: CosmosStatusClient;

  constructor(
    readonly chain: ChainDescriptor,
    timeoutMs: number,
  ) {
    if (!chain.rpcUrl) throw new Error(`Chain ${chain.id} has no CometBFT RPC`);
    this.rpc = new CosmosStatusClient({ id: chain.id, rpcUrl: chain.rpcUrl }, timeoutMs);
  }

  assertTxHash(txHash: string): void {
    this.rpc.assertTxHash(txHash);
  }

  transactionStatus(txHash: string): Promise<TransactionStatusResult> {
    return this.rpc.transactionStatus(txHash);
  }
}
