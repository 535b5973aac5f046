import { CodedError, ErrorCodes, TransactionStatusRequest, TransactionStatusResult } from '@swapgw/contracts';
import { SignerChains } from '../chains/signer-chains';
import { EsploraTransactionStatus } from './esplora-transaction-status';
import { evmTransactionStatus } from './evm-transaction-status';

/**
 * status.transaction: routes a look-up to the chain family's adapter. EVM over the chain's RPC,
 * Bitcoin over its Esplora API (ESPLORA_URL_BITCOIN); Solana answers SIGNING_SURFACE_UNAVAILABLE
 * until the Solana issue brings its adapter.
 */
export class TransactionStatusService {
  private readonly esplora = new Map<string, EsploraTransactionStatus>();

  constructor(
    private readonly chains: SignerChains,
    private readonly httpTimeoutMs: number,
  ) {}

  async status(request: TransactionStatusRequest): Promise<TransactionStatusResult> {
    const txHash = request.txHash.trim();
    const chain = this.chains.find(request.chain);
    if (!chain) {
      throw new CodedError(ErrorCodes.UNKNOWN_CHAIN, `chainRef ${request.chain} is not a chain of GET /chains`, { chainRef: request.chain });
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
      case 'solana':
        throw new CodedError(ErrorCodes.SIGNING_SURFACE_UNAVAILABLE, 'Transaction status for Solana is not available yet', { chainRef: chain.id });
    }
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
