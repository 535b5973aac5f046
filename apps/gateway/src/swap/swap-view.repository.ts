import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SwapEventType } from '@swapgw/contracts';
import { DataSource, EntityManager, EntityMetadata } from 'typeorm';
import { Clock, GroupedWrites } from '@swapgw/runtime';
import type { EventClaim } from '@swapgw/messaging';
import { ClaimCompletion, completionsOf } from '../idempotency';
import { EntityRows, entityRowsOf, updateStatementOf, withConnectionPriority } from '@swapgw/persistence';
import { streamEventDataOf } from '../swap-event-stream/swap-stream-events';
import type { QuotedSwap, SwapListPosition } from './swap-resource';
import type { SwapStepRecord } from './swap-steps';
import type { VersionedView } from './swap-view-cache';
import { SWAP_VIEW_CHANNEL, SwapViewChanges } from './swap-view-changes';
import { SwapViewEntity } from './swap-view.entity';

type ViewChange = Partial<Omit<SwapViewEntity, 'swapId' | 'owner' | 'createdAtMs'>>;

/**
 * Rows ensureCreated writes in one statement, at most, and such statements at once: a burst of
 * builds costs a few statements and pool connections, not one each (a build waited 5.1 s for its
 * row's statement, median, when 3,000 arrived within seconds).
 */
export const CREATED_ROWS_PER_STATEMENT = 200;
const CREATED_ROW_STATEMENTS_IN_FLIGHT = 2;

/** A row ensureCreated writes outside a transaction. */
interface RowToCreate {
  swapId: string;
  owner: string;
  status: string;
  stepTotal: number | null;
  nowMs: number;
  quoted: QuotedSwap | null;
  completing?: ClaimCompletion;
}

/** What ensureCreated's statement did for one row. */
interface CreatedRow {
  /** The row as written when this created it, else null. */
  created: VersionedView | null;
  /** The row was there and changed (its quoted figures added): its cached copies are stale. */
  changed: boolean;
  /** The row's claim was completed in the same statement. */
  completed: boolean;
}

/**
 * Reads and writes of gateway.swap_views. Every write that changes a row NOTIFYs SWAP_VIEW_CHANNEL
 * with the swapId (delivered when its transaction commits), which wakes the builds waiting on that
 * swap and drops it from every instance's cache of views. The projector's fast path also names the
 * row's new version (`<swapId>:<xmin>`) and caches the row its statement returned: its own
 * notification then keeps that entry, every other instance drops theirs. Creating a row needs no
 * notification: nobody waits on, or caches, a row that does not exist yet.
 */
