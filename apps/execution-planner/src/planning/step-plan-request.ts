import { CodedError, ErrorCodes, GasPayment, Permit2Payload, PermitType } from '@swapgw/contracts';

/** The part of a swap.build request that shapes the steps. */
export interface StepPlanRequest {
  userAddress: string;
  /** userAddress's public key (a Bitcoin Taproot or nested-SegWit wallet names it). */
  userPublicKey?: string;
  recipient?: string;
  permitType?: PermitType;
  gasPayment?: GasPayment;
  permitDeadline?: number;
  permitSignature?: { v: number; r: string; s: string };
  permitSignatureCompact?: { r: string; vs: string };
  permit2?: Permit2Payload;
}

/**
 * Who pays the swap's gas: the request's gasPayment, else `user` when the build carries its own
 * permit (permitType or a permit signature: the wallet sends the router call), else `sponsored`.
 * gasPayment sponsored together with permit fields is 400 VALIDATION_FAILED.
 */
export function gasPaymentOf(request: StepPlanRequest): GasPayment {
  const permitField = [
    'permitType',
    'permitSignature',
    'permitSignatureCompact',
    'permit2',
    'permitDeadline',
  ].find((field) => request[field as keyof StepPlanRequest] !== undefined);
  if (request.gasPayment === 'sponsored' && permitField) {
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      `${permitField} belongs to a user-paid build (the wallet sends the router call); a sponsored swap asks for its permits as typed-data steps`,
      { field: permitField },
    );
  }
  return request.gasPayment ?? (permitField ? 'user' : 'sponsored');
}
