import type { SigningRequestEntity } from '../signing-request.entity';
import { SPONSORED_PAYLOAD_ISSUES } from '../payload-kinds';

// How each sponsored step is issued is its payload kind's (payload-kinds/*/*.issue.ts).
export { SPONSORED_PAYLOAD_ISSUES } from '../payload-kinds';
export { payloadRequestOf } from '../payload-kinds/sponsored-issue';

/** True when the step's transaction is a relayer's (typed data the user signed), not one the user signed. */
export function carriedByRelayer(row: Pick<SigningRequestEntity, 'sponsored'>): boolean {
  return row.sponsored ? SPONSORED_PAYLOAD_ISSUES[row.sponsored.mode].relayed : false;
}

/** True when the service's fee payer co-signs the step's transaction once the user's signature is checked. */
export function feePayerSignsLater(row: Pick<SigningRequestEntity, 'sponsored'>): boolean {
  return row.sponsored ? SPONSORED_PAYLOAD_ISSUES[row.sponsored.mode].feePayerSignsLater : false;
}