@Injectable()
export class SwapViewRepository {
  /** The row reads of the hot paths (a poll, a projected event): plain SQL, columns from the entity. */
  private readonly rows: EntityRows<SwapViewEntity>;
  /** ensureCreated outside a transaction: concurrent builds' rows share a statement. */
  private readonly rowsToCreate = new GroupedWrites<RowToCreate, CreatedRow>({
    maxBatch: CREATED_ROWS_PER_STATEMENT,
    maxInFlight: CREATED_ROW_STATEMENTS_IN_FLIGHT,
    // A build waits on its row: its statements go first (as its claim's).
    write: (rows) => withConnectionPriority('command', () => this.createRows(rows)),
  });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly changes: SwapViewChanges,
    private readonly clock: Clock,
  ) {
    this.rows = entityRowsOf(dataSource, SwapViewEntity);
  }

  /**
   * The row of `swapId` as it is now and its version (`lock`: FOR UPDATE, inside the caller's
   * transaction), or null.
   */
  private async readRow(
    runner: Pick<EntityManager, 'query'>,
    swapId: string,
    lock = false,
  ): Promise<VersionedView | null> {
    const [row] = (await runner.query(
      `SELECT ${this.rows.columns()}, ${VERSION} FROM ${this.rows.table} WHERE "swap_id" = $1${lock ? ' FOR UPDATE' : ''}`,
      [swapId],
    )) as VersionedRow[];
    return row ? this.versionedOf(row) : null;
  }

  /** The entity and version of a row read or returned with `columns()` and VERSION. */
  private versionedOf(row: VersionedRow): VersionedView {
    return { view: this.rows.entityOf(row), version: row.view_version };
  }

  /**
   * The swap of this owner, or null (unknown, or another owner's: both read as "not found").
   * Answered from the cache of views while the row has not changed since this instance read it.
   */
  async findOwned(swapId: string, owner: string): Promise<SwapViewEntity | null> {
    if (!UUID.test(swapId)) return null;
    const cache = this.changes.cache;
    const cached = cache.get(swapId, this.clock.nowMs());
    if (cached) return cached.owner === owner ? cached : null;
    const read = cache.beginRead(swapId);
    let found: VersionedView | null = null;
    try {
      found = await this.readRow(this.dataSource, swapId);
    } finally {
      cache.finishRead(read, found, this.clock.nowMs());
    }
    return found?.view.owner === owner ? found.view : null;
  }

  /**
   * Makes sure a freshly built swap has a row before the build answers, so that a poll right after
   * a 202 finds it even when swap.created is not projected yet. Never overwrites a projected row:
   * returns true when it created the row (then it holds exactly what was given), false when the
   * row was there already. `quoted` (the build's: what the quote promised) is also added to a row
   * the projector wrote first, with a notification, and never replaces one already recorded.
   * `completing`: the build's Idempotency-Key claim, completed in the same statement when (and only
   * when) this created the row, with the answer the build gives then.
   * Outside a transaction (`manager` absent), the rows of concurrent calls are written together in
   * one statement (GroupedWrites); inside one, the row is the transaction's own statement.
   */
  async ensureCreated(
    swapId: string,
    owner: string,
    status: string,
    stepTotal: number | null,
    nowMs: number,
    manager?: EntityManager,
    quoted: QuotedSwap | null = null,
    completing?: ClaimCompletion,
  ): Promise<boolean> {
    const row: RowToCreate = { swapId, owner, status, stepTotal, nowMs, quoted, completing };
    const cache = this.changes.cache;
    const outcome = (result: CreatedRow): boolean => {
      if (result.changed) cache.invalidate(swapId);
      if (result.completed) completing?.completed();
      return result.created !== null;
    };
    if (manager) return outcome((await this.createRowsWith(manager, [row]))[0]);
    // The row this creates is the one the swap's first poll reads: committed when the statement
    // returns, it goes into the cache of views as a read would, so that poll is answered from
    // memory. A change announced meanwhile keeps it out (finishRead).
    const read = cache.beginRead(swapId);
    let created: VersionedView | null = null;
    try {
      const result = await this.rowsToCreate.add(row);
      created = result.created;
      return outcome(result);
    } finally {
      cache.finishRead(read, created, this.clock.nowMs());
    }
  }

  /** Rows of several swaps in one statement; a swap named twice (never by two builds) goes one row at a time. */
  private async createRows(rows: RowToCreate[]): Promise<CreatedRow[]> {
    const runner = this.dataSource.manager;
    if (new Set(rows.map((row) => row.swapId)).size === rows.length) return this.createRowsWith(runner, rows);
    const results: CreatedRow[] = [];
    for (const row of rows) results.push(...(await this.createRowsWith(runner, [row])));
    return results;
  }

  /**
   * One statement: each row, or the quoted figures added to the projector's row and its
   * notification, and each row's claim completed when (and only when) the statement created its row.
   * The swaps must be distinct (ON CONFLICT DO UPDATE changes a row once per statement).
   */
  private async createRowsWith(
    runner: Pick<EntityManager, 'query'>,
    rows: RowToCreate[],
  ): Promise<CreatedRow[]> {
    const terms = rows.map((row) => row.completing?.terms);
    const written: Array<VersionedRow & { swap_id: string; inserted: boolean; completed: boolean }> =
      await runner.query(
        `WITH "input" AS (
           SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::int[], $5::bigint[], $6::jsonb[],
                                $7::uuid[], $8::timestamptz[], $9::int[], $10::jsonb[])
             AS i("swap_id", "owner", "status", "step_total", "now_ms", "quoted",
                  "claim_id", "claimed_at", "response_status", "response_body")),
         "written" AS (
           INSERT INTO "gateway"."swap_views" ("swap_id", "owner", "status", "step_current", "step_total", "quoted", "created_at_ms", "updated_at_ms")
           SELECT "swap_id", "owner", "status", 1, "step_total", "quoted", "now_ms", "now_ms" FROM "input"
           ON CONFLICT ("swap_id") DO UPDATE SET "quoted" = EXCLUDED."quoted"
             WHERE "swap_views"."quoted" IS NULL AND EXCLUDED."quoted" IS NOT NULL
           RETURNING ${this.rows.columns()}, ${VERSION}, (xmax = 0) AS "inserted"),
         "completed" AS (${completionsOf(
           'input',
           'EXISTS (SELECT 1 FROM "written" AS w WHERE w."swap_id" = c."swap_id" AND w."inserted")',
         )})
         SELECT ${this.rows.columns('"written"')}, "view_version", "inserted",
           CASE WHEN "inserted" THEN NULL ELSE pg_notify($11, "written"."swap_id"::text) END AS "notified",
           EXISTS (SELECT 1 FROM "completed" AS d JOIN "input" AS i ON i."claim_id" = d."id"
                    WHERE i."swap_id" = "written"."swap_id") AS "completed"
         FROM "written"`,
        [
          rows.map((row) => row.swapId),
          rows.map((row) => row.owner),
          rows.map((row) => row.status),
          rows.map((row) => row.stepTotal),
          rows.map((row) => row.nowMs),
          rows.map((row) => (row.quoted === null ? null : JSON.stringify(row.quoted))),
          terms.map((t) => t?.claim.id ?? null),
          terms.map((t) => t?.claim.claimedAt ?? null),
          terms.map((t) => t?.status ?? null),
          terms.map((t) => (t ? JSON.stringify(t.response) : null)),
          SWAP_VIEW_CHANNEL,
        ],
      );
    const bySwap = new Map(written.map((row) => [row.swap_id.toLowerCase(), row]));
    return rows.map(({ swapId }) => {
      const row = bySwap.get(swapId.toLowerCase());
      return {
        created: row?.inserted === true ? this.versionedOf(row) : null,
        changed: row !== undefined && row.inserted !== true,
        completed: row?.completed === true,
      };
    });
  }

  /**
   * Applies a projected change, and with `loggedAs` appends that event to the swap's event log
   * (gateway.swap_events, which event streams read) as the row now reads, in the same statement;
   * returns the row as it now reads, or null when the swap has no row (its creation was not seen:
   * nothing is logged either).
   * `stepsAfter` computes the swap's steps from the steps read under the row lock. Two statements:
   * the locked read (two events of one swap never interleave), then the UPDATE with its log row
   * and NOTIFY.
   */
  async update(
    manager: EntityManager,
    swapId: string,
    change: ViewChange,
    options: UpdateOptions = {},
  ): Promise<SwapViewEntity | null> {
    const row = (await this.readRow(manager, swapId, true))?.view;
    if (!row) return null;
    const statement = updateAndNotifyStatement(
      manager.connection.getMetadata(SwapViewEntity),
      swapId,
      projected(row, change, options),
    );
    await manager.query(statement.sql, statement.parameters);
    return row;
  }

  /**
   * `update` without a transaction, for the projector's fast path: starts from the row and version
   * in this instance's cache of views (usually there: this instance's last write of the swap, or the
   * build's INSERT, put it there), else reads it without a lock; then writes the change, its log
   * row, the event's `claim` and the NOTIFY in one autocommitted statement that applies only if the
   * row is still that version (its xmin) and the event is not claimed yet. The row it wrote, and
   * its new version, go into the cache (as a read's answer: a change announced meanwhile keeps them
   * out), so the swap's next poll and next event need no read. False when it wrote nothing (no row,
   * a write since the read or the cached version, or the event already applied): the caller then
   * takes the transactional path, which tells these apart.
   */
  async updateAtOnce(
    swapId: string,
    change: ViewChange,
    options: UpdateOptions,
    claim: EventClaim,
  ): Promise<boolean> {
    const cache = this.changes.cache;
    const cached = cache.versioned(swapId, this.clock.nowMs());
    // A copy: `projected` changes the row it is given, and the cached one is shared with polls.
    const current = cached
      ? { view: Object.assign(new SwapViewEntity(), cached.view), version: cached.version }
      : await this.readRow(this.dataSource, swapId);
    if (!current) return false;
    const statement = updateAndNotifyStatement(this.dataSource.getMetadata(SwapViewEntity), swapId, {
      ...projected(current.view, change, options),
      guard: { version: current.version, claim, returning: this.rows.columns() },
    });
    const read = cache.beginRead(swapId);
    let written: VersionedView | null = null;
    try {
      const [row] = (await this.dataSource.query(statement.sql, statement.parameters)) as VersionedRow[];
      if (row) written = this.versionedOf(row);
      // Refused from a cached version: it may not be the row's any more (its change's notification
      // still on the way, or lost), so nobody should be answered from it.
      else if (cached) cache.invalidate(swapId);
      return written !== null;
    } finally {
      cache.finishRead(read, written, this.clock.nowMs());
    }
  }

  /**
   * One page of an owner's swaps, newest first (created_at_ms, then swap_id, both descending),
   * starting after `after`; `limit + 1` rows are read so the caller knows whether a page follows.
   */
  async listOwned(
    owner: string,
    status: string | null,
    after: SwapListPosition | null,
    limit: number,
  ): Promise<SwapViewEntity[]> {
    const query = this.dataSource
      .getRepository(SwapViewEntity)
      .createQueryBuilder('view')
      .where('view.owner = :owner', { owner })
      .orderBy('view.createdAtMs', 'DESC')
      .addOrderBy('view.swapId', 'DESC')
      .limit(limit + 1);
    if (status !== null) query.andWhere('view.status = :status', { status });
    if (after) {
      query.andWhere(
        '(view.createdAtMs < :afterMs OR (view.createdAtMs = :afterMs AND view.swapId < :afterId))',
        {
          afterMs: after.createdAtMs,
          afterId: after.swapId,
        },
      );
    }
    return query.getMany();
  }

  /**
   * After the signer accepted a signed transaction: the payload of that step is spent. Guarded by
   * the step number so that it never hides the next step's payload if the projector got there first.
   */
  async markSubmitted(swapId: string, stepCurrent: number, txHash: string, nowMs: number): Promise<void> {
    // One statement: the update and its notification commit together.
    await this.dataSource.query(
      `WITH "submitted" AS (
         UPDATE "gateway"."swap_views" SET "status" = 'submitted', "payload" = NULL, "expires_at_ms" = NULL, "last_tx_hash" = $3, "updated_at_ms" = $4
         WHERE "swap_id" = $1 AND "step_current" = $2 AND "status" = 'awaiting_signature' RETURNING "swap_id")
       SELECT pg_notify($5, "swap_id"::text) FROM "submitted"`,
      [swapId, stepCurrent, txHash, nowMs, SWAP_VIEW_CHANNEL],
    );
    // This instance's next poll must not wait for the notification to come back.
    this.changes.cache.invalidate(swapId);
  }
}

