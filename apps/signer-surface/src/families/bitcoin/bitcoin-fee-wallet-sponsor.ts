import { Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import type { EntityManager } from 'typeorm';
import type { BitcoinFeeInput, FeeInputStep } from './bitcoin-fee-inputs.repository';
import { BitcoinSponsorshipBudget } from './bitcoin-fee-wallet-settings';
import { BitcoinFeeWallets, type SponsoredBitcoinTransaction } from './bitcoin-fee-wallets';

/**
 * What the Bitcoin payload kind needs from sponsorship: a fee wallet's UTXO held for the step, the
 * step admitted under the key's daily budget (sats), the fee wallet's key to sign its input once the
 * user's signatures are checked, and the completed transaction recorded in the sponsorship ledger.
 * Only the Bitcoin family's payload kind injects it.
 */
@Injectable()
export class BitcoinFeeWalletSponsor {
  constructor(
    private readonly feeWallets: BitcoinFeeWallets,
    private readonly budget: BitcoinSponsorshipBudget,
    private readonly clock: Clock,
  ) {}

  /**
   * Holds one UTXO of the chain's fee wallets worth at least `minValueSats` for `step` until
   * `holdUntilMs`, so no other step spends it; the same step asking again while it holds one gets
   * the same UTXO. SPONSORSHIP_UNAVAILABLE (503) when no fee wallet is configured or none has a free
   * UTXO that large.
   */
  hold(step: FeeInputStep, minValueSats: bigint, holdUntilMs: number): Promise<BitcoinFeeInput> {
    return this.feeWallets.hold(step, minValueSats, holdUntilMs, this.clock.nowMs());
  }

  /** Lets the step's hold go (its payload failed or expired); a hold already spent stays. */
  release(step: FeeInputStep): Promise<void> {
    return this.feeWallets.release(step);
  }

  /** SPONSORSHIP_BUDGET_EXHAUSTED when the key's daily budget on the chain (sats) cannot take the cost. */
  admit(owner: string, chain: string, estimatedCostSats: bigint): Promise<void> {
    return this.budget.check(owner, chain, estimatedCostSats);
  }

  /**
   * Runs `sign` with the 32-byte private key of fee wallet `address` when it is one of the
   * service's, else null. The key never leaves the callback: its bytes are zeroed after it returns.
   */
  withFeeWalletKey<T>(address: string, sign: (privateKey: Uint8Array) => T): T | null {
    return this.feeWallets.withKey(address, sign);
  }

  /**
   * Records a transaction whose fee input the service signed (ledger row pending, purpose
   * 'bitcoin-transaction'; the hold marked spent by it), inside the caller's database transaction.
   * Answers the ledger row's id. SPONSORSHIP_UNAVAILABLE when the fee input is not held for the
   * step (its hold expired and another step took it): the caller must not broadcast then.
   */
  record(manager: EntityManager, transaction: SponsoredBitcoinTransaction): Promise<string> {
    return this.feeWallets.record(manager, transaction, this.clock.nowMs());
  }
}
