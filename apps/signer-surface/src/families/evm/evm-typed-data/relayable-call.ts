import { CodedError, ErrorCodes, EvmTypedDataSigningPayload, SponsoredStepSpec } from '@swapgw/contracts';
import { encodeSponsoredCall, recoverTypedDataSigner, SponsoredIntentError } from '@swapgw/chains';
import type { SponsoredPurpose } from '../../../sponsorship/gas-sponsor';

/** What the relayer sends for a verified signature. */
export interface RelayableCall {
  to: string;
  data: string;
  purpose: SponsoredPurpose;
}

/**
 * Checks that `signature` is `from`'s over the issued typed data and turns it into the relayer's
 * call. A signature by another key, or over other data, is TX_REQUEST_MISMATCH (409), refused
 * before any gas is spent; the contract checks it again on chain (Permit2 / the token's permit).
 */
export function relayableCallOf(
  payload: EvmTypedDataSigningPayload,
  sponsored: SponsoredStepSpec | undefined,
  from: string,
  signature: string,
  step: Record<string, unknown>,
): RelayableCall {
  let signer: string;
  try {
    signer = recoverTypedDataSigner(payload.typedData, signature.trim());
  } catch (error) {
    throw new CodedError(
      ErrorCodes.TX_REQUEST_MISMATCH,
      `The signature cannot be over the issued typed data: ${(error as Error).message}`,
      {
        ...step,
        mismatches: [{ field: 'signature', expected: `a signature of ${from}`, actual: signature }],
      },
    );
  }
  if (signer.toLowerCase() !== from.toLowerCase()) {
    throw new CodedError(
      ErrorCodes.TX_REQUEST_MISMATCH,
      `The typed data was signed by ${signer}, not by ${from}`,
      {
        ...step,
        mismatches: [{ field: 'signer', expected: from, actual: signer }],
      },
    );
  }
  try {
    const call = encodeSponsoredCall(payload.typedData, from, signature.trim());
    return {
      to: call.to,
      data: call.data,
      purpose: sponsored?.mode === 'eip2612-permit' ? 'permit' : 'intent',
    };
  } catch (error) {
    if (error instanceof SponsoredIntentError)
      throw new CodedError(ErrorCodes.TX_REQUEST_INVALID, error.message, step);
    throw error;
  }
}
