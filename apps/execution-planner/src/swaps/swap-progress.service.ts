import { Injectable, Logger } from '@nestjs/common';
import { baseUnitsToAmount } from '@swapgw/chains';
import {
  ErrorCatalog,
  ErrorCode,
  CodedError,
  ErrorCodes,
  isTerminalSwapStatus,
  RepriceRouteLegResult,
  SigningCommandTypes,
  SigningPayloadReadyEvent,
  SigningRefreshCommand,
  SigningStepConfirmedEvent,
  SigningStepFailedEvent,
  SigningStepIncludedEvent,
  SigningStepSkippedEvent,
  SigningSubmittedEvent,
  SigningUnavailableEvent,
  SigningWaitingEvent,
  SwapCompletedEvent,
  SwapEventTypes,
  SwapExpiredEvent,
  SwapFailedEvent,
  SwapSigningPendingEvent,
  SwapSigningReadyEvent,
  SwapSigningRefreshResult,
  SwapStepConfirmedEvent,
  SwapStepConfirmingEvent,
  SwapStatus,
  SwapStepSubmittedEvent,
  SwapStepPacket,
  SwapStepPacketEvent,
  SwapStepThorchain,
  SwapStepThorchainEvent,
  Topics,
} from '@swapgw/contracts';
import type { ThorchainSwapProgress } from '@swapgw/chains/bitcoin-bridge';
import type { OutboxMessage } from '@swapgw/messaging';
import { Clock } from '@swapgw/runtime';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import type { NobleForwardingProgress } from '@swapgw/chains/families';
import type { CctpMintProgress } from './cosmos/cctp-mint-reader';
import { RepricingSignal } from './repricing-signal';
import { SwapEntity } from './swap.entity';
import { SwapStepEntity, SwapStepStatus } from './swap-step.entity';
import { positionOf, prepareCommandOf, stepIdOf, swapEvent } from './swap-messages';
import { SwapRepository, SwapTransaction } from './swap.repository';

/** What quote-service said of a step's price check: its result, or why there was none. */
export type PriceCheckAnswer = { result: RepriceRouteLegResult } | { unanswered: string };
export type PriceCheckOutcome = 'prepared' | 'price-changed' | 'waiting' | 'expired' | 'ignored';

/**
 * The failure details of a step refused for its price, in human units: the route's new and quoted
 * figures (as a 409 QUOTE_PRICE_CHANGED of a build gives them) and what the user holds instead.
 */
function priceChangeOf(step: SwapStepEntity, result: RepriceRouteLegResult): Record<string, unknown> {
  const check = step.priceCheck;
  if (!check) return {};
  const { plan, legIndex } = check;
  const human = (units: string) => baseUnitsToAmount(units, plan.tokenOut.decimals);
  const held = plan.legs[legIndex].tokenIn;
  return {
    legIndex,
    expectedAmountOut: human(result.expectedAmountOut),
    minAmountOut: human(result.minAmountOut),
    quotedExpectedAmountOut: human(result.quotedExpectedAmountOut),
    quotedMinAmountOut: human(result.quotedMinAmountOut),
    tokenOut: plan.tokenOut,
    heldToken: { chain: held.chain, address: held.address, symbol: held.symbol, decimals: held.decimals },
  };
}

/**
 * Reason of a failed swap whose bridge refunded its deposit (THORChain's tx/status: every planned
 * outbound a refund; an IBC packet timed out or refused; the devnet bridge's Bitcoin vault sending a
 * deposit towards Noble back): the funds went back to the sender on the source chain, less the
 * bridge's fee.
 */
export const BRIDGE_REFUNDED = 'BRIDGE_REFUNDED';

/**
 * Reason of a failed swap whose route after a Noble forwarding deposit did not deliver (the forward
 * refunded to the forwarding account, not sent, or the swap's output not delivered home): the funds
 * are neither with the sender nor with the recipient; `details.fundsAt` says where they are and how
 * they move on.
 */
export const FORWARD_FAILED = 'FORWARD_FAILED';

/** Reason of an expired swap: its encoded calls' deadline passed. */
export const SWAP_DEADLINE_PASSED = 'SWAP_DEADLINE_PASSED';
/** Swap states in which nothing is in flight on chain, so the deadline alone can end the swap. */
export const EXPIRABLE_STATUSES: readonly SwapStatus[] = ['planning', 'awaiting_signature'];

