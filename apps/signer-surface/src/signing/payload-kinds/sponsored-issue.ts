import { ChainFamily } from '@swapgw/chains';
import { PayloadBuild, PayloadPolicy, SigningChainClient, StepPayloadRequest } from '@swapgw/chains/families';
import { CodedError, ErrorCatalog, SponsorshipMode, stepSpecFieldsOf } from '@swapgw/contracts';
import { SignerChains } from '../../chains/signer-chains';
import { SigningRequestEntity } from '../signing-request.entity';

/** A step the user cannot sign as built: the balance or the Permit2 allowance it needs is missing. */
export class SponsoredStepNotSignable extends Error {}

/** What issuing a sponsored step's payload needs besides the step, its chain's client and its kind's sponsor. */
export interface SponsoredIssueContext {
  chains: SignerChains;
  policy: PayloadPolicy;
  nowMs: number;
}

/**
 * How a payload kind issues the payload of a step sponsored under one of its `modes`, over its own
 * family's chains (`family`), paid by `Sponsor` (what its family sponsors with: the relayers'
 * GasSponsor, a family's own fee payers or fee wallets): the issuer looks the way up by the step's
 * `sponsored.mode` (PayloadKindRegistry, from the kinds' handlers) and never asks which family the
 * chain is; the kind's handler gives its sponsor (PayloadKindHandler.issueSponsored). May set the
 * row's sponsorship fields (gasDropId).
 */
export interface SponsoredPayloadIssue<Sponsor = unknown> {
  /** The sponsorship modes issued this way. */
  readonly modes: readonly SponsorshipMode[];
  readonly family: ChainFamily;
  /**
   * What the user signs is carried on chain by a relayer's transaction (typed data): the relayers
   * send, resend and fee-bump it, not the confirmation tracker.
   */
  readonly relayed: boolean;
  /** The service's fee payer signs the user's transaction after it is checked (then records and sends it). */
  readonly feePayerSignsLater: boolean;
  /**
   * Why the service's fee payer could not pay the step's transaction the node refused (`nodeAnswer`),
   * or null when that is not the cause (absent: never). The service's problem, never the user's.
   */
  feePayerShortfallOf?(
    client: SigningChainClient,
    row: SigningRequestEntity,
    nodeAnswer: string,
  ): Promise<{ feePayer: string; reason: string } | null>;
  issue(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
    sponsor: Sponsor,
  ): Promise<PayloadBuild>;
}

/** A kind's sponsor, or SPONSORSHIP_UNAVAILABLE (503) when the service has none to issue its sponsored steps. */
export function sponsorOrUnavailable<Sponsor>(sponsor: Sponsor | null): Sponsor {
  if (!sponsor)
    throw new CodedError(
      'SPONSORSHIP_UNAVAILABLE',
      'No relayer or fee payer is configured for sponsored gas',
    );
  return sponsor;
}

/** True when `row` is sponsored under one of the modes `issue` serves. */
export function sponsoredAs(row: Pick<SigningRequestEntity, 'spec'>, issue: SponsoredPayloadIssue): boolean {
  const { sponsored } = row.spec;
  return sponsored ? issue.modes.includes(sponsored.mode) : false;
}

/**
 * The step's request to its chain's family: who signs, and the spec of its family (its variant's own
 * field, every other variant's null: stepSpecFieldsOf).
 */
export function payloadRequestOf(row: SigningRequestEntity, feePayer?: string): StepPayloadRequest {
  return { from: row.from, ...stepSpecFieldsOf(row.spec), ...(feePayer ? { feePayer } : {}) };
}

/** A dependency refusal that makes the step unavailable (503 of the catalog), not the user's error. */
export function isServiceUnavailable(error: unknown): error is CodedError {
  return error instanceof CodedError && ErrorCatalog[error.code as keyof typeof ErrorCatalog]?.status === 503;
}
