import type { DataSource } from 'typeorm';

/** How many statements containing a fragment a data source sent since the last reset. */
export interface StatementCounter {
  readonly count: number;
  reset(): void;
}

/**
 * Counts the statements `dataSource.query` sends whose text contains `fragment` (an INSERT's
 * table, say); each still runs. For tests of what a burst costs in statements.
 */
export function countStatements(dataSource: DataSource, fragment: string): StatementCounter {
  let count = 0;
  const query = dataSource.query.bind(dataSource);
  dataSource.query = ((sql: string, parameters?: unknown[]) => {
    if (sql.includes(fragment)) count++;
    return query(sql, parameters);
  }) as DataSource['query'];
  return {
    get count() {
      return count;
    },
    reset: () => {
      count = 0;
    },
  };
}
