import { isError } from 'ethers';
import { isRpcUnreachable, shortMessageOf } from '@swapgw/chains';

/**
 * What a failed eth_sendRawTransaction means for a relayer:
 * - `already-known`: the node has this very transaction; it was sent, nothing to undo;
 * - `nonce-used`: the nonce was taken meanwhile (a transaction of the account mined or pending
 *   that the pending nonce did not show yet): take a fresh nonce;
 * - `underpriced`: the pool holds another transaction with this nonce and fees too close to it;
 * - `insufficient-funds`: the account cannot pay gas limit × fee cap + value;
 * - `unreachable`: no answer, so unknown whether it was taken;
 * - `refused`: anything else (the node will not take this transaction as it is).
 */
export type BroadcastFailure =
  'already-known' | 'nonce-used' | 'underpriced' | 'insufficient-funds' | 'unreachable' | 'refused';

export function broadcastFailureOf(error: unknown): BroadcastFailure {
  if (/already known|known transaction|already imported/i.test(shortMessageOf(error))) return 'already-known';
  if (isError(error, 'NONCE_EXPIRED')) return 'nonce-used';
  if (isError(error, 'REPLACEMENT_UNDERPRICED')) return 'underpriced';
  if (isError(error, 'INSUFFICIENT_FUNDS')) return 'insufficient-funds';
  if (isRpcUnreachable(error)) return 'unreachable';
  return 'refused';
}
