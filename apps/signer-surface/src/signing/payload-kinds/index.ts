// The signing flow's part per payload kind (one folder each) and what they share.
export {
  PAYLOAD_KIND_HANDLERS,
  PayloadKindRegistry,
  SPONSORED_PAYLOAD_ISSUES,
  type PayloadKindHandlerType,
} from './payload-kind.registry';
export {
  isServiceUnavailable,
  payloadRequestOf,
  sponsoredAs,
  type SponsoredIssueContext,
  type SponsoredPayloadIssue,
} from './sponsored-issue';
export { SponsoredStepNotSignable } from '../../families/evm/evm-typed-data/sponsored-typed-data';
export type {
  PayloadKind,
  PayloadKindHandler,
  StepSubmission,
  SubmissionVerdict,
  TrackedStep,
  TrackingDecision,
} from './payload-kind-handler';
export { expiredError, refusalOf, StepAcceptance } from './step-acceptance';
export { SubmissionPolicy } from './submission-policy';
