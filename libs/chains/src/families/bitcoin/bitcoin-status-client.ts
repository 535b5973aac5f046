import type { TransactionStatusResult } from '@swapgw/contracts';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { ChainStatusClient } from '../chain-family';
import { assertBitcoinTxid, EsploraTransactionStatus } from './esplora-transaction-status';

/** A Bitcoin chain for status look-ups, over its Esplora API (no signing surface). */
export class BitcoinStatusClient implements ChainStatusClient {
  readonly family = 'bitcoin' as const;
  private readonly esplora: EsploraTransactionStatus;

  constructor(
    readonly chain: ChainDescriptor,
    statusApiUrl: string,
    timeoutMs: number,
  ) {
    this.esplora = new EsploraTransactionStatus(statusApiUrl, timeoutMs);
  }

  assertTxHash(txHash: string): void {
    assertBitcoinTxid(this.chain.id, txHash);
  }

  transactionStatus(txHash: string): Promise<TransactionStatusResult> {
    return this.esplora.status(this.chain.id, txHash);
  }
}
