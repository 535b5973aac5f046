import type { DataSource } from 'typeorm';
import { assertIdentifier } from '@swapgw/persistence';

const TABLES = ['chains', 'tokens', 'pairs', 'token_sources', 'quotes', 'quote_routes'] as const;
export type QuoteTableName = (typeof TABLES)[number];

/** The schema a DataSource writes to; checked, since it is interpolated into SQL. */
export function quoteSchemaOf(dataSource: Pick<DataSource, 'options'>): string {
  return assertIdentifier((dataSource.options as { schema?: string }).schema ?? 'public', 'schema');
}

/**
 * Schema-qualified table names for raw SQL: connections keep the default search_path, so an
 * unqualified name would reach `public`, not the service's schema.
 */
export function quoteTables(dataSource: Pick<DataSource, 'options'>): Record<QuoteTableName, string> {
  const schema = quoteSchemaOf(dataSource);
  return Object.fromEntries(TABLES.map((t) => [t, `"${schema}"."${t}"`])) as Record<QuoteTableName, string>;
}
