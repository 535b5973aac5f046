import { Injectable } from '@nestjs/common';
import { AuthInfo, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { SignerChains } from '../../chains/signer-chains';
import type { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import type { SponsorTracking } from '../../sponsorship/tracking/sponsor-tracking';
import { failureOf, TrackedRows } from '../../sponsorship/tracking/tracked-rows';
import { CosmosFeeGranters } from './cosmos-fee-granters';

/** A transaction the chain still does not know this long after it was recorded is taken as never sent. */
export const COSMOS_UNSEEN_AFTER_MS = 3_600_000;

/**
 * The Cosmos family's part of following the sponsorship ledger: the fees its granters pay, in base
 * units of the chain's fee denom. A user's transaction (cosmos-transaction) or a grant
 * (cosmos-fee-grant) in a block is settled at its fee, `confirmed`, or `failed` when its code is not
 * 0 (CometBFT charges the fee of a failed transaction all the same). One the chain does not know
 * once its signer's sequence moved past the transaction's (another transaction took the sequence),
 * or an hour after it was recorded, can never land: `dropped`, nothing paid. Nothing is sent from
 * here: the signing request's tracker resends a step's transaction, a grant is awaited where it is
 * made. On the tracker's clock it also reads the granters' balances.
 */
@Injectable()
export class CosmosFeeGrantTracking implements SponsorTracking {
  readonly purposes = ['cosmos-transaction', 'cosmos-fee-grant'] as const;

  constructor(
    private readonly chains: SignerChains,
    private readonly rows: TrackedRows,
    private readonly granters: CosmosFeeGranters,
  ) {}

  refreshBalances(): Promise<void> {
    return this.granters.refreshBalances();
  }

  async check(row: SponsoredTransactionEntity): Promise<void> {
    const lookup = this.chains.families.cosmos(row.chain);
    if (!lookup.ok) return this.rows.later(row.id, this.rows.policy.pollMs * 10);
    const { client } = lookup;
    const progress = await client.progress(row.txHash, 1);
    if (progress.kind === 'confirmed' || progress.kind === 'failed') {
      return this.rows.settle(row, progress.kind, {
        gasUsed: row.gasLimit,
        effectiveGasPrice: 1n,
        costWei: row.gasLimit,
        blockNumber: progress.blockNumber,
        minedAtMs:
          (progress.kind === 'confirmed' ? progress.blockTimeMs : undefined) ?? this.rows.clock.nowMs(),
      });
    }
    if (progress.kind === 'unknown') {
      const why = await this.neverLands(row, (address) => client.accountOf(address));
      if (why) return this.rows.settle(row, 'dropped', { costWei: 0n, ...failureOf('RELAY_DROPPED', why) });
    }
    await this.rows.later(row.id);
  }

  /** Why a transaction the chain does not know can never land, or null while it still may. */
  private async neverLands(
    row: SponsoredTransactionEntity,
    accountOf: (address: string) => Promise<{ sequence: bigint } | null>,
  ): Promise<string | null> {
    if (this.rows.clock.nowMs() - row.lastSentAtMs > COSMOS_UNSEEN_AFTER_MS)
      return `the chain does not know Cosmos transaction ${row.txHash} an hour after it was signed`;
    const signed = signerOf(row);
    const account = signed ? await accountOf(signed.address) : null;
    if (!signed || !account || account.sequence <= signed.sequence) return null;
    return `sequence ${signed.sequence} of ${signed.address} was used by another transaction: Cosmos transaction ${row.txHash} can never land`;
  }
}

/** The signer of a ledger row's transaction (the wallet, or the granter for a grant) and its sequence. */
function signerOf(row: SponsoredTransactionEntity): { address: string; sequence: bigint } | null {
  try {
    const [info] = AuthInfo.decode(TxRaw.decode(Buffer.from(row.data, 'base64')).authInfoBytes).signerInfos;
    if (!info) return null;
    return { address: row.purpose === 'cosmos-fee-grant' ? row.relayer : row.to, sequence: info.sequence };
  } catch {
    return null;
  }
}
