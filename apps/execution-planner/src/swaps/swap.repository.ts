import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { SwapStatus } from '@swapgw/contracts';
import type { ConsumeOutcome, EventClaim } from '@swapgw/messaging';
import { Outbox, OutboxMessage } from '@swapgw/messaging';
import { EntityRows, entityRowsOf, updateStatementOf } from '@swapgw/persistence';
import { SwapEntity } from './swap.entity';
import { StepSettlement, SwapStepEntity } from './swap-step.entity';

/**
 * The planner's persistence as its swap services use it: the swaps, their steps and the outbox.
 * Every write goes through a SwapTransaction, so a change and the messages announcing it commit
 * together; SwapRepository opens one, or the idempotent consumer's transaction is joined
 * (withinConsumer). What must wait for the commit (telling this instance's loops of a change) is
 * handed to afterCommit.
 */
export interface SwapTransaction {
  /** The swap, no lock (the replay check of a build). */
  findSwap(id: string): Promise<SwapEntity | null>;
  /**
   * The swap and its current step, both locked until the transaction ends, in one statement (the
   * swap first, as every writer locks them); null when there is no such swap, and no step when it
   * has none (a refused build).
   */
  lockSwapAndCurrentStep(id: string): Promise<{ swap: SwapEntity; step: SwapStepEntity | null } | null>;
  /** A step by id; it must exist. */
  getStep(stepId: string): Promise<SwapStepEntity>;
  /** A new swap and its steps; a swap already there fails the transaction (no upsert). */
  insertSwap(swap: SwapEntity, steps: SwapStepEntity[]): Promise<void>;
  /**
   * The columns that progress changes of the swap and of `steps`, and `messages` (the outbox, in
   * this order): one statement (an UPDATE of each row and the outbox rows, in one WITH), no read first.
   */
  updateProgress(swap: SwapEntity, steps: SwapStepEntity[], messages?: OutboxMessage[]): Promise<void>;
  /** Messages published once the transaction commits (the outbox), in this order; one statement. */
  enqueue(...messages: OutboxMessage[]): Promise<void>;
  /** Runs `action` once the transaction has committed; never if it rolls back. No statement. */
  afterCommit(action: () => void): void;
}

/** Thrown by SwapRepository.transaction when an insert met a swap already there (two builds raced). */
export class DuplicateSwapError extends Error {
  constructor(cause: unknown) {
    super('The swap already exists', { cause });
  }
}

/** The port: transactions of their own, and the reads outside any. */
export abstract class SwapRepository {
  /** The swap, no lock, outside any transaction. */
  abstract findSwap(id: string): Promise<SwapEntity | null>;
  /**
   * A new swap, its steps, `claim` (the processed_events row of the command that builds it) and
   * `messages` (the outbox, in this order) in one autocommitted statement, so no transaction, unless
   * the swap exists or the command was applied already: then it writes nothing and answers false.
   */
  abstract insertNewSwap(
    swap: SwapEntity,
    steps: SwapStepEntity[],
    claim: EventClaim,
    messages: OutboxMessage[],
  ): Promise<boolean>;
  /**
   * Runs `work` in a transaction of its own, then, committed, its after-commit actions; a duplicate
   * insert rejects with DuplicateSwapError.
   */
  abstract transaction<T>(work: (tx: SwapTransaction) => Promise<T>): Promise<T>;
  /** Up to `limit` ids of swaps in one of `statuses` with a deadline at or before `nowMs`, soonest first. */
  abstract dueForExpiry(statuses: readonly SwapStatus[], nowMs: number, limit: number): Promise<string[]>;
  /** Up to `limit` steps waiting for their price check (`repricing`), longest waiting first. */
  abstract awaitingPriceCheck(limit: number): Promise<SwapStepEntity[]>;
  /** Up to `limit` deposits waiting for `settlement` (`settling`), longest waiting first. */
  abstract awaitingSettlement(settlement: StepSettlement, limit: number): Promise<SwapStepEntity[]>;
}