/** What a settling step's protocol said changed: completed or refunded it, moved it, or nothing new. */
export type SettlementOutcome = 'completed' | 'refunded' | 'failed' | 'moved' | 'unchanged' | 'ignored';

/** Whether two packets are one: the same source channel and sequence towards the same chain. */
const samePacket = (a: SwapStepPacket, b: SwapStepPacket): boolean =>
  a.destinationChain === b.destinationChain &&
  a.sourceChannel === b.sourceChannel &&
  a.sequence === b.sequence;

/**
 * The packets of a route to tell, given the one the step tells now (`told`): that one if it moved,
 * and every packet after it; all of them when none was told yet.
 */
function packetsToTell(told: SwapStepPacket | null, packets: readonly SwapStepPacket[]): SwapStepPacket[] {
  const at = told ? packets.findIndex((packet) => samePacket(packet, told)) : -1;
  if (!told || at === -1) return [...packets];
  const moved = packets[at].state !== told.state || packets[at].refunded !== told.refunded;
  return [...(moved ? [packets[at]] : []), ...packets.slice(at + 1)];
}

/** What every event of a step's transaction says: the swap, the step, its chain and hash. */
type StepTransactionFacts = Omit<SwapStepPacketEvent, 'packet'>;

/** One move of a settling step's protocol, as SwapProgress.settlementMoved applies it. */
interface SettlementMove {
  /** The step already tells this move. */
  told(step: SwapStepEntity): boolean;
  /** Keeps the move on the step; the event telling it, from what every step event says (`facts`). */
  record(step: SwapStepEntity, facts: StepTransactionFacts): OutboxMessage<unknown>;
  /** The deposit went back to the sender: the step's failure reason, and what the swap's details add. */
  refund: SettlementRefund | null;
  completed: boolean;
}

/** A settling step's deposit sent back to its sender: the step's failure reason, what the swap's details add. */
interface SettlementRefund {
  reason: string;
  message: string;
  details: Record<string, unknown>;
}

/** Whether THORChain's progress as told (`told`) is `now`'s: same phase, streaming count, outbounds. */
function sameThorchainProgress(told: SwapStepThorchain | null, now: SwapStepThorchain): boolean {
  return (
    told !== null &&
    told.phase === now.phase &&
    told.streaming?.count === now.streaming?.count &&
    told.streaming?.quantity === now.streaming?.quantity &&
    told.outTxIds.join(',') === now.outTxIds.join(',')
  );
}

interface StepRef {
  swapId: string;
  stepId: string;
  stepIndex: number;
}

interface Locked {
  swap: SwapEntity;
  step: SwapStepEntity;
}

/**
 * Advances swaps on signer-surface's events. Every handler runs inside the idempotent consumer's
 * transaction (the processed_events row commits with the change) and locks the swap row first, so
 * events and refresh requests of one swap apply one at a time. Nothing lives in memory: a restarted
 * planner carries on from the rows.
 *
 * An event about a step that is not the swap's current one, or a step already past the state the
 * event would move it from, is stale (a superseded payload, a redelivery under another eventId):
 * it is logged and changes nothing.
 *
 * A step put in `repricing` is told to this instance's SwapPriceChecker (RepricingSignal) once the
 * transaction that put it there committed, so that the checker's read finds it; a transaction
 * rolled back tells nothing.
 */
@Injectable()
export class SwapProgress {
  private readonly logger = new Logger(SwapProgress.name);

  constructor(
    private readonly swaps: SwapRepository,
    private readonly clock: Clock,
    private readonly config: ExecutionPlannerConfig,
    private readonly repricing: RepricingSignal,
  ) {}

  async payloadReady(event: SigningPayloadReadyEvent, tx: SwapTransaction): Promise<void> {
    const locked = await this.lockCurrent(tx, event, ['building', 'ready'], 'signing.payload-ready');
    if (!locked) return;
    const { swap, step } = locked;
    const now = this.clock.nowMs();
    step.status = 'ready';
    step.signingRequestId = event.signingRequestId;
    step.payloadExpiresAtMs = event.expiresAtMs;
    swap.status = 'awaiting_signature';
    const ready: SwapSigningReadyEvent = {
      swapId: swap.id,
      status: swap.status,
      step: positionOf(swap),
      payload: event.payload,
      expiresAtMs: event.expiresAtMs,
      readyAtMs: event.readyAtMs,
      executionHints: event.executionHints as Record<string, unknown>,
      clientHints: event.clientHints,
    };
    await this.save(tx, swap, now, [step], swapEvent(swap.id, SwapEventTypes.signingReady, ready));
  }

