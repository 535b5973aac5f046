import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '@swapgw/runtime';
import type {
  BitcoinFeeInput,
  GasSponsor,
  SponsoredBitcoinTransaction,
  SponsoredSend,
  SponsoredSent,
  SponsoredSolanaTransaction,
  SponsoredTransactionStatus,
} from '../sponsorship/gas-sponsor';
import { BitcoinFeeWallets, BitcoinSponsorshipBudget } from './bitcoin';
import { EvmSponsorshipBudget, Relayers } from './evm';
import { sponsorshipUnavailable } from '../sponsorship/relaying-errors';
import { SolanaFeePayers, SolanaSponsorshipBudget } from './solana';
import { SponsoredPurpose } from '../sponsorship/sponsored-transaction.entity';
import { SponsoredTransactions } from '../sponsorship/sponsored-transactions';
import { SponsorshipBudget } from '../sponsorship/sponsorship-budget';

/**
 * The signing flow's GasSponsor port, served by the relayers, the Solana fee payers, the Bitcoin fee
 * wallets, the budgets (wei on EVM chains, lamports on Solana ones, sats on Bitcoin ones) and the
 * ledger.
 */
@Injectable()
export class RelayerGasSponsor implements GasSponsor {
  constructor(
    private readonly relayers: Relayers,
    /** The daily budget of EVM chains, in wei. */
    @Inject(EvmSponsorshipBudget) private readonly budget: SponsorshipBudget,
    private readonly ledger: SponsoredTransactions,
    private readonly clock: Clock,
    /** Absent: sponsored Solana steps are unavailable. */
    private readonly feePayers?: SolanaFeePayers,
    /** The daily budget of Solana chains, in lamports. */
    @Inject(SolanaSponsorshipBudget) private readonly solanaBudget?: SponsorshipBudget,
    /** Absent: sponsored Bitcoin steps are unavailable. */
    private readonly feeWallets?: BitcoinFeeWallets,
    /** The daily budget of Bitcoin chains, in sats. */
    @Inject(BitcoinSponsorshipBudget) private readonly bitcoinBudget?: SponsorshipBudget,
  ) {}

  /** Budget first (SPONSORSHIP_BUDGET_EXHAUSTED), then a relayer able to pay (SPONSORSHIP_UNAVAILABLE). */
  async admit(owner: string, chain: string, estimatedCostWei: bigint): Promise<void> {
    await this.budget.check(owner, chain, estimatedCostWei);
    await this.relayers.assertCanPay(chain, estimatedCostWei);
  }

  async send(call: SponsoredSend): Promise<SponsoredSent> {
    // One transaction may never bid more than the owner's whole day on the chain.
    const sent = await this.relayers.send({
      ...call,
      maxCostWei: this.budget.dailyLimitOf(call.owner, call.chain),
    });
    return { id: sent.id, txHash: sent.txHash };
  }

  async status(id: string): Promise<SponsoredTransactionStatus> {
    const view = await this.ledger.lookup(id);
    if (!view) throw new Error(`no sponsored transaction ${id}`);
    return {
      state: view.status,
      hashes: view.hashes,
      minedHash: view.mined?.txHash ?? null,
      failure: view.failure,
    };
  }

  async findSent(
    swapId: string,
    stepIndex: number,
    purpose: SponsoredPurpose,
  ): Promise<SponsoredSent | null> {
    const view = await this.ledger.latestFor(swapId, stepIndex, purpose);
    return view ? { id: view.id, txHash: view.txHash } : null;
  }

  solanaFeePayer(chain: string, estimatedCostLamports: bigint): Promise<string> {
    return this.solana(chain).feePayers.pick(chain, estimatedCostLamports);
  }

  admitSolana(owner: string, chain: string, estimatedCostLamports: bigint): Promise<void> {
    return this.solana(chain).budget.check(owner, chain, estimatedCostLamports);
  }

  signAsSolanaFeePayer(feePayer: string, message: Uint8Array): Uint8Array | null {
    return this.feePayers?.sign(feePayer, message) ?? null;
  }

  recordSolana(manager: EntityManager, transaction: SponsoredSolanaTransaction): Promise<string> {
    return this.solana(transaction.chain).feePayers.record(manager, transaction, this.clock.nowMs());
  }

  holdBitcoinFeeInput(
    chain: string,
    swapId: string,
    stepIndex: number,
    minValueSats: bigint,
    holdUntilMs: number,
  ): Promise<BitcoinFeeInput> {
    return this.bitcoin(chain).feeWallets.hold(
      { chain, swapId, stepIndex },
      minValueSats,
      holdUntilMs,
      this.clock.nowMs(),
    );
  }

  async releaseBitcoinFeeInput(chain: string, swapId: string, stepIndex: number): Promise<void> {
    await this.feeWallets?.release({ chain, swapId, stepIndex });
  }

  admitBitcoin(owner: string, chain: string, estimatedCostSats: bigint): Promise<void> {
    return this.bitcoin(chain).budget.check(owner, chain, estimatedCostSats);
  }

  withBitcoinFeeWalletKey<T>(address: string, sign: (privateKey: Uint8Array) => T): T | null {
    return this.feeWallets?.withKey(address, sign) ?? null;
  }

  recordBitcoin(manager: EntityManager, transaction: SponsoredBitcoinTransaction): Promise<string> {
    return this.bitcoin(transaction.chain).feeWallets.record(manager, transaction, this.clock.nowMs());
  }

  private bitcoin(chain: string): { feeWallets: BitcoinFeeWallets; budget: SponsorshipBudget } {
    if (!this.feeWallets || !this.bitcoinBudget) {
      throw sponsorshipUnavailable(chain, 'no Bitcoin fee wallet is configured');
    }
    return { feeWallets: this.feeWallets, budget: this.bitcoinBudget };
  }

  private solana(chain: string): { feePayers: SolanaFeePayers; budget: SponsorshipBudget } {
    if (!this.feePayers || !this.solanaBudget) {
      throw sponsorshipUnavailable(chain, 'no Solana fee payer is configured');
    }
    return { feePayers: this.feePayers, budget: this.solanaBudget };
  }
}
