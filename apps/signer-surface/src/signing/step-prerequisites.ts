import type { SigningRequestEntity } from './signing-request.entity';

/**
 * What a family does on chain before a step's payload can be issued (the Cosmos family: registering
 * the Noble forwarding account the step pays, x/forwarding's MsgRegisterAccount). Registered by the
 * families (SignerFamily.stepPrerequisites), run by the issuer before every build of a step's payload.
 */
export interface StepPrerequisite {
  /**
   * Does what `row`'s step needs first, nothing when it needs nothing of this family or it is done
   * already (idempotent: a reissue runs it again). Throws a 503 CodedError when it cannot be done now,
   * SponsoredStepNotSignable when the step can never be issued.
   */
  ensure(row: SigningRequestEntity): Promise<void>;
}

/** Every family's StepPrerequisite (provided by the relaying module, where the families' sponsors live). */
export const STEP_PREREQUISITES = Symbol('STEP_PREREQUISITES');
