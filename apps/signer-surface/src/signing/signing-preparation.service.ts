import { saveSigningRequest, SigningRequestsRepository } from './signing-requests.repository';
import { Injectable, Logger } from '@nestjs/common';
import { SigningPrepareCommand, SigningRefreshCommand } from '@swapgw/contracts';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { Clock } from '@swapgw/runtime';
import { isChainUnreachable, shortMessageOf } from '@swapgw/chains';
import { readWaitForBalance } from './wait-for-balance';
import { SigningEventsOutbox } from './signing-events.outbox';
import { SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningRequestEntity } from './signing-request.entity';

/** How long a step waits for its balance (waitFor), from the validated config. */
@Injectable()
export class WaitingPolicy {
  readonly pollMs: number;
  readonly readyEstimateMs: number;
  readonly timeoutMs: number;

  constructor(config: SignerSurfaceConfig) {
    this.pollMs = config.WAITING_POLL_MS;
    this.readyEstimateMs = config.WAITING_READY_ESTIMATE_MS;
    this.timeoutMs = config.WAITING_TIMEOUT_MS;
  }
}

/** Handles signing.prepare and signing.refresh, inside the consumer's transaction. */
@Injectable()
export class SigningPreparationService {
  private readonly logger = new Logger(SigningPreparationService.name);

  constructor(
    private readonly chains: SignerChains,
    private readonly issuer: SigningPayloadIssuer,
    private readonly events: SigningEventsOutbox,
    private readonly requests: SigningRequestsRepository,
    private readonly waiting: WaitingPolicy,
    private readonly clock: Clock,
  ) {}

  /**
   * The read of the step's live request that `prepare` starts with, as complete SQL for the
   * consumer to send with its claim (StreamHandler.readFirst); its row is `prepare`'s `live`.
   */
  liveRequestRead(command: SigningPrepareCommand, dataSource: DataSource): string {
    return this.requests.liveStatusOfStepRead(dataSource, command.swapId, command.stepId);
  }

  /**
   * `live`: the step's live request as the transaction found it first (its status), when the
   * consumer read it with its claim (`liveStatusOfStepRead`); read here otherwise.
   */
  async prepare(
    command: SigningPrepareCommand,
    manager: EntityManager,
    live?: { status: string } | null,
  ): Promise<void> {
    // Idempotent on (swapId, stepId): a re-sent command (new eventId) must not issue a second payload.
    const existing =
      live !== undefined
        ? live
        : await this.requests.liveRequestOfStep(manager, command.swapId, command.stepId);
    if (existing) {
      this.logger.log({
        msg: 'signing.prepare for a step already prepared; ignored',
        swapId: command.swapId,
        stepId: command.stepId,
        status: existing.status,
      });
      return;
    }
    const row = manager.create(SigningRequestEntity, {
      id: randomUUID(),
      swapId: command.swapId,
      stepId: command.stepId,
      stepIndex: command.stepIndex,
      stepCount: command.stepCount,
      chain: command.chain,
      kind: command.kind,
      from: command.from,
      spec: structuredClone(command.step),
      owner: command.owner ?? null,
      gasDropId: null,
      sponsoredTxId: null,
      payload: null,
      executionHints: null,
      clientHints: null,
      issuedAt: null,
      expiresAtMs: null,
      readyAtMs: null,
      nextCheckAtMs: null,
      waitDeadlineMs: null,
      status: 'waiting',
      rawTx: null,
      txHash: null,
      confirmations: 0,
      blockNumber: null,
      failureCode: null,
      failureReason: null,
      broadcastAt: null,
      confirmedAtMs: null,
    });

    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) {
      await this.issuer.markUnavailable(row, manager, lookup.reason);
      return;
    }
    try {
      const approve = 'approve' in row.spec ? row.spec.approve : undefined;
      if (row.kind === 'approve' && approve) {
        // null on a family without allowances (Solana: SPL transfers are authorized by the user's signature).
        const allowance = await lookup.client.readAllowance(approve.token, row.from, approve.spender);
        if (allowance !== null && allowance >= BigInt(approve.amount)) {
          row.status = 'skipped';
          await saveSigningRequest(manager, row);
          await this.events.skipped(manager, row, `allowance ${allowance} already covers ${approve.amount}`);
          return;
        }
      }
      const { waitFor } = row.spec;
      if (waitFor) {
        const wait = await readWaitForBalance(this.chains, row);
        if (wait.ok && wait.balance < wait.minBalance) {
          const now = this.clock.nowMs();
          row.status = 'waiting';
          row.readyAtMs = now + this.waiting.readyEstimateMs;
          row.nextCheckAtMs = now + this.waiting.pollMs;
          row.waitDeadlineMs = now + this.waiting.timeoutMs;
          await saveSigningRequest(manager, row);
          await this.events.waiting(
            manager,
            row,
            `waiting for a balance of ${waitFor.minBalance} at ${waitFor.holder}`,
          );
          return;
        }
      }
    } catch (error) {
      if (!isChainUnreachable(error)) throw error;
      await this.issuer.markUnavailable(
        row,
        manager,
        `RPC of chain ${row.chain} unreachable: ${shortMessageOf(error)}`,
      );
      return;
    }
    await this.issuer.issue(row, manager);
  }

  /** Supersedes the step's ready or expired payload with a fresh one (new nonce and fees). */
  async refresh(command: SigningRefreshCommand, manager: EntityManager): Promise<void> {
    const current = await this.requests.liveRequestOfStep(manager, command.swapId, command.stepId, true);
    if (!current || (current.status !== 'ready' && current.status !== 'expired')) {
      this.logger.log({
        msg: 'signing.refresh for a step without a ready or expired payload; ignored',
        ...command,
        status: current?.status ?? null,
      });
      return;
    }
    await this.issuer.reissue(current, manager);
  }
}
