import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Status `failed` (an open order the watcher could no longer check), the count of refused checks
 * in a row that leads there, and the reason code and message the order failed with.
 */
export class AddLimitOrderFailure1764310000000 implements MigrationInterface {
  name = 'AddLimitOrderFailure1764310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "limit_order"."limit_orders" DROP CONSTRAINT "limit_orders_status_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "limit_order"."limit_orders" ADD CONSTRAINT "limit_orders_status_check" CHECK ("status" IN ('open', 'triggered', 'canceled', 'expired', 'failed'))`,
    );
    await queryRunner.query(`
      ALTER TABLE "limit_order"."limit_orders"
        ADD COLUMN "failed_checks" int NOT NULL DEFAULT 0,
        ADD COLUMN "failure_code" text NULL,
        ADD COLUMN "failure_message" text NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "limit_order"."limit_orders"
        DROP COLUMN "failure_message",
        DROP COLUMN "failure_code",
        DROP COLUMN "failed_checks"`);
    // Failed orders have no place in the older lifecycle: they read as expired.
    await queryRunner.query(
      `UPDATE "limit_order"."limit_orders" SET "status" = 'expired' WHERE "status" = 'failed'`,
    );
    await queryRunner.query(
      `ALTER TABLE "limit_order"."limit_orders" DROP CONSTRAINT "limit_orders_status_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "limit_order"."limit_orders" ADD CONSTRAINT "limit_orders_status_check" CHECK ("status" IN ('open', 'triggered', 'canceled', 'expired'))`,
    );
  }
}