/** How `update` and `updateAtOnce` change the row besides its columns. */
export interface UpdateOptions {
  /** The swap's steps after the event, from the steps as read. */
  stepsAfter?: (steps: SwapStepRecord[]) => SwapStepRecord[];
  /** Append the event, as the row reads after it, to the swap's event log. */
  loggedAs?: SwapEventType;
}

/** The columns an event changes on `row` (steps included), and its log entry: `row` is updated in place. */
function projected(
  row: SwapViewEntity,
  change: ViewChange,
  options: UpdateOptions,
): { change: ViewChange; logged?: { type: string; data: unknown } } {
  const changed: ViewChange = options.stepsAfter
    ? { ...change, steps: options.stepsAfter(row.steps ?? []) }
    : change;
  const view = Object.assign(row, changed);
  return {
    change: changed,
    logged: options.loggedAs
      ? { type: options.loggedAs, data: streamEventDataOf(options.loggedAs, view) }
      : undefined,
  };
}

/**
 * `UPDATE swap_views SET <change> WHERE swap_id = $1` and the NOTIFY of the change, as one
 * statement: columns, transformers and jsonb as TypeORM maps the entity. With `logged`, the event
 * log row in the same statement; with `guard`, only while the row is at `version` (xmin) and the
 * event unclaimed, and the claim with it; and then the statement (autocommitted: one version of
 * the row per transaction) returns the row as written, its `returning` columns and VERSION, and the
 * NOTIFY names that version. Returns a row per row changed.
 */
