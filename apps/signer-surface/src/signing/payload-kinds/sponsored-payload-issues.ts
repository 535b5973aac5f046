import type { SigningRequestEntity } from '../signing-request.entity';
import { SPONSORED_PAYLOAD_ISSUES } from './payload-kind.registry';

// How each sponsored step is issued is its payload kind's (*/*.issue.ts), listed in PAYLOAD_KIND_HANDLERS.
export { SPONSORED_PAYLOAD_ISSUES } from './payload-kind.registry';
export { payloadRequestOf } from './sponsored-issue';

/** True when the step's transaction is a relayer's (typed data the user signed), not one the user signed. */
export function carriedByRelayer(row: Pick<SigningRequestEntity, 'spec'>): boolean {
  const { sponsored } = row.spec;
  return sponsored ? SPONSORED_PAYLOAD_ISSUES[sponsored.mode].relayed : false;
}

/** True when the service's fee payer co-signs the step's transaction once the user's signature is checked. */
export function feePayerSignsLater(row: Pick<SigningRequestEntity, 'spec'>): boolean {
  const { sponsored } = row.spec;
  return sponsored ? SPONSORED_PAYLOAD_ISSUES[sponsored.mode].feePayerSignsLater : false;
}
