import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { isRpcUnreachable, revertReasonOf, shortMessageOf } from './evm/evm-chain-errors';
import { readPayloadChainState } from './evm/evm-chain-state';
import { buildEvmSigningPayload, EvmPayloadPolicy } from './evm/evm-payload';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningRequestEntity } from './signing-request.entity';

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
    const surface = this.chains.evmSurface(row.chain);
    if (!surface.ok) return this.markUnavailable(row, manager, surface.reason);
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

  async markUnavailable(row: SigningRequestEntity, manager: EntityManager, reason: string): Promise<SigningRequestEntity> {
    row.status = 'unavailable';
    row.failureReason = reason;
    await manager.save(row);
    await this.events.unavailable(manager, row);
    this.logger.warn({ msg: 'no signing surface for step', swapId: row.swapId, stepId: row.stepId, chain: row.chain, reason });
    return row;
  }
}