const UNIQUE_VIOLATION = '23505';

/** SwapRepository over the planner's PostgreSQL schema (TypeORM) and its outbox. */
@Injectable()
export class TypeOrmSwapRepository extends SwapRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {
    super();
  }

  /**
   * Runs `consume`, an idempotent consumer's pass over one message, whose handler joins the
   * consumer's transaction (with its processed_events row) through `join`. Once the message is
   * `applied`, that transaction committed: its after-commit actions run. Each attempt of a failing
   * handler opens a transaction of its own, rolled back, so the one that committed is the last one
   * joined. (For handlers without an `applyAtOnce` fast path, which commits without a join.)
   */
  async withinConsumer(
    consume: (join: (manager: EntityManager) => SwapTransaction) => Promise<ConsumeOutcome>,
  ): Promise<void> {
    const joined: TypeOrmSwapTransaction[] = [];
    const outcome = await consume((manager) => this.join(manager, joined));
    if (outcome === 'applied') joined.at(-1)?.committed();
  }

  findSwap(id: string): Promise<SwapEntity | null> {
    return readSwap(this.dataSource.manager, id);
  }

  async insertNewSwap(
    swap: SwapEntity,
    steps: SwapStepEntity[],
    claim: EventClaim,
    messages: OutboxMessage[],
  ): Promise<boolean> {
    // The rows travel as JSON, typed by the tables themselves (jsonb_populate_record): one
    // parameter per table whatever the number of steps, so the statement text is the same for
    // every build and PostgreSQL plans it once per connection. The outbox rows are written only
    // with the swap: one autocommitted statement, atomic without a transaction.
    const { swaps: swapRows, steps: stepRows } = rowsOf(this.dataSource.manager);
    const parameters: unknown[] = [
      JSON.stringify(swapRows.rowJsonOf(swap)),
      JSON.stringify(steps.map((step) => stepRows.rowJsonOf(step))),
    ];
    const notClaimed = claim.notClaimed(parameters);
    const claimed = claim.claimFor('swap', parameters);
    const outbox = this.outbox.rowsFor(this.dataSource, 'swap', messages, parameters);
    const inserted = (await this.dataSource.query(
      `WITH "swap" AS (
         INSERT INTO ${swapRows.table} (${swapRows.columns()})
         SELECT ${swapRows.columns()} FROM jsonb_populate_record(NULL::${swapRows.table}, $1::jsonb)
          WHERE ${notClaimed}
         ON CONFLICT ("id") DO NOTHING
         RETURNING "id"),
       "steps" AS (
         INSERT INTO ${stepRows.table} (${stepRows.columns()})
         SELECT ${stepRows.columns()} FROM jsonb_populate_recordset(NULL::${stepRows.table}, $2::jsonb)
          WHERE EXISTS (SELECT 1 FROM "swap")),
       ${['"claimed" AS (' + claimed + ')', ...outbox.ctes].join(',\n       ')}
       SELECT "id" FROM "swap"`,
      parameters,
    )) as unknown[];
    return inserted.length > 0;
  }

  async transaction<T>(work: (tx: SwapTransaction) => Promise<T>): Promise<T> {
    const joined: TypeOrmSwapTransaction[] = [];
    let result: T;
    try {
      result = await this.dataSource.transaction((manager) => work(this.join(manager, joined)));
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateSwapError(error);
      throw error;
    }
    joined.at(-1)?.committed();
    return result;
  }

  async dueForExpiry(statuses: readonly SwapStatus[], nowMs: number, limit: number): Promise<string[]> {
    const due = (await this.dataSource.query(
      'SELECT "id" FROM "planner"."swaps" WHERE "status" = ANY($1) AND "expires_at_ms" <= $2 ' +
        `ORDER BY "expires_at_ms" LIMIT ${limit}`,
      [statuses, nowMs],
    )) as Array<{ id: string }>;
    return due.map((row) => row.id);
  }

  awaitingSettlement(settlement: StepSettlement, limit: number): Promise<SwapStepEntity[]> {
    return this.dataSource
      .getRepository(SwapStepEntity)
      .find({ where: { status: 'settling', settlement }, order: { updatedAtMs: 'ASC' }, take: limit });
  }

  awaitingPriceCheck(limit: number): Promise<SwapStepEntity[]> {
    return this.dataSource
      .getRepository(SwapStepEntity)
      .find({ where: { status: 'repricing' }, order: { updatedAtMs: 'ASC' }, take: limit });
  }

  /** A SwapTransaction in `manager`'s transaction, added to `joined`. */
  private join(manager: EntityManager, joined: TypeOrmSwapTransaction[]): SwapTransaction {
    const tx = new TypeOrmSwapTransaction(manager, this.outbox);
    joined.push(tx);
    return tx;
  }
}