  async waiting(event: SigningWaitingEvent, tx: SwapTransaction): Promise<void> {
    const locked = await this.lockCurrent(tx, event, ['building'], 'signing.waiting');
    if (!locked) return;
    await tx.enqueue(pendingEventOf(locked.swap, event.reason, event.readyAtMs));
  }

  async submitted(event: SigningSubmittedEvent, tx: SwapTransaction): Promise<void> {
    const locked = await this.lockCurrent(tx, event, ['building', 'ready'], 'signing.submitted');
    if (!locked) return;
    const { swap, step } = locked;
    step.status = 'submitted';
    step.txHash = event.txHash;
    swap.status = 'submitted';
    const submitted: SwapStepSubmittedEvent = {
      swapId: swap.id,
      status: swap.status,
      step: positionOf(swap),
      chain: step.chain,
      txHash: event.txHash,
    };
    await this.save(
      tx,
      swap,
      this.clock.nowMs(),
      [step],
      swapEvent(swap.id, SwapEventTypes.stepSubmitted, submitted),
    );
  }

  /** In a block, not yet confirmed enough: the swap is `confirming`; the step stays `submitted`. */
  async stepIncluded(event: SigningStepIncludedEvent, tx: SwapTransaction): Promise<void> {
    const locked = await this.lockCurrent(tx, event, ['submitted'], 'signing.step-included');
    if (!locked) return;
    const { swap, step } = locked;
    swap.status = 'confirming';
    step.txHash = event.txHash;
    const confirming: SwapStepConfirmingEvent = {
      swapId: swap.id,
      status: swap.status,
      step: positionOf(swap),
      chain: step.chain,
      txHash: event.txHash,
      blockNumber: event.blockNumber,
      confirmations: event.confirmations,
      confirmationsRequired: event.confirmationsRequired,
    };
    await this.save(
      tx,
      swap,
      this.clock.nowMs(),
      [step],
      swapEvent(swap.id, SwapEventTypes.stepConfirming, confirming),
    );
  }

  async stepConfirmed(event: SigningStepConfirmedEvent, tx: SwapTransaction): Promise<void> {
    // `ready` too: the confirmation can overtake the submitted event only if they were reordered
    // across partitions, which keying by swapId prevents; accepting it keeps the swap moving anyway.
    const locked = await this.lockCurrent(
      tx,
      event,
      ['building', 'ready', 'submitted'],
      'signing.step-confirmed',
    );
    if (!locked) return;
    locked.step.txHash = event.txHash;
    const { settlement } = locked.step;
    if (
      settlement === 'ibc' ||
      settlement === 'cctp' ||
      settlement === 'forwarding' ||
      (settlement === 'thorchain' && this.config.THORNODE_URL !== undefined)
    ) {
      // Confirmed on its chain; done when THORChain says its outbound went out, when IBC
      // acknowledges its packet, when the burn's destination paid it, or when the route after a
      // forwarding deposit delivered (SettlementPoller).
      const { swap, step } = locked;
      step.status = 'settling';
      swap.status = 'confirming';
      await this.save(tx, swap, this.clock.nowMs(), [step]);
      return;
    }
    locked.step.status = 'confirmed';
    await this.advance(tx, locked, event.txHash);
  }

