import type { DataSource } from 'typeorm';
import { assertIdentifier } from '@swapgw/persistence';

/** The schema a DataSource writes to (each service has its own); checked, since it is interpolated. */
export function schemaOf(dataSource: Pick<DataSource, 'options'>): string {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  return assertIdentifier(schema, 'schema');
}

/** LISTEN/NOTIFY channel of the outbox of one schema. */
export const outboxChannelOf = (schema: string): string => `outbox_${schema}`;
