import { Injectable } from '@nestjs/common';
import { CodedError, ErrorCodes, TransactionStatusRequest, TransactionStatusResult } from '@swapgw/contracts';
import { SignerChains } from '../chains/signer-chains';

/**
 * status.transaction: asks the chain's family client (@swapgw/chains/families). EVM over the chain's
 * RPC, Bitcoin over its Esplora API (ESPLORA_URL_BITCOIN), Solana over its RPC
 * (getSignatureStatuses, getTransaction), each bounded by RPC_TIMEOUT_MS. The hash's form is
 * checked first (INVALID_TX_HASH, 400) so a malformed hash is the caller's error on every chain; a
 * well-formed hash on a listed chain with no RPC or status API configured in this deployment answers
 * STATUS_UPSTREAM_ERROR (502, the contract's upstream error).
 */
@Injectable()
export class TransactionStatusService {
  constructor(private readonly chains: SignerChains) {}

  async status(request: TransactionStatusRequest): Promise<TransactionStatusResult> {
    const txHash = request.txHash.trim();
    const client = this.chains.status(request.chain);
    if (!client) {
      throw new CodedError(
        ErrorCodes.UNKNOWN_CHAIN,
        `chainRef ${request.chain} is not a chain of GET /chains`,
        { chainRef: request.chain },
      );
    }
    client.assertTxHash(txHash);
    return client.transactionStatus(txHash);
  }
}
