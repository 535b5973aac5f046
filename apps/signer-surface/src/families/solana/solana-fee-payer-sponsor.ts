import { Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import type { EntityManager } from 'typeorm';
import { SolanaSponsorshipBudget } from './solana-fee-payer-settings';
import { SolanaFeePayers, type SponsoredSolanaTransaction } from './solana-fee-payers';

/**
 * What the Solana payload kind needs from sponsorship: one of the service's fee payers to name in a
 * transaction, the step admitted under the key's daily budget (lamports), the fee payer's signature
 * once the user's is checked, and the co-signed transaction recorded in the sponsorship ledger. Only
 * the Solana family's payload kind injects it.
 */
@Injectable()
export class SolanaFeePayerSponsor {
  constructor(
    private readonly feePayers: SolanaFeePayers,
    private readonly budget: SolanaSponsorshipBudget,
    private readonly clock: Clock,
  ) {}

  /**
   * The address of one of the chain's fee payers able to pay `estimatedCostLamports` (fees and
   * rent), to name in a transaction. SPONSORSHIP_UNAVAILABLE when there is none.
   */
  feePayer(chain: string, estimatedCostLamports: bigint): Promise<string> {
    return this.feePayers.pick(chain, estimatedCostLamports);
  }

  /** SPONSORSHIP_BUDGET_EXHAUSTED when the key's daily budget on the chain (lamports) cannot take the cost. */
  admit(owner: string, chain: string, estimatedCostLamports: bigint): Promise<void> {
    return this.budget.check(owner, chain, estimatedCostLamports);
  }

  /**
   * The signature of `message` by `feePayer` when it is one of the service's fee payers, else null.
   * Ed25519 is deterministic: the same message always gets the same signature.
   */
  sign(feePayer: string, message: Uint8Array): Uint8Array | null {
    return this.feePayers.sign(feePayer, message);
  }

  /**
   * Records a co-signed transaction in the sponsorship ledger (pending; the tracker settles it with
   * its fee), inside the caller's database transaction. Answers the ledger row's id.
   */
  record(manager: EntityManager, transaction: SponsoredSolanaTransaction): Promise<string> {
    return this.feePayers.record(manager, transaction, this.clock.nowMs());
  }
}
