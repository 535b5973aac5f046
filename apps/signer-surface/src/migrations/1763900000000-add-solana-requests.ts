import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Requests on Solana chains carry a `solana` spec (bridge deposit to build, or a prebuilt
 * transaction) instead of an EVM call, so `call` becomes optional; one of the two is always there.
 */
export class AddSolanaRequests1763900000000 implements MigrationInterface {
  name = 'AddSolanaRequests1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`ALTER TABLE "${s}"."signing_requests" ADD COLUMN "solana" jsonb NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."signing_requests" ALTER COLUMN "call" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "${s}"."signing_requests" ADD CONSTRAINT "signing_requests_call_or_solana" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    // Solana requests cannot be expressed without the column: they go with it.
    await queryRunner.query(`DELETE FROM "${s}"."signing_requests" WHERE "call" IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "${s}"."signing_requests" DROP CONSTRAINT "signing_requests_call_or_solana"`,
    );
    await queryRunner.query(`ALTER TABLE "${s}"."signing_requests" ALTER COLUMN "call" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."signing_requests" DROP COLUMN "solana"`);
  }
}
