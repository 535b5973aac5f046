import { Injectable } from '@nestjs/common';
import { type DataSource, type EntityManager, type FindOptionsWhere, Not } from 'typeorm';
import { sqlLiteral } from '@swapgw/persistence';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { SigningRequestEntity } from './signing-request.entity';

/**
 * Every statement the signing flow runs on its requests (`signer.signing_requests`), each inside the
 * caller's transaction (`manager`): the flow decides, this reads and writes.
 */
@Injectable()
export class SigningRequestsRepository {
  /** The step's live request (not superseded); `lock`: FOR UPDATE. */
  liveRequestOfStep(
    manager: EntityManager,
    swapId: string,
    stepId: string,
    lock = false,
  ): Promise<SigningRequestEntity | null> {
    return manager.findOne(SigningRequestEntity, {
      where: { swapId, stepId, status: Not('superseded') },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * liveRequestOfStep's read of the statuses alone, as complete SQL (values inlined), for a
   * transaction that starts with it (StreamHandler.readFirst): one row, `status`, when the step has
   * a live request.
   */
  liveStatusOfStepRead(dataSource: DataSource, swapId: string, stepId: string): string {
    const { schema, tableName } = dataSource.getMetadata(SigningRequestEntity);
    return (
      `SELECT "status" FROM "${schema}"."${tableName}" ` +
      `WHERE "swap_id" = ${sqlLiteral(swapId)} AND "step_id" = ${sqlLiteral(stepId)} AND "status" <> 'superseded'`
    );
  }

  /** The swap's current signing request (the latest step's, not superseded); `lock`: FOR UPDATE. */
  async currentRequestOf(
    manager: EntityManager,
    swapId: string,
    lock: boolean,
  ): Promise<SigningRequestEntity | undefined> {
    const query = manager
      .createQueryBuilder(SigningRequestEntity, 'r')
      .where('r.swap_id = :swapId AND r.status <> :superseded', { swapId, superseded: 'superseded' })
      .orderBy('r.step_index', 'DESC')
      .addOrderBy('r.created_at', 'DESC')
      .limit(1);
    const [current] = await (lock ? query.setLock('pessimistic_write') : query).getMany();
    return current;
  }

  /** The request a submission was recorded under (its tx hash, or what recordedSubmissionOf names). */
  recordedSubmission(
    manager: EntityManager,
    where: FindOptionsWhere<SigningRequestEntity>,
  ): Promise<SigningRequestEntity | null> {
    return manager.findOne(SigningRequestEntity, { where });
  }

  /**
   * Up to `batchSize` `submitted` requests due at `nowMs` (never looked at first), locked FOR UPDATE
   * SKIP LOCKED so several instances share them.
   */
  claimDueSubmitted(
    manager: EntityManager,
    nowMs: number,
    batchSize: number,
  ): Promise<SigningRequestEntity[]> {
    return manager
      .createQueryBuilder(SigningRequestEntity, 'r')
      .where(`r.status = 'submitted' AND (r.next_check_at_ms IS NULL OR r.next_check_at_ms <= :now)`, {
        now: nowMs,
      })
      .orderBy('r.next_check_at_ms', 'ASC', 'NULLS FIRST')
      .limit(batchSize)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  /** Up to `batchSize` `waiting` requests due at `nowMs`, locked FOR UPDATE SKIP LOCKED. */
  claimDueWaiting(manager: EntityManager, nowMs: number, batchSize: number): Promise<SigningRequestEntity[]> {
    return manager
      .createQueryBuilder(SigningRequestEntity, 'r')
      .where(`r.status = 'waiting' AND r.next_check_at_ms <= :now`, { now: nowMs })
      .orderBy('r.next_check_at_ms', 'ASC')
      .limit(batchSize)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }
}

/**
 * Writes a signing request as it stands, new or not, in one statement (INSERT … ON CONFLICT (id)
 * DO UPDATE). TypeORM's `save` first reads the row back to tell an insert from an update and to
 * diff it: a second round trip and most of its CPU, on every payload the service issues.
 * `announce`, given the statement's parameters, appends the CTEs of what the same statement writes
 * besides (the outbox rows of the event telling the change, SigningEventsOutbox): one round trip
 * for the row and its event.
 */
export async function saveSigningRequest(
  manager: EntityManager,
  row: SigningRequestEntity,
  announce?: (parameters: unknown[]) => string[],
): Promise<void> {
  row.updatedAt = new Date();
  // (The cast only bridges TypeORM's deep-partial typing of jsonb columns.)
  const entity = row as QueryDeepPartialEntity<SigningRequestEntity>;
  if (!announce) {
    await manager.upsert(SigningRequestEntity, entity, {
      conflictPaths: ['id'],
      skipUpdateIfNoValuesChanged: false,
    });
    return;
  }
  // The statement manager.upsert sends (the same columns overwritten), as a CTE of a larger one.
  const metadata = manager.connection.getMetadata(SigningRequestEntity);
  const id = metadata.mapPropertyPathsToColumns(['id']);
  const overwritten = metadata.columns.filter(
    (column) =>
      !id.includes(column) &&
      column.isUpdate !== false &&
      !column.generatedType &&
      column.getEntityValue(row) !== undefined,
  );
  const [upsert, parameters] = manager
    .createQueryBuilder()
    .insert()
    .into(SigningRequestEntity)
    .values(entity)
    .orUpdate(
      [...id, ...overwritten].map((column) => column.databaseName),
      id.map((column) => column.databaseName),
      { skipUpdateIfNoValuesChanged: false },
    )
    .getQueryAndParameters();
  await manager.query(
    `WITH "request" AS (${upsert}), ${announce(parameters).join(', ')} SELECT 1`,
    parameters,
  );
}
