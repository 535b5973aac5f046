import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';

/**
 * Reading an entity's rows with plain SQL, the columns and the mapping taken from its TypeORM
 * metadata, beside updateStatementOf. A repository's `findOneBy` builds, aliases and escapes its
 * SELECT and parses it back on every call; in a flood the gateway's swap-view reads spent about 4 %
 * of its busy time in that query builder. These give the same entity: every column read, each value
 * hydrated by the driver exactly as TypeORM's own reads hydrate it (types, transformers), so a
 * column added to the entity is read without touching the SQL.
 */
export interface EntityRows<T extends ObjectLiteral> {
  /** `"schema"."table"`. */
  readonly table: string;
  /** Every column, `"db_name"` each, comma-separated, for a SELECT list (prefixed by `alias.` if given). */
  columns(alias?: string): string;
  /** The entity of a row read with `columns()`; extra fields of the row are ignored. */
  entityOf(row: Record<string, unknown>): T;
  /**
   * The entity as the JSON object of its row (database names; values through the columns'
   * transformers, as TypeORM writes them), for `jsonb_populate_record(NULL::<table>, $1::jsonb)`:
   * a row of any width as one parameter, typed by the table itself.
   */
  rowJsonOf(entity: T): Record<string, unknown>;
}

/** The row reader of `target` in `dataSource` (its metadata and its driver's hydration). */
export function entityRowsOf<T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
): EntityRows<T> {
  const metadata: EntityMetadata = dataSource.getMetadata(target);
  const driver = dataSource.driver;
  const columns = metadata.columns;
  const names = columns.map((column) => `"${column.databaseName}"`);
  const table = `"${metadata.schema ?? 'public'}"."${metadata.tableName}"`;
  return {
    table,
    columns: (alias?: string) => (alias ? names.map((name) => `${alias}.${name}`) : names).join(', '),
    entityOf: (row) => {
      const entity = metadata.create(undefined, { fromDeserializer: true }) as T;
      for (const column of columns)
        column.setEntityValue(entity, driver.prepareHydratedValue(row[column.databaseName], column));
      return entity;
    },
    rowJsonOf: (entity) => {
      const row: Record<string, unknown> = {};
      for (const column of columns) {
        const value: unknown = column.getEntityValue(entity);
        const stored: unknown =
          column.transformer && value !== undefined
            ? ApplyValueTransformers.transformTo(column.transformer, value)
            : value;
        row[column.databaseName] = typeof stored === 'bigint' ? stored.toString() : (stored ?? null);
      }
      return row;
    },
  };
}
