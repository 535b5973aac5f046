import { saveSigningRequest } from './signing-requests.repository';
import { failStep } from './step-failure';
import { PayloadBuild, PayloadPolicy } from '@swapgw/chains/families';
import { shortMessageOf } from '@swapgw/chains';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { Clock } from '@swapgw/runtime';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningRequestEntity } from './signing-request.entity';
import { STEP_PREREQUISITES, type StepPrerequisite } from './step-prerequisites';
import {
  isServiceUnavailable,
  payloadRequestOf,
  PayloadKindRegistry,
  SponsoredStepNotSignable,
} from './payload-kinds';

/** How long an issued payload lives and how much head room its gas and fees get, from the validated config. */
@Injectable()
export class PayloadIssuePolicy implements PayloadPolicy {
  readonly ttlMs: number;
  readonly gasLimitPercent: number;
  readonly feeSafetyPercent: number;

  constructor(config: SignerSurfaceConfig) {
    this.ttlMs = config.SIGNING_REQUEST_TTL_MS;
    this.gasLimitPercent = config.GAS_LIMIT_PERCENT;
    this.feeSafetyPercent = config.FEE_SAFETY_PERCENT;
  }
}

/**
 * Turns a request row into a signable payload from fresh chain state and saves it with its event:
 * `ready` + signing.payload-ready, or `failed` + signing.step-failed when the call would revert,
 * or `unavailable` + signing.unavailable when the chain's RPC cannot be reached.
 */
@Injectable()
export class SigningPayloadIssuer {
  private readonly logger = new Logger(SigningPayloadIssuer.name);

  constructor(
    private readonly chains: SignerChains,
    private readonly events: SigningEventsOutbox,
    private readonly policy: PayloadIssuePolicy,
    /** The registered payload kinds, whose handlers issue the steps sponsored under their modes, each with its family's sponsor. */
    private readonly kinds: PayloadKindRegistry,
    private readonly clock: Clock,
    /** What the families do on chain before a step is issued (a Noble forwarding account registered). */
    @Inject(STEP_PREREQUISITES) private readonly prerequisites: readonly StepPrerequisite[],
  ) {}

  /**
   * The chain's family client builds the payload (a sponsored step: the way of the payload kind that
   * serves its sponsorship mode, PayloadKindRegistry.sponsoredIssueOf, each over its own family's chains). Sponsored steps need the relayers or fee payers: without them,
   * SPONSORSHIP_UNAVAILABLE; no relayer able to pay, or no budget left: `unavailable` with the 503.
   * First the families' prerequisites of the step (STEP_PREREQUISITES), which fail it the same ways.
   */
  async issue(row: SigningRequestEntity, manager: EntityManager): Promise<SigningRequestEntity> {
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) return this.markUnavailable(row, manager, lookup.reason);
    const client = lookup.client;
    const mode = row.spec.sponsored?.mode;
    const sponsorship = this.kinds.sponsoredIssueOf(row);
    if (sponsorship && sponsorship.family !== client.family) {
      return this.markFailed(row, manager, `a ${client.family} step cannot be sponsored as ${mode}`);
    }
    const now = this.clock.nowMs();
    let built: PayloadBuild;
    try {
      for (const prerequisite of this.prerequisites) await prerequisite.ensure(row);
      built = sponsorship
        ? await this.kinds.issueSponsored(row, client, {
            chains: this.chains,
            policy: this.policy,
            nowMs: now,
          })
        : await client.buildPayload(payloadRequestOf(row), this.policy, now);
    } catch (error) {
      if (client.isUnreachable(error)) {
        return this.markUnavailable(
          row,
          manager,
          `RPC of chain ${row.chain} unreachable: ${shortMessageOf(error)}`,
        );
      }
      if (isServiceUnavailable(error)) return this.markUnavailable(row, manager, error.message, error.code);
      if (error instanceof SponsoredStepNotSignable) return this.markFailed(row, manager, error.message);
      throw error;
    }
    if (built.kind !== 'ready') {
      // The call would fail as built (allowance, balance, slippage, deadline, gas funds), the
      // simulation fails, or a prebuilt transaction is stale: there is nothing that could be signed.
      return this.markFailed(row, manager, built.reason, built.kind);
    }
    Object.assign(row, {
      status: 'ready',
      payload: built.payload,
      executionHints: built.executionHints,
      clientHints: {
        recommendedWallet: built.recommendedWallet,
        network: client.chain.name,
        action: row.kind,
      },
      issuedAt: new Date(now),
      readyAtMs: now,
      expiresAtMs: built.expiresAtMs,
      nextCheckAtMs: null,
    });
    await this.events.saveReady(manager, row);
    return row;
  }

  /**
   * Replaces the step's payload by a fresh one (refresh after expiry, or a Solana blockhash that
   * aged out): the old row is superseded, a new row is issued under a new signingRequestId.
   */
  async reissue(current: SigningRequestEntity, manager: EntityManager): Promise<SigningRequestEntity> {
    current.status = 'superseded';
    await saveSigningRequest(manager, current);
    const fresh = manager.create(SigningRequestEntity, {
      ...current,
      id: randomUUID(),
      status: 'waiting',
      payload: null,
      executionHints: null,
      clientHints: null,
      issuedAt: null,
      expiresAtMs: null,
      readyAtMs: null,
      failureCode: null,
      failureReason: null,
      createdAt: undefined,
      updatedAt: undefined,
    });
    return this.issue(fresh, manager);
  }

  /** `why`: what the log says besides the reason (would-revert, invalid). */
  private async markFailed(
    row: SigningRequestEntity,
    manager: EntityManager,
    reason: string,
    why?: string,
  ): Promise<SigningRequestEntity> {
    await failStep(manager, this.events, row, StepFailureCodes.txRequestInvalid, reason);
    this.logger.warn({ msg: 'step cannot be signed', swapId: row.swapId, stepId: row.stepId, reason, why });
    return row;
  }

  /** `code`: the 503 the swap fails with (SPONSORSHIP_*); absent means no signing surface. */
  async markUnavailable(
    row: SigningRequestEntity,
    manager: EntityManager,
    reason: string,
    code?: string,
  ): Promise<SigningRequestEntity> {
    row.status = 'unavailable';
    row.failureReason = reason;
    row.failureCode = code ?? null;
    await saveSigningRequest(manager, row);
    await this.events.unavailable(manager, row);
    this.logger.warn({
      msg: 'no signing surface for step',
      swapId: row.swapId,
      stepId: row.stepId,
      chain: row.chain,
      reason,
    });
    return row;
  }
}
