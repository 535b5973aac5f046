import { Injectable } from '@nestjs/common';
import {
  ErrorCodes,
  SigningRequestTypes,
  Topics,
  TransactionStatusRequest,
  TransactionStatusResult,
} from '@swapgw/contracts';
import { ServiceClient } from '../messaging/service-client';

/**
 * Transaction status is looked up by signer-surface, which holds the chains' RPC and status APIs.
 * Its answer codes (UNKNOWN_CHAIN, INVALID_TX_HASH, TRANSACTION_NOT_FOUND, STATUS_UPSTREAM_ERROR)
 * pass through. No answer in time is a failed upstream look-up too: 502, as the spec lists for
 * this endpoint. The bound exceeds signer-surface's own RPC timeout (10 s), so a slow chain
 * answers with its own reason rather than this one.
 */
@Injectable()
export class StatusService {
  static readonly LOOKUP_TIMEOUT_MS = 15_000;

  constructor(private readonly services: ServiceClient) {}

  transaction(chainRef: string, txHash: string): Promise<TransactionStatusResult> {
    const request: TransactionStatusRequest = { chain: chainRef, txHash };
    return this.services.call(
      Topics.signingRequests,
      SigningRequestTypes.transactionStatus,
      txHash,
      request,
      {
        timeoutMs: StatusService.LOOKUP_TIMEOUT_MS,
        unavailableAs: ErrorCodes.STATUS_UPSTREAM_ERROR,
      },
    );
  }
}