  /**
   * THORChain's progress of a `settling` deposit's swap (ThorchainStatusReader: its tx/status read
   * into a phase). A change (phase, streaming count, outbounds) is told once (`swap.step-thorchain`,
   * kept on the step); `completed`, its outbound signed, ends the step as confirmed and moves the
   * swap on (completed when it was the last step); `refunded` fails the step and the swap with
   * BRIDGE_REFUNDED, the refund's transactions in the details; any other phase leaves it waiting.
   * Ignored unless the step is still settling.
   */
  async thorchainMoved(stepId: string, progress: ThorchainSwapProgress): Promise<SettlementOutcome> {
    const thorchain: SwapStepThorchain = {
      phase: progress.phase,
      streaming: progress.streaming ? { ...progress.streaming } : null,
      outTxIds: [...progress.outTxIds],
    };
    return this.settlementMoved(stepId, 'thorchain status', {
      told: (step) => sameThorchainProgress(step.thorchain, thorchain),
      record: (step, facts) => {
        step.thorchain = thorchain;
        const event: SwapStepThorchainEvent = { ...facts, thorchain };
        return swapEvent(facts.swapId, SwapEventTypes.stepThorchain, event);
      },
      refund:
        thorchain.phase === 'refunded'
          ? {
              reason: 'THORChain refunded the deposit',
              message: 'THORChain refunded the deposit (its tx/status planned a refund as the only outbound)',
              details: { thorchain, refundTxIds: thorchain.outTxIds },
            }
          : null,
      completed: thorchain.phase === 'completed',
    });
  }

  /**
   * Whether the USDC a `settling` cctp step burnt on Noble was minted on its destination
   * (CctpMintReader: the burn's nonce, the destination bridge end's release of it), or what a deposit
   * towards Noble paid was minted there. Minted, the step is confirmed and the swap moves on
   * (`swap.step-confirmed`, then `swap.completed` on the last step); refunded by the source end
   * instead (a Bitcoin deposit the vault sent back: `refundTxHash`), the step and the swap fail with
   * BRIDGE_REFUNDED, the refund in `refundTxIds`; neither yet, nothing changes. A burn has no
   * refund: it waits until the mint is read or the swap expires. Ignored unless the step is still
   * settling.
   */
  async mintSeen(stepId: string, mint: CctpMintProgress): Promise<SettlementOutcome> {
    const refundTxHash = mint.mintTxHash === null ? mint.refundTxHash : undefined;
    if (mint.mintTxHash === null && refundTxHash === undefined) return 'unchanged';
    return this.swaps.transaction(async (tx) => {
      const locked = await this.lockStep(tx, stepId, ['settling'], 'cctp mint');
      if (!locked) return 'ignored';
      if (refundTxHash !== undefined) {
        const reason = 'the bridge refunded the deposit instead of minting it on Noble';
        await this.failRefunded(tx, locked, {
          reason,
          message: reason,
          details: { refundTxIds: [refundTxHash] },
        });
        return 'refunded';
      }
      locked.step.status = 'confirmed';
      await this.advance(tx, locked, locked.step.txHash ?? undefined);
      return 'completed';
    });
  }

  /**
   * Where the IBC packet of a `settling` ibc step is now (IbcPacketReader, from the chains' events).
   * A move is told once (`swap.step-packet`, the packet kept on the step); acknowledged without an
   * error it ends the step as confirmed and moves the swap on; timed out, or acknowledged with an
   * error, the coin went back to the sender: the step and the swap fail with BRIDGE_REFUNDED, the
   * packet in the details. Ignored unless the step is still settling.
   */
  async packetMoved(stepId: string, packet: SwapStepPacket): Promise<SettlementOutcome> {
    const reason =
      packet.state === 'timed_out'
        ? 'the IBC packet timed out; its coin was refunded'
        : `the IBC packet was refused (${packet.acknowledgementError}); its coin was refunded`;
    return this.settlementMoved(stepId, 'ibc packet', {
      told: (step) => step.packet?.state === packet.state && step.packet.refunded === packet.refunded,
      record: (step, facts) => {
        step.packet = packet;
        const event: SwapStepPacketEvent = { ...facts, packet };
        return swapEvent(facts.swapId, SwapEventTypes.stepPacket, event);
      },
      refund: packet.refunded
        ? {
            reason,
            message: reason,
            details: { packet, ...(packet.settledTxHash ? { refundTxIds: [packet.settledTxHash] } : {}) },
          }
        : null,
      completed: packet.state === 'acknowledged',
    });
  }