class TypeOrmSwapTransaction implements SwapTransaction {
  private readonly commitActions: (() => void)[] = [];

  constructor(
    private readonly manager: EntityManager,
    private readonly outbox: Outbox,
  ) {}

  findSwap(id: string): Promise<SwapEntity | null> {
    return readSwap(this.manager, id);
  }

  async lockSwapAndCurrentStep(
    id: string,
  ): Promise<{ swap: SwapEntity; step: SwapStepEntity | null } | null> {
    const { swaps, steps } = rowsOf(this.manager);
    const stepNames = this.manager.connection.getMetadata(SwapStepEntity).columns.map((c) => c.databaseName);
    // The step is read by the statement that locks the swap, after the lock: its scan waits on the
    // swap's row (the current step is the locked swap's), and the step's own lock makes PostgreSQL
    // return its latest version, as a read after the lock would (a joined row not locked would be
    // the one of the statement's snapshot, from before a wait for the swap).
    const rows = (await this.manager.query(
      `WITH "swap" AS (SELECT ${swaps.columns()} FROM ${swaps.table} WHERE "id" = $1 FOR UPDATE),
       "step" AS (
         SELECT ${steps.columns()} FROM ${steps.table}
          WHERE "swap_id" = $1 AND "step_index" = (SELECT "current_step" FROM "swap")
          FOR NO KEY UPDATE)
       SELECT "swap".*, ${stepNames.map((name) => `"step"."${name}" AS "step.${name}"`).join(', ')}
         FROM "swap" LEFT JOIN "step" ON TRUE`,
      [id],
    )) as Record<string, unknown>[];
    if (rows.length === 0) return null;
    const [row] = rows;
    if (row['step.id'] === null) return { swap: swaps.entityOf(row), step: null };
    const stepRow = Object.fromEntries(stepNames.map((name) => [name, row[`step.${name}`]]));
    return { swap: swaps.entityOf(row), step: steps.entityOf(stepRow) };
  }

  async getStep(stepId: string): Promise<SwapStepEntity> {
    const steps = stepRowsOf(this.manager);
    const rows = (await this.manager.query(`SELECT ${steps.columns()} FROM ${steps.table} WHERE "id" = $1`, [
      stepId,
    ])) as Record<string, unknown>[];
    if (rows.length === 0) throw new Error(`Swap step ${stepId} does not exist`);
    return steps.entityOf(rows[0]);
  }

  async insertSwap(swap: SwapEntity, steps: SwapStepEntity[]): Promise<void> {
    // insert, not save: save would turn a racing duplicate into an UPDATE instead of failing.
    // (The casts only bridge TypeORM's deep-partial typing of jsonb columns.)
    await this.manager.insert(SwapEntity, swap as QueryDeepPartialEntity<SwapEntity>);
    if (steps.length === 0) return; // a refused build: the swap alone
    await this.manager.insert(SwapStepEntity, steps as QueryDeepPartialEntity<SwapStepEntity>[]);
  }

