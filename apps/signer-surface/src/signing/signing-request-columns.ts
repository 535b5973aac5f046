import { SigningRequestEntity } from './signing-request.entity';

/**
 * A column of a signing request that its status guarantees: a ready row has its payload, hints and
 * times, a submitted one its transaction, one in a block its block number. A row without it is a
 * broken invariant of the signing flow, never the client's doing: it throws as any bug does.
 */
export function requiredColumn<K extends keyof SigningRequestEntity>(
  row: SigningRequestEntity,
  column: K,
): NonNullable<SigningRequestEntity[K]> {
  const value = row[column];
  if (value === null || value === undefined)
    throw new Error(`signing request ${row.id} (${row.status}) has no ${column}`);
  return value;
}
