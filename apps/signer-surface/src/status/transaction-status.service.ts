import { Injectable } from '@nestjs/common';
import { CodedError, ErrorCodes, TransactionStatusRequest, TransactionStatusResult } from '@swapgw/contracts';
import { acrossTransferOf } from '@swapgw/chains/families';
import { SignerChains } from '../chains/signer-chains';

/**
 * status.transaction: asks the chain's family client (@swapgw/chains/families). EVM over the chain's
 * RPC, Bitcoin over its Esplora API (ESPLORA_URL_BITCOIN), Solana over its RPC
 * (getSignatureStatuses, getTransaction), each bounded by RPC_TIMEOUT_MS. The hash's form is
 * checked first (INVALID_TX_HASH, 400) so a malformed hash is the caller's error on every chain; a
 * well-formed hash on a listed chain with no RPC or status API configured in this deployment answers
 * STATUS_UPSTREAM_ERROR (502, the contract's upstream error).
 *
 * A confirmed deposit into a bridge protocol's contract (an Across SpokePool of the chain's
 * deployments) also answers `bridge`: the deposit as the protocol identifies it and its fill on the
 * destination chain, so one look-up follows a transfer across chains.
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
    const result = await client.transactionStatus(txHash);
    if (result.status !== 'confirmed') return result;
    // The transaction's own status stands even when the bridge's side cannot be read this time.
    const bridge = await acrossTransferOf(
      this.chains.registry,
      request.chain,
      txHash,
      this.chains.rpcTimeoutMs,
    ).catch(() => undefined);
    return bridge ? { ...result, bridge } : result;
  }
}
