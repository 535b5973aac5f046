import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QuotedToken } from '../swap/swap-resource';

/** One integrator fee a swap paid on chain: `amount` (base units of `token`) to `recipient`. */
export interface CollectedIntegratorFee {
  swapId: string;
  owner: string;
  chain: string;
  token: QuotedToken;
  recipient: string;
  amount: string;
  txHash: string | null;
}

/** The fees one owner's swaps paid, summed per chain, token and recipient (`npm run keys -- fees`). */
export interface CollectedFeeTotal {
  chain: string;
  tokenSymbol: string;
  tokenAddress: string | null;
  tokenDecimals: number;
  recipient: string;
  /** Base units of the token. */
  amount: string;
  payments: number;
}

/** Reads and writes of gateway.integrator_fees_collected. */
@Injectable()
export class IntegratorFeesCollectedRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records the fees in `manager`'s transaction (the projection of the event that confirmed them);
   * a fee already recorded for that swap and recipient is left as it is. Returns the fees written.
   */
  async record(manager: EntityManager, fees: CollectedIntegratorFee[]): Promise<CollectedIntegratorFee[]> {
    const written: CollectedIntegratorFee[] = [];
    for (const fee of fees) {
      const rows = (await manager.query(
        `INSERT INTO "gateway"."integrator_fees_collected"
           ("swap_id", "recipient", "owner", "chain", "token_symbol", "token_address", "token_decimals", "amount", "tx_hash")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT ("swap_id", "recipient") DO NOTHING
         RETURNING "swap_id"`,
        [
          fee.swapId,
          fee.recipient,
          fee.owner,
          fee.chain,
          fee.token.symbol,
          fee.token.address,
          fee.token.decimals,
          fee.amount,
          fee.txHash,
        ],
      )) as unknown[];
      if (rows.length > 0) written.push(fee);
    }
    return written;
  }

  /** An owner's fees, summed per chain, token and recipient, recorded at or after `since` when given. */
  async totalsOf(owner: string, since: Date | null): Promise<CollectedFeeTotal[]> {
    const rows: Array<Omit<CollectedFeeTotal, 'payments'> & { payments: string }> =
      await this.dataSource.query(
        `SELECT "chain", "token_symbol" AS "tokenSymbol", "token_address" AS "tokenAddress",
              "token_decimals" AS "tokenDecimals", "recipient",
              SUM("amount")::text AS "amount", COUNT(*)::text AS "payments"
         FROM "gateway"."integrator_fees_collected"
        WHERE "owner" = $1 AND ($2::timestamptz IS NULL OR "recorded_at" >= $2::timestamptz)
        GROUP BY "chain", "token_symbol", "token_address", "token_decimals", "recipient"
        ORDER BY "chain", "token_symbol", "recipient"`,
        [owner, since?.toISOString() ?? null],
      );
    return rows.map((row) => ({ ...row, payments: Number(row.payments) }));
  }
}
