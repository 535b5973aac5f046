import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A bridge deposit paying a Noble forwarding account is done when the route after it delivered (the
 * forward's packet, the swap on arrival, the output's packet home), not when the deposit confirms
 * (issue 46): `settlement` 'forwarding'.
 */
export class AddForwardingSettlements1765600000000 implements MigrationInterface {
  name = 'AddForwardingSettlements1765600000000';

  async up(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_settlement_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_settlement_check" CHECK ("settlement" IN ('thorchain', 'ibc', 'cctp', 'forwarding'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    // A deposit still followed is done as it was before: its deposit confirmed.
    await q.query(
      `UPDATE ${steps} SET "status" = 'confirmed' WHERE "settlement" = 'forwarding' AND "status" = 'settling'`,
    );
    await q.query(`UPDATE ${steps} SET "settlement" = NULL WHERE "settlement" = 'forwarding'`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_settlement_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_settlement_check" CHECK ("settlement" IN ('thorchain', 'ibc', 'cctp'))`,
    );
  }
}