function updateAndNotifyStatement(
  metadata: EntityMetadata,
  swapId: string,
  {
    change,
    logged,
    guard,
  }: {
    change: ViewChange;
    logged?: { type: string; data: unknown };
    guard?: { version: string; claim: EventClaim; returning: string };
  },
): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [];
  let update = updateStatementOf(metadata, swapId, change, parameters);
  let claimed = '';
  if (guard) {
    parameters.push(guard.version);
    update += ` AND "xmin" = $${parameters.length}::xid AND ${guard.claim.notClaimed(parameters)}`;
    claimed = `, "claimed" AS (${guard.claim.claimFor('changed', parameters)})`;
  }
  let log = '';
  if (logged) {
    parameters.push(logged.type, JSON.stringify(logged.data));
    log =
      `, "logged" AS (INSERT INTO "gateway"."swap_events" ("swap_id", "type", "data") ` +
      `SELECT "swap_id", $${parameters.length - 1}, $${parameters.length}::jsonb FROM "changed")`;
  }
  parameters.push(SWAP_VIEW_CHANNEL);
  const channel = `$${parameters.length}`;
  const sql = guard
    ? `WITH "changed" AS (${update} RETURNING ${guard.returning}, ${VERSION})${log}${claimed} ` +
      `SELECT *, pg_notify(${channel}, "swap_id"::text || ':' || "view_version") FROM "changed"`
    : `WITH "changed" AS (${update} RETURNING "swap_id")${log}${claimed} ` +
      `SELECT pg_notify(${channel}, "swap_id"::text) FROM "changed"`;
  return { sql, parameters };
}

/** The row's version in a SELECT list or RETURNING: the transaction that wrote it, as text. */
const VERSION = '"xmin"::text AS "view_version"';

/** A row read or returned with the entity's columns and VERSION. */
type VersionedRow = Record<string, unknown> & { view_version: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
