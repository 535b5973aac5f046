import { Client } from 'pg';
import { testEnv } from '@swapgw/testing';

/** The rows gateway.integrator_fees_collected holds for a swap, largest amount first. */
export async function collectedFeesOf(swapId: string): Promise<unknown[]> {
  const db = new Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT "owner", "chain", "token_symbol", "recipient", "amount"::text, "tx_hash"
         FROM "gateway"."integrator_fees_collected" WHERE "swap_id" = $1 ORDER BY "amount" DESC`,
      [swapId],
    );
    return rows;
  } finally {
    await db.end();
  }
}
