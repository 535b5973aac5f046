import type {
  GasSponsor,
  SponsoredSend,
  SponsoredSent,
  SponsoredTransactionStatus,
} from '../signing/sponsored/gas-sponsor';
import { Relayers } from './relayers';
import { SponsoredPurpose } from './sponsored-transaction.entity';
import { SponsoredTransactions } from './sponsored-transactions';
import { SponsorshipBudget } from './sponsorship-budget';

/** The signing flow's GasSponsor port, served by the relayers, the budget and the ledger. */
export class RelayerGasSponsor implements GasSponsor {
  constructor(
    private readonly relayers: Relayers,
    private readonly budget: SponsorshipBudget,
    private readonly ledger: SponsoredTransactions,
  ) {}

  /** Budget first (SPONSORSHIP_BUDGET_EXHAUSTED), then a relayer able to pay (SPONSORSHIP_UNAVAILABLE). */
  async admit(owner: string, chain: string, estimatedCostWei: bigint): Promise<void> {
    await this.budget.check(owner, chain, estimatedCostWei);
    await this.relayers.assertCanPay(chain, estimatedCostWei);
  }

  async send(call: SponsoredSend): Promise<SponsoredSent> {
    const sent = await this.relayers.send(call);
    return { id: sent.id, txHash: sent.txHash };
  }

  async status(id: string): Promise<SponsoredTransactionStatus> {
    const view = await this.ledger.lookup(id);
    if (!view) throw new Error(`no sponsored transaction ${id}`);
    return { state: view.status, hashes: view.hashes, minedHash: view.mined?.txHash ?? null };
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
