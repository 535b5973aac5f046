import { CodedError, ErrorCodes, TransactionStatusRequest, TransactionStatusResult } from '@swapgw/contracts';
import { SignerChains } from '../chains/signer-chains';
import { EsploraTransactionStatus } from './esplora-transaction-status';
import { evmTransactionStatus } from './evm-transaction-status';

/** Chain id of Bitcoin mainnet in the API (its status comes from ESPLORA_URL_BITCOIN). */
export const BITCOIN_CHAIN_ID = 'bitcoin';

/**
 * status.transaction: routes a look-up to the chain family's adapter. EVM over the chain's RPC,
 * Bitcoin over an Esplora API; Solana answers SIGNING_SURFACE_UNAVAILABLE until its issue lands.
 */
export class TransactionStatusService {
  constructor(
    private readonly chains: SignerChains,
    private readonly bitcoin: EsploraTransactionStatus | undefined,
  ) {}

  async status(request: TransactionStatusRequest): Promise<TransactionStatusResult> {
    const txHash = request.txHash.trim();
    if (request.chain === BITCOIN_CHAIN_ID && this.bitcoin) return this.bitcoin.status(request.chain, txHash);
    const chain = this.chains.find(request.chain);
    if (!chain) {
      throw new CodedError(ErrorCodes.UNKNOWN_CHAIN, `chainRef ${request.chain} is not a chain of GET /chains`, { chainRef: request.chain });
    }
    if (chain.family === 'solana') {
      throw new CodedError(ErrorCodes.SIGNING_SURFACE_UNAVAILABLE, 'Transaction status for Solana is not available yet', { chainRef: chain.id });
    }
    const surface = this.chains.evmSurface(chain.id);
    if (!surface.ok) {
      throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, `No RPC is configured for chain ${chain.id}`, { chainRef: chain.id, reason: surface.reason });
    }
    return evmTransactionStatus(surface.provider, chain.id, txHash);
  }
}