  /**
   * Where the route after a `settling` forwarding deposit is (NobleForwardingReader: the bridge's
   * payout on Noble, the forward's packet to Osmosis, the swap on arrival, the output's packet home).
   * Each packet's move is told once, in route order (`swap.step-packet`, the latest kept on the
   * step); delivered, the step is confirmed and the swap moves on (completed: the recipient holds
   * the output); failed, the step and the swap fail with FORWARD_FAILED, where the funds are in the
   * details. Ignored unless the step is still settling.
   */
  async forwardingMoved(stepId: string, progress: NobleForwardingProgress): Promise<SettlementOutcome> {
    return this.swaps.transaction(async (tx) => {
      const locked = await this.lockStep(tx, stepId, ['settling'], 'noble forwarding');
      if (!locked) return 'ignored';
      const { swap } = locked;
      const current = locked.step;
      const moves = packetsToTell(current.packet, progress.packets);
      const facts: StepTransactionFacts = {
        swapId: swap.id,
        status: swap.status,
        step: positionOf(swap),
        chain: current.chain,
        txHash: current.txHash ?? '',
      };
      if (moves.length > 0) {
        current.packet = moves[moves.length - 1];
        await this.save(
          tx,
          swap,
          this.clock.nowMs(),
          [current],
          ...moves.map((packet) => {
            const event: SwapStepPacketEvent = { ...facts, packet };
            return swapEvent(swap.id, SwapEventTypes.stepPacket, event);
          }),
        );
      }
      if (progress.outcome === 'failed' && progress.failure) {
        current.status = 'failed';
        current.failureReason = progress.failure.message;
        await this.terminate(
          tx,
          swap,
          current,
          'failed',
          FORWARD_FAILED,
          {
            step: positionOf(swap),
            chain: current.chain,
            kind: current.kind,
            message: progress.failure.message,
            ...(current.txHash ? { txHash: current.txHash } : {}),
            payoutTxHash: progress.payoutTxHash,
            fundsAt: progress.failure.fundsAt,
            ...(current.packet ? { packet: current.packet } : {}),
          },
          this.clock.nowMs(),
        );
        return 'failed';
      }
      if (progress.outcome !== 'delivered') return moves.length > 0 ? 'moved' : 'unchanged';
      current.status = 'confirmed';
      await this.advance(tx, locked, current.txHash ?? undefined);
      return 'completed';
    });
  }

  /**
   * A settling step's protocol moved (THORChain's phase, an IBC packet): told once, kept on the step
   * (`swap.step-thorchain`, `swap.step-packet`); refunded, the step and the swap fail with
   * BRIDGE_REFUNDED; completed, the step is confirmed and the swap moves on.
   */
  private async settlementMoved(
    stepId: string,
    what: string,
    move: SettlementMove,
  ): Promise<SettlementOutcome> {
    return this.swaps.transaction(async (tx) => {
      const locked = await this.lockStep(tx, stepId, ['settling'], what);
      if (!locked) return 'ignored';
      const { swap } = locked;
      const current = locked.step;
      if (move.told(current)) return 'unchanged';
      const told = move.record(current, {
        swapId: swap.id,
        status: swap.status,
        step: positionOf(swap),
        chain: current.chain,
        txHash: current.txHash ?? '',
      });
      await this.save(tx, swap, this.clock.nowMs(), [current], told);
      if (move.refund) {
        await this.failRefunded(tx, locked, move.refund);
        return 'refunded';
      }
      if (!move.completed) return 'moved';
      current.status = 'confirmed';
      await this.advance(tx, locked, current.txHash ?? undefined);
      return 'completed';
    });
  }

  /** The settling step's deposit went back to its sender: the step and the swap fail with BRIDGE_REFUNDED. */
  private async failRefunded(tx: SwapTransaction, locked: Locked, refund: SettlementRefund): Promise<void> {
    const { swap, step } = locked;
    step.status = 'failed';
    step.failureReason = refund.reason;
    await this.terminate(
      tx,
      swap,
      step,
      'failed',
      BRIDGE_REFUNDED,
      {
        step: positionOf(swap),
        chain: step.chain,
        kind: step.kind,
        message: refund.message,
        ...(step.txHash ? { txHash: step.txHash } : {}),
        ...refund.details,
      },
      this.clock.nowMs(),
    );
  }

  async stepSkipped(event: SigningStepSkippedEvent, tx: SwapTransaction): Promise<void> {
    const locked = await this.lockCurrent(tx, event, ['building', 'ready'], 'signing.step-skipped');
    if (!locked) return;
    locked.step.status = 'skipped';
    await this.advance(tx, locked, undefined);
  }

