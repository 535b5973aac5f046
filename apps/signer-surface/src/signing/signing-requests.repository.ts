import { Injectable } from '@nestjs/common';
import { type EntityManager, type FindOptionsWhere, Not } from 'typeorm';
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
 */
export async function saveSigningRequest(manager: EntityManager, row: SigningRequestEntity): Promise<void> {
  row.updatedAt = new Date();
  // (The cast only bridges TypeORM's deep-partial typing of jsonb columns.)
  await manager.upsert(SigningRequestEntity, row as QueryDeepPartialEntity<SigningRequestEntity>, {
    conflictPaths: ['id'],
    skipUpdateIfNoValuesChanged: false,
  });
}
