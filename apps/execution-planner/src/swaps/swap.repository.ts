import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { SwapStatus } from '@swapgw/contracts';
import type { ConsumeOutcome, EventClaim } from '@swapgw/messaging';
import { Outbox, OutboxMessage } from '@swapgw/messaging';
import { updateStatementOf } from '@swapgw/persistence';
import { SwapEntity } from './swap.entity';
import { SwapStepEntity } from './swap-step.entity';

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
  /** The swap, locked until the transaction ends (SELECT … FOR UPDATE): its changes apply one at a time. */
  lockSwap(id: string): Promise<SwapEntity | null>;
  /** A step by id; it must exist. */
  getStep(stepId: string): Promise<SwapStepEntity>;
  /** A new swap and its steps; a swap already there fails the transaction (no upsert). */
  insertSwap(swap: SwapEntity, steps: SwapStepEntity[]): Promise<void>;
  /**
   * A new swap, its steps and `claim` (the processed_events row of the command that builds it) in
   * one statement, unless the swap exists or the command was applied already: then it writes
   * nothing and answers false.
   */
  insertNewSwap(swap: SwapEntity, steps: SwapStepEntity[], claim: EventClaim): Promise<boolean>;
  /**
   * The columns that progress changes of the swap and of `steps`: one statement (an UPDATE of each
   * row, in one WITH), no read first.
   */
  updateProgress(swap: SwapEntity, ...steps: SwapStepEntity[]): Promise<void>;
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
   * Runs `work` in a transaction of its own, then, committed, its after-commit actions; a duplicate
   * insert rejects with DuplicateSwapError.
   */
  abstract transaction<T>(work: (tx: SwapTransaction) => Promise<T>): Promise<T>;
  /** Up to `limit` ids of swaps in one of `statuses` with a deadline at or before `nowMs`, soonest first. */
  abstract dueForExpiry(statuses: readonly SwapStatus[], nowMs: number, limit: number): Promise<string[]>;
  /** Up to `limit` steps waiting for their price check (`repricing`), longest waiting first. */
  abstract awaitingPriceCheck(limit: number): Promise<SwapStepEntity[]>;
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
    return readSwap(this.dataSource.manager, id, false);
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
    return readSwap(this.manager, id, false);
  }

  lockSwap(id: string): Promise<SwapEntity | null> {
    return readSwap(this.manager, id, true);
  }

  async getStep(stepId: string): Promise<SwapStepEntity> {
    const rows = (await this.manager.query(
      `SELECT ${STEP_COLUMNS} FROM "planner"."swap_steps" WHERE "id" = $1`,
      [stepId],
    )) as StepRow[];
    if (rows.length === 0) throw new Error(`Swap step ${stepId} does not exist`);
    return stepOfRow(rows[0]);
  }

  async insertSwap(swap: SwapEntity, steps: SwapStepEntity[]): Promise<void> {
    // insert, not save: save would turn a racing duplicate into an UPDATE instead of failing.
    // (The casts only bridge TypeORM's deep-partial typing of jsonb columns.)
    await this.manager.insert(SwapEntity, swap as QueryDeepPartialEntity<SwapEntity>);
    if (steps.length === 0) return; // a refused build: the swap alone
    await this.manager.insert(SwapStepEntity, steps as QueryDeepPartialEntity<SwapStepEntity>[]);
  }

  async insertNewSwap(swap: SwapEntity, steps: SwapStepEntity[], claim: EventClaim): Promise<boolean> {
    // The rows travel as JSON, typed by the tables themselves (jsonb_populate_record): one
    // parameter per table whatever the number of steps, so the statement text is the same for
    // every build and PostgreSQL plans it once per connection.
    const parameters: unknown[] = [JSON.stringify(swapRowOf(swap)), JSON.stringify(steps.map(stepRowOf))];
    const notClaimed = claim.notClaimed(parameters);
    const claimed = claim.claimFor('swap', parameters);
    const inserted = (await this.manager.query(
      `WITH "swap" AS (
         INSERT INTO "planner"."swaps" (${SWAP_COLUMNS})
         SELECT ${SWAP_COLUMNS} FROM jsonb_populate_record(NULL::"planner"."swaps", $1::jsonb)
          WHERE ${notClaimed}
         ON CONFLICT ("id") DO NOTHING
         RETURNING "id"),
       "steps" AS (
         INSERT INTO "planner"."swap_steps" (${STEP_COLUMNS})
         SELECT ${STEP_COLUMNS} FROM jsonb_populate_recordset(NULL::"planner"."swap_steps", $2::jsonb)
          WHERE EXISTS (SELECT 1 FROM "swap")),
       "claimed" AS (${claimed})
       SELECT "id" FROM "swap"`,
      parameters,
    )) as unknown[];
    return inserted.length > 0;
  }

  async updateProgress(swap: SwapEntity, ...steps: SwapStepEntity[]): Promise<void> {
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

/** Every column of a swap and of a step: what insertNewSwap writes and the reads select. */
const SWAP_COLUMNS =
  '"id", "owner", "quote_id", "route_id", "user_address", "recipient", "from_chain", "to_chain", "status", ' +
  '"current_step", "step_count", "request_fingerprint", "failure_reason", "failure_details", ' +
  '"created_at_ms", "updated_at_ms", "expires_at_ms"';
const STEP_COLUMNS =
  '"id", "swap_id", "step_index", "leg_index", "kind", "chain", "signer", "spec", "price_check", "status", ' +
  '"signing_request_id", "payload_expires_at_ms", "tx_hash", "failure_reason", "updated_at_ms"';

/**
 * The swap `id`, locked until the transaction ends with `forUpdate`: plain SQL with its columns
 * named, rather than TypeORM's query builder, whose SQL generation was the planner's largest CPU
 * item under a burst (every signing event locks its swap and reads its step).
 */
async function readSwap(manager: EntityManager, id: string, forUpdate: boolean): Promise<SwapEntity | null> {
  const rows = (await manager.query(
    `SELECT ${SWAP_COLUMNS} FROM "planner"."swaps" WHERE "id" = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  )) as SwapRow[];
  return rows.length === 0 ? null : swapOfRow(rows[0]);
}

/** A row of SWAP_COLUMNS as node-postgres returns it (bigint as text, jsonb parsed). */
type SwapRow = Record<keyof ReturnType<typeof swapRowOf>, unknown>;
/** A row of STEP_COLUMNS as node-postgres returns it. */
type StepRow = Record<keyof ReturnType<typeof stepRowOf>, unknown>;

/** Epoch milliseconds (bigint, read as text) as the entities hold them (bigintAsNumber). */
const msOf = (value: unknown): number | null => (value === null ? null : Number(value));

function swapOfRow(row: SwapRow): SwapEntity {
  return Object.assign(new SwapEntity(), {
    id: row.id as string,
    owner: row.owner as string,
    quoteId: row.quote_id as string,
    routeId: row.route_id as string,
    userAddress: row.user_address as string,
    recipient: row.recipient as string | null,
    fromChain: row.from_chain as string,
    toChain: row.to_chain as string,
    status: row.status as SwapEntity['status'],
    currentStep: row.current_step as number,
    stepCount: row.step_count as number,
    requestFingerprint: row.request_fingerprint as string,
    failureReason: row.failure_reason as string | null,
    failureDetails: row.failure_details as SwapEntity['failureDetails'],
    createdAtMs: msOf(row.created_at_ms) as number,
    updatedAtMs: msOf(row.updated_at_ms) as number,
    expiresAtMs: msOf(row.expires_at_ms) as number,
  } satisfies Omit<SwapEntity, 'steps'>);
}

function stepOfRow(row: StepRow): SwapStepEntity {
  return Object.assign(new SwapStepEntity(), {
    id: row.id as string,
    swapId: row.swap_id as string,
    stepIndex: row.step_index as number,
    legIndex: row.leg_index as number,
    kind: row.kind as SwapStepEntity['kind'],
    chain: row.chain as string,
    signer: row.signer as string | null,
    spec: row.spec as SwapStepEntity['spec'],
    priceCheck: row.price_check as SwapStepEntity['priceCheck'],
    status: row.status as SwapStepEntity['status'],
    signingRequestId: row.signing_request_id as string | null,
    payloadExpiresAtMs: msOf(row.payload_expires_at_ms),
    txHash: row.tx_hash as string | null,
    failureReason: row.failure_reason as string | null,
    updatedAtMs: msOf(row.updated_at_ms) as number,
  } satisfies Omit<SwapStepEntity, 'swap'>);
}

/** A swap as the JSON of its row (SWAP_COLUMNS). */
function swapRowOf(swap: SwapEntity): Record<string, unknown> {
  return {
    id: swap.id,
    owner: swap.owner,
    quote_id: swap.quoteId,
    route_id: swap.routeId,
    user_address: swap.userAddress,
    recipient: swap.recipient,
    from_chain: swap.fromChain,
    to_chain: swap.toChain,
    status: swap.status,
    current_step: swap.currentStep,
    step_count: swap.stepCount,
    request_fingerprint: swap.requestFingerprint,
    failure_reason: swap.failureReason,
    failure_details: swap.failureDetails,
    created_at_ms: swap.createdAtMs,
    updated_at_ms: swap.updatedAtMs,
    expires_at_ms: swap.expiresAtMs,
  };
}

/** A step as the JSON of its row (STEP_COLUMNS). */
function stepRowOf(step: SwapStepEntity): Record<string, unknown> {
  return {
    id: step.id,
    swap_id: step.swapId,
    step_index: step.stepIndex,
    leg_index: step.legIndex,
    kind: step.kind,
    chain: step.chain,
    signer: step.signer,
    spec: step.spec,
    price_check: step.priceCheck,
    status: step.status,
    signing_request_id: step.signingRequestId,
    payload_expires_at_ms: step.payloadExpiresAtMs,
    tx_hash: step.txHash,
    failure_reason: step.failureReason,
    updated_at_ms: step.updatedAtMs,
  };
}

/** The columns of a swap that progress changes (everything else is fixed when it is built). */
function swapProgressOf(swap: SwapEntity): QueryDeepPartialEntity<SwapEntity> {
  const { status, currentStep, failureReason, updatedAtMs } = swap;
  const failureDetails = swap.failureDetails as QueryDeepPartialEntity<SwapEntity>['failureDetails'];
  return { status, currentStep, failureReason, failureDetails, updatedAtMs };
}

/** The columns of a step that progress changes. */
function stepProgressOf(step: SwapStepEntity): QueryDeepPartialEntity<SwapStepEntity> {
  const { status, signingRequestId, payloadExpiresAtMs, txHash, failureReason, updatedAtMs } = step;
  return { status, signingRequestId, payloadExpiresAtMs, txHash, failureReason, updatedAtMs };
}