  async stepFailed(event: SigningStepFailedEvent, tx: SwapTransaction): Promise<void> {
    const locked = await this.lockCurrent(
      tx,
      event,
      ['building', 'ready', 'submitted'],
      'signing.step-failed',
    );
    if (!locked) return;
    const { swap, step } = locked;
    const now = this.clock.nowMs();
    const details = {
      step: positionOf(swap),
      chain: step.chain,
      kind: step.kind,
      message: event.reason,
      ...(event.txHash ? { txHash: event.txHash } : {}),
    };
    if (now >= swap.expiresAtMs) {
      // The encoded calls' deadline passed: the step could not succeed any more.
      step.status = 'expired';
      step.failureReason = event.reason;
      await this.terminate(tx, swap, step, 'expired', SWAP_DEADLINE_PASSED, details, now);
      return;
    }
    step.status = 'failed';
    step.failureReason = event.reason;
    await this.terminate(tx, swap, step, 'failed', event.code, details, now);
  }

  async unavailable(event: SigningUnavailableEvent, tx: SwapTransaction): Promise<void> {
    const locked = await this.lockCurrent(tx, event, ['building', 'ready'], 'signing.unavailable');
    if (!locked) return;
    const { swap, step } = locked;
    step.status = 'failed';
    step.failureReason = event.reason;
    // A sponsorship refusal names its own 503 (budget spent, no relayer); otherwise no RPC.
    const code =
      event.code && event.code in ErrorCatalog && ErrorCatalog[event.code as ErrorCode].status === 503
        ? event.code
        : ErrorCodes.SIGNING_SURFACE_UNAVAILABLE;
    await this.terminate(
      tx,
      swap,
      step,
      'failed',
      code,
      { step: positionOf(swap), chain: step.chain, message: event.reason },
      this.clock.nowMs(),
    );
  }

  /**
   * The gateway saw the current payload expire: ask signer-surface for a fresh one. Asked at most
   * once per expired payload: the step goes back to `building` until the new payload arrives.
   */
  async refreshSigning(swapId: string, owner: string): Promise<SwapSigningRefreshResult> {
    return this.swaps.transaction(async (tx) => {
      const locked = await tx.lockSwapAndCurrentStep(swapId);
      const swap = locked?.swap;
      if (!locked || !swap || swap.owner !== owner)
        throw new CodedError(ErrorCodes.SWAP_NOT_FOUND, 'No such swap', { swapId });
      if (isTerminalSwapStatus(swap.status)) {
        throw new CodedError(ErrorCodes.EXECUTION_TERMINAL, `The swap is ${swap.status}`, {
          status: swap.status,
          reason: swap.failureReason,
        });
      }
      const step = currentStepOf(locked);
      const now = this.clock.nowMs();
      const expired =
        step.status === 'ready' && step.payloadExpiresAtMs !== null && step.payloadExpiresAtMs <= now;
      if (!expired) return { swapId, refreshRequested: false, status: swap.status };
      step.status = 'building';
      swap.status = 'planning';
      const refresh: SigningRefreshCommand = { swapId, stepId: step.id };
      await this.save(
        tx,
        swap,
        now,
        [step],
        {
          topic: Topics.signingCommands,
          type: SigningCommandTypes.refresh,
          aggregateId: swapId,
          payload: refresh,
        },
        pendingEventOf(swap, 'payload expired; a fresh one is being prepared'),
      );
      return { swapId, refreshRequested: true, status: swap.status };
    });
  }

  /**
   * Expires a swap whose deadline passed while it waited for the user or for a payload (not while a
   * transaction is in flight: that one's outcome decides). Returns whether it expired it; a swap
   * another instance already expired, or that moved on, is left alone.
   */
  async expireIfDue(swapId: string): Promise<boolean> {
    return this.swaps.transaction(async (tx) => {
      const locked = await tx.lockSwapAndCurrentStep(swapId);
      const now = this.clock.nowMs();
      if (!locked || !EXPIRABLE_STATUSES.includes(locked.swap.status) || locked.swap.expiresAtMs > now)
        return false;
      const { swap } = locked;
      const step = currentStepOf(locked);
      step.status = 'expired';
      await this.terminate(
        tx,
        swap,
        step,
        'expired',
        SWAP_DEADLINE_PASSED,
        { step: positionOf(swap), chain: step.chain },
        now,
      );
      return true;
    });
  }

