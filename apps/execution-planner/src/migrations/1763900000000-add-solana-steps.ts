import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Steps on Solana: a step names its own signer (on an EVM ⇄ Solana route the two sides are signed
 * by different wallets), carries a `solana` spec instead of an EVM call, so `call` becomes optional.
 * Rows written before this have signer NULL, meaning the swap's user_address.
 */
export class AddSolanaSteps1763900000000 implements MigrationInterface {
  name = 'AddSolanaSteps1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`ALTER TABLE "${s}"."swap_steps" ADD COLUMN "signer" text NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."swap_steps" ADD COLUMN "solana" jsonb NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."swap_steps" ALTER COLUMN "call" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "${s}"."swap_steps" ADD CONSTRAINT "swap_steps_call_or_solana" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    // Solana steps cannot be expressed without these columns: they go with them.
    await queryRunner.query(`DELETE FROM "${s}"."swap_steps" WHERE "call" IS NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."swap_steps" DROP CONSTRAINT "swap_steps_call_or_solana"`);
    await queryRunner.query(`ALTER TABLE "${s}"."swap_steps" ALTER COLUMN "call" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."swap_steps" DROP COLUMN "solana"`);
    await queryRunner.query(`ALTER TABLE "${s}"."swap_steps" DROP COLUMN "signer"`);
  }
}
