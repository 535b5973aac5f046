import {
  SigningEventTypes,
  SigningPayloadReadyEvent,
  SigningStepConfirmedEvent,
  SigningStepFailedEvent,
  SigningStepIncludedEvent,
  SigningStepSkippedEvent,
  SigningSubmittedEvent,
  SigningUnavailableEvent,
  SigningWaitingEvent,
  Topics,
} from '@swapgw/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { Outbox, OutboxMessage } from '@swapgw/messaging';
import type { EntityManager } from 'typeorm';
import { requiredColumn } from './signing-request-columns';
import { saveSigningRequest } from './signing-requests.repository';
import { SigningRequestEntity } from './signing-request.entity';

/** Vocabulary of `signing.step-failed` codes (the planner maps them to the swap's failure). */
export const StepFailureCodes = {
  /** The call would revert before anything was signed (estimateGas failed). */
  txRequestInvalid: 'TX_REQUEST_INVALID',
  /** Mined with status 0. */
  reverted: 'TX_REVERTED',
  /** The node refused the signed transaction (insufficient funds, nonce already used...). */
  rejected: 'TX_REJECTED',
  /** The waitFor balance never arrived. */
  waitTimeout: 'WAIT_TIMEOUT',
  /**
   * The relayers' transaction for the step (or its gas drop) lost its nonce to another and could not
   * be sent again.
   */
  relayDropped: 'RELAY_DROPPED',
  /** The relayers' transaction could not be mined under its fee ceiling and was cancelled. */
  relayFeeCeiling: 'RELAY_FEE_CEILING',
  /** The relayers' transaction was mined, then its block was gone (a reorg or a chain reset). */
  relayLost: 'RELAY_LOST',
  /** The fee payer of a sponsored Solana step could not pay when the transaction was sent. */
  feePayerUnavailable: 'FEE_PAYER_UNAVAILABLE',
} as const;

/** The topic signing events go to: signing.events (integration tests use their own). */
export const SIGNING_EVENTS_TOPIC = Symbol('SigningEventsTopic');

/** Writes signing.events for a request row into the outbox, inside the caller's transaction. */
@Injectable()
export class SigningEventsOutbox {
  constructor(
    private readonly outbox: Outbox,
    @Inject(SIGNING_EVENTS_TOPIC) private readonly topic: string = Topics.signingEvents,
  ) {}

  private stepRef(row: SigningRequestEntity) {
    return { swapId: row.swapId, stepId: row.stepId, stepIndex: row.stepIndex, chain: row.chain };
  }

  private async emit<P>(
    manager: EntityManager,
    type: string,
    row: SigningRequestEntity,
    payload: P,
  ): Promise<void> {
    await this.outbox.enqueue(manager, this.messageOf(type, row, payload));
  }

  private messageOf<P>(type: string, row: SigningRequestEntity, payload: P): OutboxMessage<P> {
    return { topic: this.topic, type, aggregateId: row.swapId, payload };
  }

  /**
   * Saves `row` as it stands (saveSigningRequest) with its signing.payload-ready, in one statement:
   * the issue of a payload costs one round trip instead of two.
   */
  saveReady(manager: EntityManager, row: SigningRequestEntity): Promise<void> {
    const message = this.messageOf(SigningEventTypes.payloadReady, row, this.readyEventOf(row));
    return saveSigningRequest(
      manager,
      row,
      (parameters) => this.outbox.rowsFor(manager.connection, null, [message], parameters).ctes,
    );
  }

  private readyEventOf(row: SigningRequestEntity): SigningPayloadReadyEvent {
    return {
      ...this.stepRef(row),
      signingRequestId: row.id,
      stepCount: row.stepCount,
      kind: row.kind,
      payload: requiredColumn(row, 'payload'),
      expiresAtMs: requiredColumn(row, 'expiresAtMs'),
      readyAtMs: requiredColumn(row, 'readyAtMs'),
      executionHints: row.executionHints ?? {},
      clientHints: requiredColumn(row, 'clientHints'),
    };
  }

  waiting(manager: EntityManager, row: SigningRequestEntity, reason: string): Promise<void> {
    const event: SigningWaitingEvent = {
      ...this.stepRef(row),
      readyAtMs: requiredColumn(row, 'readyAtMs'),
      reason,
    };
    return this.emit(manager, SigningEventTypes.waiting, row, event);
  }

  skipped(manager: EntityManager, row: SigningRequestEntity, reason: string): Promise<void> {
    const event: SigningStepSkippedEvent = { ...this.stepRef(row), reason };
    return this.emit(manager, SigningEventTypes.stepSkipped, row, event);
  }

  /**
   * `submittedAtMs`: when it was accepted (a covered transaction is accepted before its gas drop is
   * mined, and broadcast after it: `broadcastAt` is null until then).
   */
  submitted(manager: EntityManager, row: SigningRequestEntity, submittedAtMs: number): Promise<void> {
    const event: SigningSubmittedEvent = {
      ...this.stepRef(row),
      txHash: requiredColumn(row, 'txHash'),
      submittedAtMs,
    };
    return this.emit(manager, SigningEventTypes.submitted, row, event);
  }

  included(
    manager: EntityManager,
    row: SigningRequestEntity,
    progress: { confirmations: number; required: number },
  ): Promise<void> {
    const event: SigningStepIncludedEvent = {
      ...this.stepRef(row),
      txHash: requiredColumn(row, 'txHash'),
      blockNumber: requiredColumn(row, 'blockNumber'),
      confirmations: progress.confirmations,
      confirmationsRequired: progress.required,
    };
    return this.emit(manager, SigningEventTypes.stepIncluded, row, event);
  }

  confirmed(manager: EntityManager, row: SigningRequestEntity): Promise<void> {
    const event: SigningStepConfirmedEvent = {
      ...this.stepRef(row),
      txHash: requiredColumn(row, 'txHash'),
      blockNumber: requiredColumn(row, 'blockNumber'),
      confirmations: row.confirmations,
      confirmedAtMs: requiredColumn(row, 'confirmedAtMs'),
    };
    return this.emit(manager, SigningEventTypes.stepConfirmed, row, event);
  }

  failed(manager: EntityManager, row: SigningRequestEntity): Promise<void> {
    const event: SigningStepFailedEvent = {
      ...this.stepRef(row),
      code: row.failureCode ?? StepFailureCodes.txRequestInvalid,
      reason: row.failureReason ?? 'unknown failure',
      ...(row.txHash ? { txHash: row.txHash } : {}),
    };
    return this.emit(manager, SigningEventTypes.stepFailed, row, event);
  }

  unavailable(manager: EntityManager, row: SigningRequestEntity): Promise<void> {
    const event: SigningUnavailableEvent = {
      ...this.stepRef(row),
      reason: row.failureReason ?? 'no signing surface',
      ...(row.failureCode ? { code: row.failureCode } : {}),
    };
    return this.emit(manager, SigningEventTypes.unavailable, row, event);
  }
}
