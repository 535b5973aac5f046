import { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of';

/**
 * Creates `outbox` and `processed_events` in the schema of the DataSource that runs it, so every
 * service adds this one class to its migrations list.
 */
export class CreateMessagingTables1763700000000 implements MigrationInterface {
  name = 'CreateMessagingTables1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${s}"."outbox" (
        "id" BIGSERIAL PRIMARY KEY,
        "event_id" uuid NOT NULL,
        "topic" text NOT NULL,
        "message_key" text NOT NULL,
        "envelope" jsonb NOT NULL,
        "headers" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "published_at" timestamptz NULL,
        CONSTRAINT "outbox_event_id_key" UNIQUE ("event_id")
      )`);
    // The relay only ever reads unpublished rows in id order: a partial index keeps that cheap.
    await queryRunner.query(
      `CREATE INDEX "outbox_unpublished_idx" ON "${s}"."outbox" ("id") WHERE "published_at" IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE "${s}"."processed_events" (
        "consumer_group" text NOT NULL,
        "event_id" uuid NOT NULL,
        "processed_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer_group", "event_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP TABLE IF EXISTS "${s}"."processed_events"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "${s}"."outbox"`);
  }
}
