import type { EntityManager } from 'typeorm';
import { saveSigningRequest } from './signing-requests.repository';
import type { SigningEventsOutbox } from './signing-events.outbox';
import { SigningRequestEntity } from './signing-request.entity';

/**
 * Ends a step `failed` with a StepFailureCodes code and its reason, and writes its
 * signing.step-failed, in `manager`'s transaction: nothing looks at the row again.
 */
export async function failStep(
  manager: EntityManager,
  events: SigningEventsOutbox,
  row: SigningRequestEntity,
  code: string,
  reason: string,
): Promise<void> {
  row.status = 'failed';
  row.failureCode = code;
  row.failureReason = reason;
  row.nextCheckAtMs = null;
  await saveSigningRequest(manager, row);
  await events.failed(manager, row);
}
