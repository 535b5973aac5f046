import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { isRpcUnreachable, revertReasonOf, shortMessageOf } from './evm/evm-chain-errors';
import { readPayloadChainState } from './evm/evm-chain-state';
import { buildEvmSigningPayload, EvmPayloadPolicy } from './evm/evm-payload';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningRequestEntity } from './signing-request.entity';
import { isSolanaRpcUnreachable, issueSolanaPayload, SolanaStepInvalid } from './solana/solana-step-payload';

export interface PayloadIssuePolicy extends EvmPayloadPolicy {
  ttlMs: number;
}

/**
 * Turns a request row into a signable payload from fresh chain state and saves it with its event:
 * `ready` + signing.payload-ready, or `failed` + signing.step-failed when the call would revert,
 * or `unavailable` + signing.unavailable when the chain's RPC cannot be reached.
 */
export class SigningPayloadIssuer {
  private readonly logger = new Logger(SigningPayloadIssuer.name);

  constructor(
    private readonly chains: SignerChains,
    private readonly events: SigningEventsOutbox,
    private readonly policy: PayloadIssuePolicy,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(row: SigningRequestEntity, manager: EntityManager): Promise<SigningRequestEntity> {
    if (this.chains.familyOf(row.chain) === 'solana') return this.issueSolana(row, manager);
    const surface = this.chains.evmSurface(row.chain);
    if (!surface.ok) return this.markUnavailable(row, manager, surface.reason);
    if (!row.call) return this.markFailed(row, manager, 'an EVM step without a call');
    try {
      const state = await readPayloadChainState(surface.provider, surface.evmChainId, row.from, row.call);
      const built = buildEvmSigningPayload(row.from, row.call, state, this.policy);
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
      await manager.save(row);
      await this.events.payloadReady(manager, row);
      return row;
    } catch (error) {
      if (isRpcUnreachable(error)) {
        return this.markUnavailable(row, manager, `RPC of chain ${row.chain} unreachable: ${shortMessageOf(error)}`);
      }
      // The node answered, and the call would fail as built (allowance, balance, slippage,
      // deadline, insufficient funds for gas): there is nothing that could be signed.
      row.status = 'failed';
      row.failureCode = StepFailureCodes.txRequestInvalid;
      row.failureReason = revertReasonOf(error) ?? shortMessageOf(error);
      await manager.save(row);
      await this.events.failed(manager, row);
      this.logger.warn({ msg: 'step cannot be signed: gas estimate failed', swapId: row.swapId, stepId: row.stepId, reason: row.failureReason });
      return row;
    }
  }

  /**
   * Solana: a fresh transaction (new blockhash) for a bridge deposit, the aggregator's bytes for a
   * prebuilt one. `ready` + payload-ready; `failed` when it would not execute or cannot be renewed.
   */
  private async issueSolana(row: SigningRequestEntity, manager: EntityManager): Promise<SigningRequestEntity> {
    const surface = this.chains.solanaSurface(row.chain);
    if (!surface.ok) return this.markUnavailable(row, manager, surface.reason);
    if (!row.solana) return this.markFailed(row, manager, 'a Solana step without its solana spec');
    try {
      const now = this.now();
      const built = await issueSolanaPayload(surface, { from: row.from, solana: row.solana }, { ttlMs: this.policy.ttlMs }, now);
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
      await manager.save(row);
      await this.events.payloadReady(manager, row);
      return row;
    } catch (error) {
      if (isSolanaRpcUnreachable(error)) {
        return this.markUnavailable(row, manager, `RPC of chain ${row.chain} unreachable: ${(error as Error).message}`);
      }
      // Simulation failed, the prebuilt transaction is stale, or the node refused the request.
      return this.markFailed(row, manager, error instanceof SolanaStepInvalid ? error.message : `Solana RPC: ${(error as Error).message}`);
    }
  }

  /**
   * Replaces the step's payload by a fresh one (refresh after expiry, or a Solana blockhash that
   * aged out): the old row is superseded, a new row is issued under a new signingRequestId.
   */
  async reissue(current: SigningRequestEntity, manager: EntityManager): Promise<SigningRequestEntity> {
    current.status = 'superseded';
    await manager.save(current);
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

  private async markFailed(row: SigningRequestEntity, manager: EntityManager, reason: string): Promise<SigningRequestEntity> {
    row.status = 'failed';
    row.failureCode = StepFailureCodes.txRequestInvalid;
    row.failureReason = reason;
    await manager.save(row);
    await this.events.failed(manager, row);
    this.logger.warn({ msg: 'step cannot be signed', swapId: row.swapId, stepId: row.stepId, reason });
    return row;
  }

  async markUnavailable(row: SigningRequestEntity, manager: EntityManager, reason: string): Promise<SigningRequestEntity> {
    row.status = 'unavailable';
    row.failureReason = reason;
    await manager.save(row);
    await this.events.unavailable(manager, row);
    this.logger.warn({ msg: 'no signing surface for step', swapId: row.swapId, stepId: row.stepId, chain: row.chain, reason });
    return row;
  }
}