  /**
   * quote-service's answer for a step in `repricing` (SwapPriceChecker), or its silence:
   * - the leg still pays at least the minimum the step binds (moved within slippage, or nothing to
   *   re-price): the step is prepared as planned;
   * - it pays less: the payload would revert, so none is issued; the step and the swap fail with
   *   QUOTE_PRICE_CHANGED and the route's new figures, the user keeping what the previous legs
   *   delivered (the leg's tokenIn, on its chain);
   * - no answer: asked again at the next poll, until the step waited priceCheckWaitMs; then it is
   *   prepared as planned (its minimum, the one the user accepted, still binds on chain).
   * A swap whose deadline passed meanwhile expires. An answer for a step that moved on is ignored.
   */
  async priceChecked(stepId: string, answer: PriceCheckAnswer): Promise<PriceCheckOutcome> {
    return this.swaps.transaction(async (tx) => {
      const locked = await this.lockStep(tx, stepId, ['repricing'], 'price check');
      if (!locked) return 'ignored';
      const { swap } = locked;
      const current = locked.step;
      const now = this.clock.nowMs();
      const position = { step: positionOf(swap), chain: current.chain };
      if (now >= swap.expiresAtMs) {
        current.status = 'expired';
        await this.terminate(tx, swap, current, 'expired', SWAP_DEADLINE_PASSED, position, now);
        return 'expired';
      }
      if ('unanswered' in answer) {
        if (now - current.updatedAtMs < this.config.SWAP_PRICE_CHECK_WAIT_MS) return 'waiting';
        this.logger.warn({
          msg: 'price check unanswered; step prepared with its planned minimum',
          swapId: swap.id,
          stepId,
          reason: answer.unanswered,
        });
      } else if (answer.result.repriced && answer.result.movedBeyondSlippage) {
        const details = { ...position, kind: current.kind, ...priceChangeOf(current, answer.result) };
        current.status = 'failed';
        current.failureReason = "the leg's output moved beyond the quote's slippage";
        await this.terminate(tx, swap, current, 'failed', ErrorCodes.QUOTE_PRICE_CHANGED, details, now);
        return 'price-changed';
      }
      current.status = 'building';
      await this.save(tx, swap, now, [current], prepareCommandOf(swap, current));
      return 'prepared';
    });
  }

  /** The current step is done (confirmed or skipped): prepare the next one, or complete the swap. */
  private async advance(
    tx: SwapTransaction,
    { swap, step }: Locked,
    txHash: string | undefined,
  ): Promise<void> {
    const now = this.clock.nowMs();
    const done = step.stepIndex;
    const confirmedPosition = positionOf(swap, done);
    const isLast = done === swap.stepCount;
    let next: SwapStepEntity | undefined;
    if (isLast) {
      swap.status = 'completed';
    } else {
      next = await tx.getStep(stepIdOf(swap.id, done + 1));
      // A later leg's spending step is priced again before it is prepared (SwapPriceChecker).
      next.status = next.priceCheck ? 'repricing' : 'building';
      next.updatedAtMs = now;
      swap.currentStep = done + 1;
      swap.status = 'planning';
    }
    const changed = [step, ...(next ? [next] : [])];
    const confirmed: SwapStepConfirmedEvent = {
      swapId: swap.id,
      status: swap.status,
      step: confirmedPosition,
      chain: step.chain,
      ...(txHash ? { txHash } : { skipped: true }),
    };
    const confirmedEvent = swapEvent(swap.id, SwapEventTypes.stepConfirmed, confirmed);
    if (next?.status === 'repricing') {
      await this.save(
        tx,
        swap,
        now,
        changed,
        confirmedEvent,
        pendingEventOf(swap, 'checking the price before the next step spends'),
      );
      // Told once committed: the checker reads outside this transaction.
      tx.afterCommit(() => this.repricing.stepEntered());
      return;
    }
    if (next) {
      await this.save(tx, swap, now, changed, confirmedEvent, prepareCommandOf(swap, next));
      return;
    }
    const completed: SwapCompletedEvent = { swapId: swap.id, status: 'completed', completedAtMs: now };
    await this.save(
      tx,
      swap,
      now,
      changed,
      confirmedEvent,
      swapEvent(swap.id, SwapEventTypes.completed, completed),
    );
    this.logger.log({ msg: 'swap completed', swapId: swap.id, steps: swap.stepCount });
  }

