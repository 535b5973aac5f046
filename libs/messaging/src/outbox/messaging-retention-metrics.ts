import { Counter } from 'prom-client';
import { metricsRegistry } from '@swapgw/runtime';

export type MessagingTable = 'outbox' | 'processed_events';

const purged = new Counter({
  name: 'swapgw_messaging_rows_purged_total',
  help: 'Rows deleted past retention from the messaging tables (published outbox rows, processed_events), by schema and table',
  labelNames: ['schema', 'table'] as const,
  registers: [metricsRegistry()],
});

export const messagingRetentionMetrics = {
  purged(schema: string, table: MessagingTable, count: number): void {
    if (count > 0) purged.inc({ schema, table }, count);
  },
};
