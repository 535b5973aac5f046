import type { EntityMetadata, ObjectLiteral } from 'typeorm';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';

/**
 * `UPDATE <table> SET <the changed columns> WHERE <primary key> = <id>` from an entity's metadata,
 * for writes that TypeORM's repository API would split into several round trips (an UPDATE
 * inside a CTE with a NOTIFY or a second UPDATE: one statement). Values go through the columns'
 * transformers and JSON columns are serialised as TypeORM would; undefined properties are left
 * out. The values are appended to `parameters` (shared with the rest of the statement) and
 * referenced by position. Throws on a property that is not a writable column.
 */
export function updateStatementOf(
  metadata: EntityMetadata,
  id: unknown,
  change: ObjectLiteral,
  parameters: unknown[],
): string {
  const [primary] = metadata.primaryColumns;
  if (!primary || metadata.primaryColumns.length !== 1)
    throw new Error(`${metadata.tableName}: updateStatementOf needs a single-column primary key`);
  const assignments: string[] = [];
  for (const [property, value] of Object.entries(change)) {
    if (value === undefined) continue;
    const column = metadata.findColumnWithPropertyName(property);
    if (!column || column.isPrimary)
      throw new Error(`${metadata.tableName} has no writable column for ${property}`);
    let stored: unknown = column.transformer
      ? ApplyValueTransformers.transformTo(column.transformer, value)
      : value;
    if ((column.type === 'jsonb' || column.type === 'json') && stored !== null)
      stored = JSON.stringify(stored);
    parameters.push(stored);
    assignments.push(`"${column.databaseName}" = $${parameters.length}`);
  }
  if (assignments.length === 0) throw new Error(`an update of ${metadata.tableName} without a change`);
  parameters.push(id);
  // The schema is the entity's, else its DataSource's (every service's entities live in its own).
  const table = `"${metadata.schema ?? 'public'}"."${metadata.tableName}"`;
  return `UPDATE ${table} SET ${assignments.join(', ')} WHERE "${primary.databaseName}" = $${parameters.length}`;
}