  async updateProgress(
    swap: SwapEntity,
    steps: SwapStepEntity[],
    messages: OutboxMessage[] = [],
  ): Promise<void> {
    const parameters: unknown[] = [];
    const updates = [
      updateStatementOf(
        this.manager.connection.getMetadata(SwapEntity),
        swap.id,
        swapProgressOf(swap),
        parameters,
      ),
      ...steps.map((step) =>
        updateStatementOf(
          this.manager.connection.getMetadata(SwapStepEntity),
          step.id,
          stepProgressOf(step),
          parameters,
        ),
      ),
    ];
    const ctes = updates.map((update, i) => `"u${i}" AS (${update})`);
    // In the transaction that locked the rows: its commit is the messages' guard.
    ctes.push(...this.outbox.rowsFor(this.manager.connection, null, messages, parameters).ctes);
    await this.manager.query(`WITH ${ctes.join(', ')} SELECT 1`, parameters);
  }

  async enqueue(...messages: OutboxMessage[]): Promise<void> {
    await this.outbox.enqueueAll(this.manager, messages);
  }

  afterCommit(action: () => void): void {
    this.commitActions.push(action);
  }

  /** The transaction committed (its opener says so): the actions waiting for it, in order. */
  committed(): void {
    for (const action of this.commitActions) action();
  }
}

function isUniqueViolation(error: unknown): boolean {
  const { code, driverError } = error as { code?: string; driverError?: { code?: string } };
  return code === UNIQUE_VIOLATION || driverError?.code === UNIQUE_VIOLATION;
}

/**
 * The swap `id`, no lock: plain SQL with its columns named, rather than TypeORM's query builder,
 * whose SQL generation was the planner's largest CPU item under a burst.
 */
async function readSwap(manager: EntityManager, id: string): Promise<SwapEntity | null> {
  const swaps = swapRowsOf(manager);
  const rows = (await manager.query(`SELECT ${swaps.columns()} FROM ${swaps.table} WHERE "id" = $1`, [
    id,
  ])) as Record<string, unknown>[];
  return rows.length === 0 ? null : swaps.entityOf(rows[0]);
}

/** The plain-SQL rows of the two tables, their columns and mapping from the entities (libs/persistence). */
const rowReaders = new WeakMap<
  DataSource,
  { swaps: EntityRows<SwapEntity>; steps: EntityRows<SwapStepEntity> }
>();
function rowsOf(manager: EntityManager): {
  swaps: EntityRows<SwapEntity>;
  steps: EntityRows<SwapStepEntity>;
} {
  let readers = rowReaders.get(manager.connection);
  if (!readers) {
    readers = {
      swaps: entityRowsOf(manager.connection, SwapEntity),
      steps: entityRowsOf(manager.connection, SwapStepEntity),
    };
    rowReaders.set(manager.connection, readers);
  }
  return readers;
}
const swapRowsOf = (manager: EntityManager) => rowsOf(manager).swaps;
const stepRowsOf = (manager: EntityManager) => rowsOf(manager).steps;

/** The columns of a swap that progress changes (everything else is fixed when it is built). */
function swapProgressOf(swap: SwapEntity): QueryDeepPartialEntity<SwapEntity> {
  const { status, currentStep, failureReason, updatedAtMs } = swap;
  const failureDetails = swap.failureDetails as QueryDeepPartialEntity<SwapEntity>['failureDetails'];
  return { status, currentStep, failureReason, failureDetails, updatedAtMs };
}

/** The columns of a step that progress changes. */
function stepProgressOf(step: SwapStepEntity): QueryDeepPartialEntity<SwapStepEntity> {
  const { status, signingRequestId, payloadExpiresAtMs, txHash, failureReason, updatedAtMs, packet } = step;
  return {
    status,
    signingRequestId,
    payloadExpiresAtMs,
    txHash,
    failureReason,
    updatedAtMs,
    // Written only by their settlement (IBC, THORChain): other steps keep theirs (null) untouched.
    ...(packet ? { packet } : {}),
    ...(step.thorchain ? { thorchain: step.thorchain } : {}),
  };
}
