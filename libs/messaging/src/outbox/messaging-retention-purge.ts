import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { PeriodicWork } from '@swapgw/runtime';
import { messagingRetentionMetrics, MessagingTable } from './messaging-retention-metrics';
import { DEFAULT_MESSAGING_RETENTION, MessagingRetentionSettings } from './messaging-retention-settings';
import { schemaOf } from './schema-of';

export interface MessagingRetentionOptions extends Partial<MessagingRetentionSettings> {
  /** Time between two passes (default 10 min). */
  intervalMs?: number;
  /** Delay of the first pass after start (default 1 min: not in the middle of the boot). */
  firstDelayMs?: number;
  /** Rows per DELETE statement, each in its own short transaction (default 5,000). */
  batchSize?: number;
  /**
   * Statements per table in one pass (default 100, 500,000 rows): a large backlog is worked off in
   * several passes, back to back, each logged, rather than in one pass of hours.
   */
  maxBatchesPerPass?: number;
}

export interface MessagingPurgeResult {
  /** Published outbox rows deleted. */
  outbox: number;
  /** processed_events rows deleted. */
  processedEvents: number;
  /** False when a table still had rows past retention at the end of the pass (maxBatchesPerPass). */
  complete: boolean;
}

const DEFAULT_INTERVAL_MS = 10 * 60_000;

/**
 * Deletes what the messaging tables of the DataSource's schema no longer need: outbox rows
 * published more than outboxRetentionHours ago (never an unpublished one) and processed_events rows
 * older than processedEventsRetentionHours (see MESSAGING_RETENTION_BOUNDS for why that bound must
 * exceed how long Kafka keeps the events). Cut-offs use the database's clock, which wrote the rows.
 *
 * Deletes go by bounded batches, each statement its own transaction, so a pass never holds many
 * locks or a long transaction, whatever the backlog. Each batch first takes a transaction-scoped
 * advisory lock of the schema's purge (not the outbox relay's, which it must not slow down): with
 * several instances, one purges and the others skip the pass. A schema without the tables (a
 * service that only consumes request-reply) has nothing to purge.
 */
export class MessagingRetentionPurge {
  private readonly logger = new Logger(MessagingRetentionPurge.name);
  private readonly schema: string;
  private readonly settings: MessagingRetentionSettings;
  private readonly batchSize: number;
  private readonly maxBatchesPerPass: number;
  private readonly loop: PeriodicWork;
  private stopping = false;
  private reportedNoTables = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: MessagingRetentionOptions = {},
  ) {
    this.schema = schemaOf(dataSource);
    this.settings = {
      outboxRetentionHours: options.outboxRetentionHours ?? DEFAULT_MESSAGING_RETENTION.outboxRetentionHours,
      processedEventsRetentionHours:
        options.processedEventsRetentionHours ?? DEFAULT_MESSAGING_RETENTION.processedEventsRetentionHours,
    };
    this.batchSize = options.batchSize ?? 5000;
    this.maxBatchesPerPass = options.maxBatchesPerPass ?? 100;
    this.loop = new PeriodicWork({
      name: 'messaging-retention-purge',
      intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
      run: async () => {
        const result = await this.purge();
        if (result.outbox > 0 || result.processedEvents > 0) {
          this.logger.log({
            msg: 'purged messaging rows past retention',
            schema: this.schema,
            outbox: result.outbox,
            processedEvents: result.processedEvents,
            complete: result.complete,
          });
        }
        return result.complete ? 0 : 1; // not complete: the next pass starts at once
      },
    });
  }

  start(): void {
    this.stopping = false;
    this.loop.start(this.options.firstDelayMs ?? 60_000);
  }

  /** Stops the loop; a pass in flight ends after its current statement. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
  }

  /** One pass over both tables; resolves with what it deleted. */
  async purge(): Promise<MessagingPurgeResult> {
    const result: MessagingPurgeResult = { outbox: 0, processedEvents: 0, complete: true };
    const tables = await this.existingTables();
    for (const table of tables) {
      const { deleted, complete, locked } = await this.purgeTable(table);
      if (table === 'outbox') result.outbox = deleted;
      else result.processedEvents = deleted;
      if (!complete) result.complete = false;
      if (!locked) break; // another instance is purging this schema now
    }
    return result;
  }

  private async existingTables(): Promise<MessagingTable[]> {
    const [row] = (await this.dataSource.query(
      `SELECT to_regclass($1) IS NOT NULL AS "outbox", to_regclass($2) IS NOT NULL AS "processed_events"`,
      [`"${this.schema}"."outbox"`, `"${this.schema}"."processed_events"`],
    )) as Array<Record<MessagingTable, boolean>>;
    const tables = (['outbox', 'processed_events'] as const).filter((table) => row[table]);
    if (tables.length === 0 && !this.reportedNoTables) {
      this.reportedNoTables = true;
      this.logger.debug({ msg: 'no messaging tables in this schema: nothing to purge', schema: this.schema });
    }
    return tables;
  }

  private async purgeTable(
    table: MessagingTable,
  ): Promise<{ deleted: number; complete: boolean; locked: boolean }> {
    let deleted = 0;
    for (let batch = 0; batch < this.maxBatchesPerPass; batch++) {
      if (this.stopping) return { deleted, complete: true, locked: true };
      const count = await this.deleteBatch(table);
      if (count === null) return { deleted, complete: true, locked: false };
      deleted += count;
      messagingRetentionMetrics.purged(this.schema, table, count);
      if (count < this.batchSize) return { deleted, complete: true, locked: true };
    }
    return { deleted, complete: false, locked: true };
  }

  /** Deletes up to batchSize rows past retention, oldest first; null when another instance purges. */
  private deleteBatch(table: MessagingTable): Promise<number | null> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const [{ locked }] = (await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [
        `messaging_retention_${this.schema}`,
      ])) as Array<{ locked: boolean }>;
      if (!locked) return null;
      const [{ count }] = (await manager.query(
        table === 'outbox' ? this.outboxBatchSql() : this.processedEventsBatchSql(),
        [
          table === 'outbox'
            ? this.settings.outboxRetentionHours
            : this.settings.processedEventsRetentionHours,
          this.batchSize,
        ],
      )) as Array<{ count: number }>;
      return count;
    });
  }

  // Both take the batch's oldest rows from their retention index (add-messaging-retention-indexes),
  // then delete by `= ANY(ARRAY(...))`: a lookup per row, where a join or `IN` is planned as a hash
  // join over a sequential scan of the whole table. processed_events has a
  // composite key: its rows go by ctid (stable within the statement; these rows are never updated).
  private outboxBatchSql(): string {
    return `WITH "deleted" AS (
         DELETE FROM "${this.schema}"."outbox" WHERE "id" = ANY(ARRAY(
           SELECT "id" FROM "${this.schema}"."outbox"
            WHERE "published_at" IS NOT NULL AND "published_at" < now() - make_interval(hours => $1::int)
            ORDER BY "published_at"
            LIMIT $2
         ))
         RETURNING 1
       )
       SELECT count(*)::int AS "count" FROM "deleted"`;
  }

  private processedEventsBatchSql(): string {
    return `WITH "deleted" AS (
         DELETE FROM "${this.schema}"."processed_events" WHERE "ctid" = ANY(ARRAY(
           SELECT "ctid" FROM "${this.schema}"."processed_events"
            WHERE "processed_at" < now() - make_interval(hours => $1::int)
            ORDER BY "processed_at"
            LIMIT $2
         ))
         RETURNING 1
       )
       SELECT count(*)::int AS "count" FROM "deleted"`;
  }
}
