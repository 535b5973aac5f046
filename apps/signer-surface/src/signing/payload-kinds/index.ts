// The signing flow's part per payload kind (one folder each) and what they share.
export { PAYLOAD_KIND_HANDLERS, PayloadKindRegistry } from './payload-kind.registry';
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
