import { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchemaOf } from '../database/quote-tables';

/**
 * A quote without `slippageBps` has no slippage of its own: each route computes one (automatic
 * slippage, stored in the route's summary and plan), so the quote's column is null then.
 */
export class QuoteSlippageAutomatic1767900000000 implements MigrationInterface {
  name = 'QuoteSlippageAutomatic1767900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${quoteSchemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}."quotes" ALTER COLUMN "slippage_bps" DROP NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${quoteSchemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DELETE FROM ${s}."quotes" WHERE "slippage_bps" IS NULL`);
    await queryRunner.query(`ALTER TABLE ${s}."quotes" ALTER COLUMN "slippage_bps" SET NOT NULL`);
  }
}
