import { Inject, Injectable } from '@nestjs/common';
import { CodedError, ErrorCodes, TransactionStatusRequest, TransactionStatusResult } from '@swapgw/contracts';
import { SignerChains } from '../chains/signer-chains';
import { assertBitcoinTxid, EsploraTransactionStatus } from './esplora-transaction-status';
import { assertEvmTxHash, evmTransactionStatus } from './evm-transaction-status';
import { assertSolanaSignature, createSolanaConnection, solanaTransactionStatus } from '../signing/solana/solana-transaction-status';
import { Connection } from '@solana/web3.js';

/** How long a status look-up may wait on a chain's RPC or status API (RPC_TIMEOUT_MS). */
export const TRANSACTION_STATUS_TIMEOUT_MS = Symbol('TransactionStatusTimeoutMs');

/**
 * status.transaction: routes a look-up to the chain family's adapter. EVM over the chain's RPC,
 * Bitcoin over its Esplora API (ESPLORA_URL_BITCOIN), Solana over its RPC (getSignatureStatuses,
 * getTransaction). The hash's form is checked first (INVALID_TX_HASH, 400) so a malformed hash is
 * the caller's error on every chain; a well-formed hash on a listed chain with no RPC or status API
 * configured in this deployment answers STATUS_UPSTREAM_ERROR (502, the contract's upstream error).
 */
@Injectable()
export class TransactionStatusService {
  private readonly esplora = new Map<string, EsploraTransactionStatus>();
  private readonly solana = new Map<string, Connection>();

  constructor(
    private readonly chains: SignerChains,
    @Inject(TRANSACTION_STATUS_TIMEOUT_MS) private readonly httpTimeoutMs: number,
  ) {}

  async status(request: TransactionStatusRequest): Promise<TransactionStatusResult> {
    const txHash = request.txHash.trim();
    const chain = this.chains.find(request.chain);
    if (!chain) {
      throw new CodedError(ErrorCodes.UNKNOWN_CHAIN, `chainRef ${request.chain} is not a chain of GET /chains`, { chainRef: request.chain });
    }
    switch (chain.family) {
      case 'evm':
        assertEvmTxHash(chain.id, txHash);
        break;
      case 'bitcoin':
        assertBitcoinTxid(chain.id, txHash);
        break;
      case 'solana':
        assertSolanaSignature(txHash);
        break;
    }
    switch (chain.family) {
      case 'evm': {
        const surface = this.chains.evmSurface(chain.id);
        if (!surface.ok) {
          throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, `No RPC is configured for chain ${chain.id}`, { chainRef: chain.id, reason: surface.reason });
        }
        return evmTransactionStatus(surface.provider, chain.id, txHash);
      }
      case 'bitcoin': {
        if (!chain.statusApiUrl) {
          throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, `No status API is configured for chain ${chain.id} (${chain.statusApiEnv})`, { chainRef: chain.id });
        }
        return this.esploraFor(chain.id, chain.statusApiUrl).status(chain.id, txHash);
      }
      case 'solana': {
        if (!chain.rpcUrl) {
          throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, `No RPC is configured for chain ${chain.id} (${chain.rpcEnv})`, { chainRef: chain.id });
        }
        return solanaTransactionStatus(this.solanaFor(chain.id, chain.rpcUrl), chain.id, txHash);
      }
    }
  }

  private solanaFor(chainId: string, rpcUrl: string): Connection {
    let connection = this.solana.get(chainId);
    if (!connection) {
      connection = createSolanaConnection(rpcUrl, this.httpTimeoutMs);
      this.solana.set(chainId, connection);
    }
    return connection;
  }

  private esploraFor(chainId: string, url: string): EsploraTransactionStatus {
    let adapter = this.esplora.get(chainId);
    if (!adapter) {
      adapter = new EsploraTransactionStatus(url, this.httpTimeoutMs);
      this.esplora.set(chainId, adapter);
    }
    return adapter;
  }
}
