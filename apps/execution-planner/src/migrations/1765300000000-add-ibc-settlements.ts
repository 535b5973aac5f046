import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A Cosmos IBC transfer's step is done when its packet is acknowledged, not when the transfer
 * confirms (issue 46): `settlement` 'ibc', and the packet as last read (`packet`: sent, received,
 * acknowledged or timed out), so that each move is told once.
 */
export class AddIbcSettlements1765300000000 implements MigrationInterface {
  name = 'AddIbcSettlements1765300000000';

  async up(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_settlement_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_settlement_check" CHECK ("settlement" IN ('thorchain', 'ibc'))`,
    );
    await q.query(`ALTER TABLE ${steps} ADD COLUMN "packet" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    // An IBC step still waiting for its packet is done as it was before: its transfer confirmed.
    await q.query(
      `UPDATE ${steps} SET "status" = 'confirmed' WHERE "settlement" = 'ibc' AND "status" = 'settling'`,
    );
    await q.query(`UPDATE ${steps} SET "settlement" = NULL WHERE "settlement" = 'ibc'`);
    await q.query(`ALTER TABLE ${steps} DROP COLUMN "packet"`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_settlement_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_settlement_check" CHECK ("settlement" IN ('thorchain'))`,
    );
  }
}