  private async terminate(
    tx: SwapTransaction,
    swap: SwapEntity,
    step: SwapStepEntity,
    status: 'failed' | 'expired',
    reason: string,
    details: Record<string, unknown>,
    now: number,
  ): Promise<void> {
    swap.status = status;
    swap.failureReason = reason;
    swap.failureDetails = details;
    const expired: SwapExpiredEvent = { swapId: swap.id, status: 'expired', reason };
    const failed: SwapFailedEvent = { swapId: swap.id, status: 'failed', reason, details };
    await this.save(
      tx,
      swap,
      now,
      [step],
      status === 'expired'
        ? swapEvent(swap.id, SwapEventTypes.expired, expired)
        : swapEvent(swap.id, SwapEventTypes.failed, failed),
    );
    this.logger.warn({ msg: `swap ${status}`, swapId: swap.id, reason, ...details });
  }

  /** lockCurrent for a step known by its id (a poller's answer about it). */
  private async lockStep(
    tx: SwapTransaction,
    stepId: string,
    from: SwapStepStatus[],
    type: string,
  ): Promise<Locked | null> {
    const step = await tx.getStep(stepId);
    return this.lockCurrent(tx, { swapId: step.swapId, stepId, stepIndex: step.stepIndex }, from, type);
  }

  /**
   * Locks the swap and returns it with the event's step when that step is the current one and in
   * one of `from`; otherwise null (unknown swap, terminal swap, stale event).
   */
  private async lockCurrent(
    tx: SwapTransaction,
    ref: StepRef,
    from: SwapStepStatus[],
    type: string,
  ): Promise<Locked | null> {
    const locked = await tx.lockSwapAndCurrentStep(ref.swapId);
    const swap = locked?.swap;
    const ignore = (why: string) => {
      this.logger.log({ msg: `${type} ignored: ${why}`, swapId: ref.swapId, stepId: ref.stepId });
      return null;
    };
    if (!locked || !swap) return ignore('unknown swap');
    if (isTerminalSwapStatus(swap.status)) return ignore(`swap is ${swap.status}`);
    if (ref.stepId !== stepIdOf(swap.id, swap.currentStep))
      return ignore(`step is not the current step ${swap.currentStep}`);
    const step = currentStepOf(locked);
    if (!from.includes(step.status)) return ignore(`step is ${step.status}`);
    return { swap, step };
  }

  /**
   * Writes what progress changes on the locked rows, one UPDATE each, no read first (TypeORM's
   * `save` reads a row back to diff it, which was most of the planner's queries per event), and
   * the messages telling it (in this order), in one statement: the swap and its changed steps,
   * stamped `now`.
   */
  private async save(
    tx: SwapTransaction,
    swap: SwapEntity,
    now: number,
    steps: SwapStepEntity[],
    ...messages: OutboxMessage[]
  ): Promise<void> {
    swap.updatedAtMs = now;
    for (const step of steps) step.updatedAtMs = now;
    await tx.updateProgress(swap, steps, messages);
  }
}

/** The current step of a swap locked with it (lockSwapAndCurrentStep); a swap in progress has one. */
function currentStepOf({ swap, step }: { swap: SwapEntity; step: SwapStepEntity | null }): SwapStepEntity {
  if (!step) throw new Error(`Swap step ${stepIdOf(swap.id, swap.currentStep)} does not exist`);
  return step;
}

/** `swap.signing-pending`: the swap waits for its current step's payload, and why. */
function pendingEventOf(swap: SwapEntity, reason: string, readyAtMs?: number): OutboxMessage {
  const pending: SwapSigningPendingEvent = {
    swapId: swap.id,
    status: swap.status,
    step: positionOf(swap),
    reason,
    ...(readyAtMs !== undefined ? { readyAtMs } : {}),
  };
  return swapEvent(swap.id, SwapEventTypes.signingPending, pending);
}
