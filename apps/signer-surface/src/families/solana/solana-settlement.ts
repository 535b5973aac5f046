import { Injectable } from '@nestjs/common';
import { VersionedTransaction } from '@solana/web3.js';
import { SignerChains } from '../../chains/signer-chains';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import type { SponsorTracking } from '../../sponsorship/tracking/sponsor-tracking';
import { TrackedRows } from '../../sponsorship/tracking/tracked-rows';
import { SolanaFeePayers } from './solana-fee-payers';

/**
 * A user's Solana transaction the service's fee payer co-signed. Confirmed (or finalized): settled
 * with the fee the node charged (meta.fee) and what the fee payer's balance lost (fee and rent;
 * never below 0), `failed` when it executed with an error (its fee is paid all the same). Unknown
 * to the node once its blockhash expired: it can never land, `dropped`, nothing paid. Nothing is
 * sent from here: the signing request's tracker resends the transaction while it can land. On the
 * tracker's clock it also reads the fee payers' balances.
 */
@Injectable()
export class SolanaSettlement implements SponsorTracking {
  readonly purposes = ['solana-transaction'] as const;

  constructor(
    private readonly chains: SignerChains,
    private readonly rows: TrackedRows,
    private readonly feePayers: SolanaFeePayers,
  ) {}

  refreshBalances(): Promise<void> {
    return this.feePayers.refreshBalances();
  }

  async check(row: SponsoredTransactionEntity): Promise<void> {
    const lookup = this.chains.families.solana(row.chain);
    if (!lookup.ok) return this.rows.later(row.id, this.rows.policy.pollMs * 10);
    const { connection } = lookup.client;
    const statusOf = async () =>
      (await connection.getSignatureStatuses([row.txHash], { searchTransactionHistory: true })).value[0];
    const status = await statusOf();
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') {
      const tx = await connection.getTransaction(row.txHash, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      const payer =
        tx?.transaction.message.staticAccountKeys.findIndex((key) => key.toBase58() === row.relayer) ?? -1;
      if (tx?.meta && payer >= 0) {
        const lost = BigInt(tx.meta.preBalances[payer]) - BigInt(tx.meta.postBalances[payer]);
        return this.rows.settle(row, tx.meta.err ? 'failed' : 'confirmed', {
          gasUsed: BigInt(tx.meta.fee),
          effectiveGasPrice: 1n,
          costWei: lost > 0n ? lost : 0n,
          blockNumber: tx.slot,
          minedAtMs: tx.blockTime ? tx.blockTime * 1000 : this.rows.clock.nowMs(),
        });
      }
    } else if (!status) {
      const { recentBlockhash } = VersionedTransaction.deserialize(Buffer.from(row.data, 'base64')).message;
      const { value: valid } = await connection.isBlockhashValid(recentBlockhash, {
        commitment: 'confirmed',
      });
      // Looked at once more: it may have landed between the status read and the blockhash check.
      if (!valid && !(await statusOf())) return this.rows.settle(row, 'dropped', { costWei: 0n });
    }
    await this.rows.later(row.id);
  }
}
