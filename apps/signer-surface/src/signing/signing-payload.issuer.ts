import { saveSigningRequest } from './save-signing-request';
import {
  buildEvmSigningPayload,
  EvmChainClient,
  EvmPayloadPolicy,
  issueSolanaPayload,
  LAMPORTS_PER_SIGNATURE,
  readPayloadChainState,
  recentFeeData,
  SolanaStepInvalid,
} from '@swapgw/chains/families';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CodedError, ErrorCatalog } from '@swapgw/contracts';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { JsonRpcProvider } from 'ethers';
import { SignerChains } from '../chains/signer-chains';
import { CLOCK, type Clock } from '../clock';
import {
  isRpcUnreachable,
  isSolanaRpcUnreachable,
  revertReasonOf,
  shortMessageOf,
  SPONSORED_EVM_GAS,
} from '@swapgw/chains';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningRequestEntity, sponsoredOwnerOf } from './signing-request.entity';
import { GAS_SPONSOR, type GasSponsor } from './sponsored/gas-sponsor';
import { issueTypedData, sponsoredGasOf, SponsoredStepNotSignable } from './sponsored/sponsored-payloads';

export interface PayloadIssuePolicy extends EvmPayloadPolicy {
  ttlMs: number;
}

export const PAYLOAD_ISSUE_POLICY = Symbol('PayloadIssuePolicy');

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
    @Inject(PAYLOAD_ISSUE_POLICY) private readonly policy: PayloadIssuePolicy,
    /** The relayers; without them a sponsored step cannot be issued (SPONSORSHIP_UNAVAILABLE). */
    @Inject(GAS_SPONSOR) private readonly sponsor: GasSponsor | null = null,
    @Inject(CLOCK) private readonly now: Clock = Date.now,
  ) {}

  async issue(row: SigningRequestEntity, manager: EntityManager): Promise<SigningRequestEntity> {
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) return this.markUnavailable(row, manager, lookup.reason);
    switch (lookup.client.family) {
      case 'evm':
        return this.issueEvm(row, manager, lookup.client);
      case 'solana':
        return this.issueSolana(row, manager);
    }
  }

  /** EVM: a transaction from fresh chain state (nonce, fees, gas estimate), or typed data to sign. */
  private async issueEvm(
    row: SigningRequestEntity,
    manager: EntityManager,
    surface: EvmChainClient,
  ): Promise<SigningRequestEntity> {
    if (row.sponsored && row.sponsored.mode !== 'covered-transaction')
      return this.issueTypedData(row, manager, surface.provider, surface.evmChainId, surface.chain.name);
    if (!row.call) return this.markFailed(row, manager, 'an EVM step without a call');
    try {
      const state = await readPayloadChainState(surface.provider, surface.evmChainId, row.from, row.call);
      const built = buildEvmSigningPayload(row.from, row.call, state, this.policy);
      if (row.sponsored?.mode === 'covered-transaction') {
        // The user's own transaction: the service first sends the most it can cost, so the
        // wallet's native balance after it is never lower than before.
        const maxFeeWei = BigInt(built.executionHints.estimatedFeeWei);
        const sponsor = this.sponsorOrThrow();
        await sponsor.admit(
          sponsoredOwnerOf(row),
          row.chain,
          maxFeeWei + SPONSORED_EVM_GAS.gasTopUp * state.maxFeePerGas,
        );
        const drop = await sponsor.send({
          chain: row.chain,
          to: row.from,
          data: '0x',
          value: maxFeeWei,
          purpose: 'gas-drop',
          swapId: row.swapId,
          stepIndex: row.stepIndex,
          owner: sponsoredOwnerOf(row),
        });
        row.gasDropId = drop.id;
        Object.assign(built.executionHints, {
          gasPaidBy: 'service',
          gasCoveredWei: maxFeeWei.toString(),
          gasDropTxHash: drop.txHash,
        });
      }
      const now = this.now();
      Object.assign(row, {
        status: 'ready',
        payload: built.payload,
        executionHints: built.executionHints,
        clientHints: { recommendedWallet: 'MetaMask', network: surface.chain.name, action: row.kind },
        issuedAt: new Date(now),
        readyAtMs: now,
        expiresAtMs: now + this.policy.ttlMs,
        nextCheckAtMs: null,
      });
      await saveSigningRequest(manager, row);
      await this.events.payloadReady(manager, row);
      return row;
    } catch (error) {
      if (isRpcUnreachable(error)) {
        return this.markUnavailable(
          row,
          manager,
          `RPC of chain ${row.chain} unreachable: ${shortMessageOf(error)}`,
        );
      }
      if (isServiceUnavailable(error)) return this.markUnavailable(row, manager, error.message, error.code);
      // The node answered, and the call would fail as built (allowance, balance, slippage,
      // deadline, insufficient funds for gas): there is nothing that could be signed.
      row.status = 'failed';
      row.failureCode = StepFailureCodes.txRequestInvalid;
      row.failureReason = revertReasonOf(error) ?? shortMessageOf(error);
      await saveSigningRequest(manager, row);
      await this.events.failed(manager, row);
      this.logger.warn({
        msg: 'step cannot be signed: gas estimate failed',
        swapId: row.swapId,
        stepId: row.stepId,
        reason: row.failureReason,
      });
      return row;
    }
  }

  /**
   * A typed-data step (EIP-2612 permit, Permit2 witness): what the user signs, built from chain
   * state read now; the relayer that will carry it is admitted under the key's budget first.
   */
  private async issueTypedData(
    row: SigningRequestEntity,
    manager: EntityManager,
    provider: JsonRpcProvider,
    chainId: bigint,
    network: string,
  ): Promise<SigningRequestEntity> {
    const sponsored = row.sponsored!;
    try {
      const fees = await recentFeeData(provider);
      const gasEstimate = sponsoredGasOf(sponsored);
      const estimatedCostWei = gasEstimate * (fees.maxFeePerGas ?? fees.gasPrice ?? 0n);
      await this.sponsorOrThrow().admit(sponsoredOwnerOf(row), row.chain, estimatedCostWei);
      const now = this.now();
      const expiresAtMs = now + this.policy.ttlMs;
      const typedData = await issueTypedData(provider, chainId, row.from, sponsored, expiresAtMs);
      Object.assign(row, {
        status: 'ready',
        payload: { type: 'evm-typed-data', typedData },
        executionHints: {
          gasPaidBy: 'service',
          gasEstimate: gasEstimate.toString(),
          estimatedFeeWei: estimatedCostWei.toString(),
          userPaysWei: '0',
        },
        clientHints: { recommendedWallet: 'MetaMask', network, action: row.kind },
        issuedAt: new Date(now),
        readyAtMs: now,
        expiresAtMs,
        nextCheckAtMs: null,
      });
      await saveSigningRequest(manager, row);
      await this.events.payloadReady(manager, row);
      return row;
    } catch (error) {
      if (isRpcUnreachable(error))
        return this.markUnavailable(
          row,
          manager,
          `RPC of chain ${row.chain} unreachable: ${shortMessageOf(error)}`,
        );
      if (isServiceUnavailable(error)) return this.markUnavailable(row, manager, error.message, error.code);
      if (error instanceof SponsoredStepNotSignable) return this.markFailed(row, manager, error.message);
      throw error;
    }
  }

  private sponsorOrThrow(): GasSponsor {
    if (!this.sponsor)
      throw new CodedError(
        'SPONSORSHIP_UNAVAILABLE',
        'No relayer or fee payer is configured for sponsored gas',
      );
    return this.sponsor;
  }

  /**
   * Solana: a fresh transaction (new blockhash) for a bridge deposit, the aggregator's bytes for a
   * prebuilt one. `ready` + payload-ready; `failed` when it would not execute or cannot be renewed.
   * Sponsored (`solana-fee-payer`): one of the service's fee payers is named as the transaction's
   * fee payer, and the step is admitted under the key's daily budget (lamports) with what the
   * transaction can cost it; no fee payer able to pay, or no budget left: `unavailable` with the 503.
   */
  private async issueSolana(
    row: SigningRequestEntity,
    manager: EntityManager,
  ): Promise<SigningRequestEntity> {
    const surface = this.chains.solanaSurface(row.chain);
    if (!surface.ok) return this.markUnavailable(row, manager, surface.reason);
    if (!row.solana) return this.markFailed(row, manager, 'a Solana step without its solana spec');
    if (row.sponsored && row.sponsored.mode !== 'solana-fee-payer') {
      return this.markFailed(row, manager, `a Solana step cannot be sponsored as ${row.sponsored.mode}`);
    }
    try {
      const now = this.now();
      let feePayer: string | undefined;
      if (row.sponsored)
        feePayer = await this.sponsorOrThrow().solanaFeePayer(row.chain, SOLANA_MIN_SPONSORED_COST);
      const built = await issueSolanaPayload(
        surface,
        { from: row.from, solana: row.solana, feePayer },
        { ttlMs: this.policy.ttlMs },
        now,
      );
      if (row.sponsored)
        await this.sponsorOrThrow().admitSolana(
          sponsoredOwnerOf(row),
          row.chain,
          built.cost.maxFeeLamports + built.cost.rentLamports,
        );
      Object.assign(row, {
        status: 'ready',
        payload: built.payload,
        executionHints: built.executionHints,
        clientHints: { recommendedWallet: 'Phantom', network: surface.chain.name, action: row.kind },
        issuedAt: new Date(now),
        readyAtMs: now,
        expiresAtMs: built.expiresAtMs,
        nextCheckAtMs: null,
      });
      await saveSigningRequest(manager, row);
      await this.events.payloadReady(manager, row);
      return row;
    } catch (error) {
      if (isSolanaRpcUnreachable(error)) {
        return this.markUnavailable(
          row,
          manager,
          `RPC of chain ${row.chain} unreachable: ${(error as Error).message}`,
        );
      }
      if (isServiceUnavailable(error)) return this.markUnavailable(row, manager, error.message, error.code);
      // Simulation failed, the prebuilt transaction is stale, or the node refused the request.
      return this.markFailed(
        row,
        manager,
        error instanceof SolanaStepInvalid ? error.message : `Solana RPC: ${(error as Error).message}`,
      );
    }
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

  private async markFailed(
    row: SigningRequestEntity,
    manager: EntityManager,
    reason: string,
  ): Promise<SigningRequestEntity> {
    row.status = 'failed';
    row.failureCode = StepFailureCodes.txRequestInvalid;
    row.failureReason = reason;
    await saveSigningRequest(manager, row);
    await this.events.failed(manager, row);
    this.logger.warn({ msg: 'step cannot be signed', swapId: row.swapId, stepId: row.stepId, reason });
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

/** The least a sponsored Solana transaction costs its fee payer: two signatures (its own and the user's). */
const SOLANA_MIN_SPONSORED_COST = 2n * BigInt(LAMPORTS_PER_SIGNATURE);

/** A dependency refusal that makes the step unavailable (503 of the catalog), not the user's error. */
function isServiceUnavailable(error: unknown): error is CodedError {
  return error instanceof CodedError && ErrorCatalog[error.code as keyof typeof ErrorCatalog]?.status === 503;
}
