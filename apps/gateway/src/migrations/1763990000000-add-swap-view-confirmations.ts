import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How far the current step's transaction is confirmed (`confirming`): GET /swap/{swapId}/signing
 * shows it in its 202 body as `transaction { txHash, confirmations, confirmationsRequired }`.
 */
export class AddSwapViewConfirmations1763990000000 implements MigrationInterface {
  name = 'AddSwapViewConfirmations1763990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "gateway"."swap_views" ADD COLUMN "confirmations" integer NULL, ADD COLUMN "confirmations_required" integer NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "gateway"."swap_views" DROP COLUMN "confirmations", DROP COLUMN "confirmations_required"`,
    );
  }
}
