// The signing flow's part per payload kind and what the kinds share. The kinds themselves live in
// their families (families/<family>/<kind>/), registered at the composition root.
export {
  PAYLOAD_KIND_HANDLERS,
  PayloadKindRegistry,
  sponsoredIssuesOf,
  type PayloadKindHandlerType,
} from './payload-kind.registry';
export {
  isServiceUnavailable,
  payloadRequestOf,
  sponsoredAs,
  SponsoredStepNotSignable,
  type SponsoredIssueContext,
  type SponsoredPayloadIssue,
} from './sponsored-issue';
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
