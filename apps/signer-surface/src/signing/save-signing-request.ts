import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { SigningRequestEntity } from './signing-request.entity';

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
