import type { SponsorshipMode } from '@swapgw/contracts';
import type { SigningRequestEntity } from '../signing-request.entity';
import type { SponsoredPayloadIssue } from './sponsored-issue';

// How each sponsored step is issued is its payload kind's (<family>/<kind>/*.issue.ts), each mode's
// way found through the registered kinds (PayloadKindRegistry.sponsoredIssues, sponsoredIssuesOf).
export { sponsoredIssuesOf } from './payload-kind.registry';
export { payloadRequestOf } from './sponsored-issue';

type SponsoredIssues = Readonly<Record<SponsorshipMode, SponsoredPayloadIssue>>;

/** True when the step's transaction is a relayer's (typed data the user signed), not one the user signed. */
export function carriedByRelayer(issues: SponsoredIssues, row: Pick<SigningRequestEntity, 'spec'>): boolean {
  const { sponsored } = row.spec;
  return sponsored ? issues[sponsored.mode].relayed : false;
}

/** True when the service's fee payer co-signs the step's transaction once the user's signature is checked. */
export function feePayerSignsLater(
  issues: SponsoredIssues,
  row: Pick<SigningRequestEntity, 'spec'>,
): boolean {
  const { sponsored } = row.spec;
  return sponsored ? issues[sponsored.mode].feePayerSignsLater : false;
}
