import { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of';

/**
 * Indexes the retention purge (MessagingRetentionPurge) range-scans: published outbox rows by
 * publication time, processed_events by processing time. Shared by every service that has the
 * messaging tables, after CreateMessagingTables1763700000000 in its migrations list.
 *
 * Built in the migration's transaction, which blocks writes to the table while it builds: nothing on
 * a new or small table. An operator whose tables are already large builds them CONCURRENTLY by hand
 * before the upgrade (docs/runbook.md, "Retention of the messaging tables"); IF NOT EXISTS then
 * finds them. The migration does not build them CONCURRENTLY itself: the services migrate at start,
 * side by side in one database, and concurrent builds wait for every older transaction of the
 * database, each other's included.
 */
export class AddMessagingRetentionIndexes1764500000000 implements MigrationInterface {
  name = 'AddMessagingRetentionIndexes1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "outbox_published_at_idx" ON "${s}"."outbox" ("published_at") WHERE "published_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "processed_events_processed_at_idx" ON "${s}"."processed_events" ("processed_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP INDEX IF EXISTS "${s}"."processed_events_processed_at_idx"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "${s}"."outbox_published_at_idx"`);
  }
}
