import { Inject, Injectable, Logger } from '@nestjs/common';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import type { SignedTransactionArtifact } from '@swapgw/chains/families';
import type { EntityManager } from 'typeorm';
import { Clock } from '@swapgw/runtime';
import { saveSigningRequest } from '../signing-requests.repository';
import { SigningEventsOutbox } from '../signing-events.outbox';
import type { SigningRequestEntity } from '../signing-request.entity';
import { GAS_SPONSOR, type GasSponsor } from '../../sponsorship/gas-sponsor';
import { SubmissionPolicy } from './submission-policy';
import type { SubmissionVerdict } from './payload-kind-handler';

/**
 * Records an accepted step for every payload kind: `submitted`, when the tracker first looks, and
 * its signing.submitted event, in the deciding transaction.
 */
@Injectable()
export class StepAcceptance {
  private readonly logger = new Logger(StepAcceptance.name);

  constructor(
    private readonly events: SigningEventsOutbox,
    private readonly policy: SubmissionPolicy,
    @Inject(GAS_SPONSOR) private readonly sponsor: GasSponsor | null,
    private readonly clock: Clock,
  ) {}

  /**
   * `sent`: the relayers already sent it; `after-commit`: the caller broadcasts `tx` once
   * committed; `by-tracker`: nothing is sent now, the confirmation tracker looks at once.
   */
  async accept(
    manager: EntityManager,
    row: SigningRequestEntity,
    broadcast: 'sent' | 'after-commit' | 'by-tracker',
    tx: SignedTransactionArtifact | null = null,
  ): Promise<SubmissionVerdict> {
    const now = this.clock.nowMs();
    row.broadcastAt = broadcast === 'by-tracker' ? null : new Date(now);
    row.nextCheckAtMs = broadcast === 'by-tracker' ? now : now + this.policy.firstCheckDelayMs;
    await saveSigningRequest(manager, row);
    await this.events.submitted(manager, row, now);
    return { kind: 'accepted', row, broadcast: broadcast === 'after-commit' ? tx : null };
  }

  /**
   * A verified signed transaction the service broadcasts. A covered transaction whose gas drop is
   * not mined yet would be refused for lack of funds: it is accepted, not broadcast (broadcastAt
   * null), and the tracker sends it on its next pass once the drop is mined, or fails the step if
   * the drop never delivers.
   */
  async acceptForBroadcast(
    manager: EntityManager,
    row: SigningRequestEntity,
    tx: SignedTransactionArtifact,
  ): Promise<SubmissionVerdict> {
    row.status = 'submitted';
    row.rawTx = tx.rawTx;
    row.txHash = tx.hash;
    const send = await this.gasDropLanded(row);
    return this.accept(manager, row, send ? 'after-commit' : 'by-tracker', tx);
  }

  /**
   * One look at the gas drop of a covered transaction, never a wait: true once it is mined (or the
   * step has none). A ledger that cannot be read leaves the broadcast to the tracker.
   */
  private async gasDropLanded(row: SigningRequestEntity): Promise<boolean> {
    if (!row.gasDropId || !this.sponsor) return true;
    try {
      return (await this.sponsor.status(row.gasDropId)).state === 'confirmed';
    } catch (error) {
      this.logger.warn({
        msg: 'gas drop status unknown; the tracker broadcasts later',
        swapId: row.swapId,
        gasDropId: row.gasDropId,
        error: (error as Error).message,
      });
      return false;
    }
  }
}

/** A TX_REQUEST_MISMATCH (or other CodedError) of `check`, with the step's position; null when it passes. */
export function refusalOf(row: SigningRequestEntity, check: () => void): SubmissionVerdict | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    return { kind: 'error', error: withStepOf(row, error) };
  }
}

/** A CodedError with the step's position added to its details. */
export function withStepOf(row: SigningRequestEntity, error: CodedError): CodedError {
  return new CodedError(error.code, error.message, {
    stepIndex: row.stepIndex,
    stepCount: row.stepCount,
    ...error.details,
  });
}

export function expiredError(row: SigningRequestEntity): CodedError {
  return new CodedError(
    ErrorCodes.tx_request_expired,
    'The signing request expired; GET /swap/{swapId}/signing for a fresh payload',
    {
      stepIndex: row.stepIndex,
      stepCount: row.stepCount,
      expiresAtMs: row.expiresAtMs,
    },
  );
}
