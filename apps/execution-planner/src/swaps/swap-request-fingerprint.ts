import { createHash } from 'node:crypto';
import { addressKeyByForm } from '@swapgw/chains';
import type { SwapBuildRequest } from '@swapgw/contracts';
import { canonicalFingerprint } from '@swapgw/runtime';

/**
 * What tells a retried `swap.build` from another request on the same swapId (the swapId is owner +
 * Idempotency-Key, so a key reused with other terms must be refused): the suite's one idempotency
 * fingerprint, `canonicalFingerprint`, of the request's terms, stored with a prefix that names it.
 */
const CANONICAL = 'canonical-json:';

/** The fingerprint stored on a swap built now. */
export function swapRequestFingerprint(request: SwapBuildRequest): string {
  return `${CANONICAL}${canonicalFingerprint(termsOf(request))}`;
}

/**
 * Whether `request` is the request the swap was built from. A fingerprint without the prefix was
 * stored before the planner used the suite's fingerprint (SHA-256 of this same object's
 * JSON.stringify, keys in the order termsOf writes them): it is compared the way it was made, so a
 * retry of a swap built before the change is still a retry.
 */
export function isSameSwapRequest(storedFingerprint: string, request: SwapBuildRequest): boolean {
  if (storedFingerprint.startsWith(CANONICAL)) return storedFingerprint === swapRequestFingerprint(request);
  return (
    storedFingerprint ===
    createHash('sha256')
      .update(JSON.stringify(termsOf(request)))
      .digest('hex')
  );
}

/** Everything that shapes the swap (all but the swapId), one spelling per value. */
function termsOf(request: SwapBuildRequest): Record<string, unknown> {
  return {
    owner: request.owner,
    quoteId: request.quoteId,
    routeId: request.routeId,
    // One spelling per address (EVM hex in any letter case is one address; base58 is as written).
    userAddress: addressKeyByForm(request.userAddress),
    // Only when told: the terms of builds without it stay what they were before the field existed.
    ...(request.userPublicKey !== undefined ? { userPublicKey: request.userPublicKey.toLowerCase() } : {}),
    recipient: request.recipient === undefined ? null : addressKeyByForm(request.recipient),
    permitType: request.permitType ?? null,
    permitDeadline: request.permitDeadline ?? null,
    permitSignature: request.permitSignature
      ? [request.permitSignature.v, request.permitSignature.r, request.permitSignature.s]
      : null,
    permitSignatureCompact: request.permitSignatureCompact
      ? [request.permitSignatureCompact.r, request.permitSignatureCompact.vs]
      : null,
    ...(request.permit2
      ? {
          permit2: [
            request.permit2.nonce,
            request.permit2.deadline ?? null,
            request.permit2.signature ?? null,
          ],
        }
      : {}),
    ...(request.gasPayment ? { gasPayment: request.gasPayment } : {}),
  };
}
