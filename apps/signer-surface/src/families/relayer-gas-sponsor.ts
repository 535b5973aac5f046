import { Inject, Injectable } from '@nestjs/common';
import type {
  GasSponsor,
  SponsoredSend,
  SponsoredSent,
  SponsoredTransactionStatus,
} from '../sponsorship/gas-sponsor';
import { EvmSponsorshipBudget, Relayers } from './evm';
import { SponsoredPurpose } from '../sponsorship/sponsored-transaction.entity';
import { SponsoredTransactions } from '../sponsorship/sponsored-transactions';
import { SponsorshipBudget } from '../sponsorship/sponsorship-budget';

/**
 * The signing flow's GasSponsor port, served by the relayers (EVM chains, their budget in wei) and
 * the sponsorship ledger. The Solana fee payers and Bitcoin fee wallets are their families' own
 * sponsors (SolanaFeePayerSponsor, BitcoinFeeWalletSponsor), injected by those families' kinds.
 */
@Injectable()
export class RelayerGasSponsor implements GasSponsor {
  constructor(
    private readonly relayers: Relayers,
    /** The daily budget of EVM chains, in wei. */
    @Inject(EvmSponsorshipBudget) private readonly budget: SponsorshipBudget,
    private readonly ledger: SponsoredTransactions,
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
}
