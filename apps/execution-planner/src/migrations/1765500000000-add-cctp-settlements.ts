import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A burn on Noble towards Solana (the devnet bridge's CCTP end) is done when Solana paid it, not
 * when the burn confirms (issue 46): `settlement` 'cctp'.
 */
export class AddCctpSettlements1765500000000 implements MigrationInterface {
  name = 'AddCctpSettlements1765500000000';

  async up(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_settlement_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_settlement_check" CHECK ("settlement" IN ('thorchain', 'ibc', 'cctp'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    // A burn still waiting for its mint is done as it was before: its burn confirmed.
    await q.query(
      `UPDATE ${steps} SET "status" = 'confirmed' WHERE "settlement" = 'cctp' AND "status" = 'settling'`,
    );
    await q.query(`UPDATE ${steps} SET "settlement" = NULL WHERE "settlement" = 'cctp'`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_settlement_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_settlement_check" CHECK ("settlement" IN ('thorchain', 'ibc'))`,
    );
  }
}
