import { Clock } from '@swapgw/runtime';
import type { EntityManager } from 'typeorm';
import { sponsorshipBudgetExhausted } from './relaying-errors';
import { SponsoredTransactionsRepository } from './sponsored-transactions.repository';
import { SponsorshipBudgetLimits } from './wei-settings';

const DAY_MS = 86_400_000;

/** Start and end (exclusive) of the UTC day of `ms`. */
export function utcDayOf(ms: number): { startMs: number; endMs: number } {
  const startMs = Math.floor(ms / DAY_MS) * DAY_MS;
  return { startMs, endMs: startMs + DAY_MS };
}

/**
 * What each API key may have the relayers spend per chain and UTC day. Spent = the ledger's rows
 * of the key on the chain created that day: mined ones (confirmed, failed, cancelled) at what they
 * cost, pending ones at the most they can still cost (gas limit × their fee ceiling + value: no
 * attempt ever bids above the ceiling), dropped and lost ones at nothing. Counting pending rows at
 * their ceiling keeps a burst of sends from all passing the check before any is mined, and a fee
 * bump from spending past the budget; it cannot run away, since the ceiling is fixed at the send.
 */
export class SponsorshipBudget {
  constructor(
    private readonly ledger: SponsoredTransactionsRepository,
    private readonly limits: SponsorshipBudgetLimits,
    private readonly clock: Clock,
  ) {}

  dailyLimitOf(owner: string, chain: string): bigint {
    return this.limits.dailyLimitOf(owner, chain);
  }

  /** Wei spent (or held by pending transactions) today, UTC, by `owner` on `chain`. */
  async spentToday(owner: string, chain: string, manager?: EntityManager): Promise<bigint> {
    const { startMs, endMs } = utcDayOf(this.clock.nowMs());
    return this.ledger.spentBetween(owner, chain, startMs, endMs, manager);
  }

  /** Throws SPONSORSHIP_BUDGET_EXHAUSTED (503) when today's spending plus `estimatedCostWei` is over the limit. */
  async check(
    owner: string,
    chain: string,
    estimatedCostWei: bigint,
    manager?: EntityManager,
  ): Promise<void> {
    const limitWei = this.dailyLimitOf(owner, chain);
    const spentWei = await this.spentToday(owner, chain, manager);
    if (spentWei + estimatedCostWei > limitWei) {
      throw sponsorshipBudgetExhausted(chain, {
        limitWei,
        spentWei,
        estimatedCostWei,
        resetsAtMs: utcDayOf(this.clock.nowMs()).endMs,
      });
    }
  }
}
