import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A THORChain deposit's step tells THORChain's progress of its swap (issue 47: tx/status phases,
 * streaming count, outbound ids): `thorchain`, the phase as last read, so that each change is told once.
 */
export class AddThorchainProgress1765400000000 implements MigrationInterface {
  name = 'AddThorchainProgress1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "${schemaOf(q.connection)}"."swap_steps" ADD COLUMN "thorchain" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "${schemaOf(q.connection)}"."swap_steps" DROP COLUMN "thorchain"`);
  }
}
