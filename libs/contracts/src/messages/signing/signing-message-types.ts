/**
 * Message `type` values of the signing domain, per topic.
 *
 * - `signing.commands` (stream, planner → signer-surface): SigningCommandTypes
 * - `signing.events` (stream, signer-surface → planner): SigningEventTypes
 * - `signing.requests` (request-reply, gateway → signer-surface): SigningRequestTypes
 *
 * Every message is keyed by `swapId` (the envelope's aggregateId), so one swap's signing messages
 * stay in order on one partition.
 */
export const SigningCommandTypes = {
  prepare: 'signing.prepare',
  refresh: 'signing.refresh',
} as const;

export const SigningEventTypes = {
  payloadReady: 'signing.payload-ready',
  waiting: 'signing.waiting',
  stepSkipped: 'signing.step-skipped',
  submitted: 'signing.submitted',
  /** Mined with status 1, fewer confirmations than required so far (EVM) / processed, not yet confirmed (Solana). */
  stepIncluded: 'signing.step-included',
  stepConfirmed: 'signing.step-confirmed',
  stepFailed: 'signing.step-failed',
  unavailable: 'signing.unavailable',
} as const;

export const SigningRequestTypes = {
  submit: 'signing.submit',
  transactionStatus: 'status.transaction',
} as const;

export type SigningCommandType = (typeof SigningCommandTypes)[keyof typeof SigningCommandTypes];
export type SigningEventType = (typeof SigningEventTypes)[keyof typeof SigningEventTypes];
export type SigningRequestType = (typeof SigningRequestTypes)[keyof typeof SigningRequestTypes];

/** What a signing step does on chain; also the `clientHints.action` shown to the wallet user. */
export const SIGNING_STEP_KINDS = ['approve', 'swap', 'bridge'] as const;
export type SigningStepKind = (typeof SIGNING_STEP_KINDS)[number];
