import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import {
  CodedError,
  ErrorCodes,
  QuoteMessageTypes,
  RepriceRouteLegRequest,
  RepriceRouteLegResult,
  Topics,
} from '@swapgw/contracts';
import { RequestReplyClient } from '@swapgw/messaging';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { RepricingSignal } from './repricing-signal';
import { PriceCheckAnswer, PriceCheckOutcome, SwapProgress } from './swap-progress.service';
import { SwapRepository } from './swap.repository';

const BATCH = 20;

const decidedOf = (outcomes: PriceCheckOutcome[]): number =>
  outcomes.filter((outcome) => outcome !== 'waiting').length;
/** Bound of one `quote.reprice` call: the provider's own deadline (4 s by default) and Kafka's round trips. */
export const PRICE_CHECK_TIMEOUT_MS = 6_000;

/** Prices one leg of a plan again, now (quote-service's `quote.reprice`). */
export abstract class LegRepricer {
  abstract reprice(swapId: string, request: RepriceRouteLegRequest): Promise<RepriceRouteLegResult>;
}

/** LegRepricer over Kafka request-reply to quote-service, keyed by the swap. */
@Injectable()
export class KafkaLegRepricer extends LegRepricer {
  constructor(private readonly rr: RequestReplyClient) {
    super();
  }

  reprice(swapId: string, request: RepriceRouteLegRequest): Promise<RepriceRouteLegResult> {
    return this.rr.request<RepriceRouteLegResult>(
      Topics.quoteChecks,
      QuoteMessageTypes.reprice,
      swapId,
      request,
      { timeoutMs: PRICE_CHECK_TIMEOUT_MS },
    );
  }
}

/**
 * Re-prices a later leg before its spending step is prepared (issue 30, point 6). SwapProgress puts
 * such a step in `repricing` when the step before it is done; each pass asks quote-service
 * (`quote.reprice`, request-reply: a read, asked outside any transaction so no swap row stays
 * locked while it is priced) for the steps waiting, and SwapProgress.priceChecked decides under the
 * swap's lock. Nothing lives in memory but when to look: a restarted planner finds the steps still
 * `repricing` (its first pass reads), and two instances asking for the same step decide once (the
 * second finds it moved on).
 *
 * Cheap when idle: the database is read every SWAP_PRICE_CHECK_POLL_MS only while steps wait; with
 * none, every SWAP_PRICE_CHECK_IDLE_POLL_MS. A step that entered `repricing` here (RepricingSignal,
 * told once its transaction committed) is read at once, and the checker idles again when that read
 * finds nothing waiting.
 */
@Injectable()
export class SwapPriceChecker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SwapPriceChecker.name);
  private loop: PeriodicWork | undefined;
  /** No read before this (epoch ms) unless signalled: the last one found no step waiting. */
  private idleUntilMs = 0;
  /** A step entered `repricing` here since the last read began: the next pass reads. */
  private signalled = false;

  constructor(
    private readonly store: SwapRepository,
    private readonly progress: SwapProgress,
    private readonly quotes: LegRepricer,
    private readonly config: ExecutionPlannerConfig,
    private readonly clock: Clock,
    signal: RepricingSignal,
  ) {
    signal.listen(() => this.stepEntered());
  }

  onApplicationBootstrap(): void {
    this.loop = new PeriodicWork({
      name: 'swap-price-check',
      intervalMs: this.config.SWAP_PRICE_CHECK_POLL_MS,
      run: () => this.poll(),
    });
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /**
   * The loop's pass: nothing while idle (unless signalled); else checkOnce, idling for
   * SWAP_PRICE_CHECK_IDLE_POLL_MS when it found no step waiting. Returns how many steps were decided.
   */
  async poll(): Promise<number> {
    const now = this.clock.nowMs();
    if (now < this.idleUntilMs && !this.signalled) return 0;
    this.signalled = false;
    const outcomes = await this.checkWaiting();
    this.idleUntilMs = outcomes.length === 0 ? now + this.config.SWAP_PRICE_CHECK_IDLE_POLL_MS : 0;
    return decidedOf(outcomes);
  }

  /**
   * A step entered `repricing` here, committed: a pass now. Signalled while a pass reads (which may
   * have missed the step), the next pass, right after it, reads again.
   */
  private stepEntered(): void {
    this.signalled = true;
    this.loop?.wake();
  }

  /** One pass: every step waiting for its price asked once; returns how many were decided. */
  async checkOnce(): Promise<number> {
    return decidedOf(await this.checkWaiting());
  }

  /** Asks for every step waiting; what became of each. */
  async checkWaiting(): Promise<PriceCheckOutcome[]> {
    const waiting = await this.store.awaitingPriceCheck(BATCH);
    // Asked together: one slow provider does not hold the other swaps' checks for its timeout.
    return Promise.all(
      waiting.map(async (step): Promise<PriceCheckOutcome> => {
        // Only steps planned with a check are ever `repricing`.
        if (!step.priceCheck) return 'ignored';
        const answer = await this.ask(step.swapId, step.priceCheck);
        const outcome = await this.progress.priceChecked(step.id, answer);
        this.logger.log({ msg: 'price check', swapId: step.swapId, stepId: step.id, outcome });
        return outcome;
      }),
    );
  }

  /**
   * quote-service's price, or why there is none: not answering in time, or the provider failing
   * (QUOTE_UPSTREAM_FAILED) are both "no price now"; asked again at the next pass.
   */
  private async ask(swapId: string, request: RepriceRouteLegRequest): Promise<PriceCheckAnswer> {
    try {
      return { result: await this.quotes.reprice(swapId, request) };
    } catch (error) {
      const code = error instanceof CodedError ? error.code : ErrorCodes.INTERNAL_ERROR;
      return { unanswered: `${code}: ${(error as Error).message}` };
    }
  }
}
