import { CodedError, ErrorCodes, TransactionStatusResult } from '@swapgw/contracts';

export const BITCOIN_TXID = /^[0-9a-fA-F]{64}$/;

export function assertBitcoinTxid(chain: string, txHash: string): void {
  if (!BITCOIN_TXID.test(txHash)) {
    throw new CodedError(ErrorCodes.INVALID_TX_HASH, 'A Bitcoin txid is 64 hex digits (no 0x prefix)', {
      chain,
      txHash,
    });
  }
}

/** `GET /tx/:txid/status` of the Esplora HTTP API (Blockstream esplora API.md). */
interface EsploraTxStatus {
  confirmed: boolean;
  block_height?: number;
  block_hash?: string;
  block_time?: number;
}

/**
 * Bitcoin transaction status from an Esplora-compatible HTTP API (esplora, electrs, mempool.space):
 * in the mempool → pending, in a block → confirmed with confirmedAtMs = block_time. Bitcoin has no
 * failed-but-mined transactions: an invalid one is never mined, so it is simply not found.
 */
export class EsploraTransactionStatus {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async status(chain: string, txHash: string): Promise<TransactionStatusResult> {
    assertBitcoinTxid(chain, txHash);
    const txid = txHash.toLowerCase();
    const url = `${this.baseUrl.replace(/\/+$/, '')}/tx/${txid}/status`;
    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, `The Bitcoin status API is unreachable`, {
        chain,
        reason: (error as Error).message,
      });
    }
    // Esplora answers an unknown txid with 404 "Transaction not found" (older versions: 400).
    if (
      response.status === 404 ||
      (response.status === 400 && /not found/i.test(await response.clone().text()))
    ) {
      throw new CodedError(
        ErrorCodes.TRANSACTION_NOT_FOUND,
        `Chain ${chain} does not know transaction ${txid}`,
        { chain, txHash: txid },
      );
    }
    if (!response.ok) {
      throw new CodedError(
        ErrorCodes.STATUS_UPSTREAM_ERROR,
        `The Bitcoin status API answered ${response.status}`,
        { chain },
      );
    }
    let body: EsploraTxStatus;
    try {
      body = (await response.json()) as EsploraTxStatus;
    } catch {
      throw new CodedError(
        ErrorCodes.STATUS_UPSTREAM_ERROR,
        'The Bitcoin status API answered something that is not JSON',
        { chain },
      );
    }
    if (typeof body?.confirmed !== 'boolean') {
      throw new CodedError(
        ErrorCodes.STATUS_UPSTREAM_ERROR,
        'The Bitcoin status API answered without `confirmed`',
        { chain },
      );
    }
    if (!body.confirmed) return { txHash: txid, chain, status: 'pending' };
    return {
      txHash: txid,
      chain,
      status: 'confirmed',
      ...(typeof body.block_time === 'number' ? { confirmedAtMs: body.block_time * 1000 } : {}),
    };
  }
}
