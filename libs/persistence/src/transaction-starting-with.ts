import { escapeLiteral, type PoolClient, type QueryResult } from 'pg';
import { type DataSource, type EntityManager, QueryFailedError, type QueryRunner } from 'typeorm';

/**
 * A TypeORM transaction whose first statement travels in the same message as its
 * `START TRANSACTION`: one round trip to PostgreSQL instead of two, on paths that open a
 * transaction per message (the idempotent consumers claim the eventId first). The simple query
 * protocol carries several statements in one message but no parameters, so `first` is complete
 * SQL: build its values with `sqlLiteral`.
 *
 * Everything else is TypeORM's own `DataSource.transaction`: the query runner marks the
 * transaction active and counts its depth, commits when `work` resolves, rolls back when it (or
 * `first`) throws, and is released either way. Only the physical `START TRANSACTION` query is
 * replaced, once, by the two-statement message. `work` receives the rows `first` returned, and
 * those of the statements after it in `first` when it holds several (`;`-separated), in order.
 */
export async function transactionStartingWith<T>(
  dataSource: DataSource,
  first: string,
  work: (
    firstRows: Record<string, unknown>[],
    manager: EntityManager,
    followingRows: Record<string, unknown>[][],
  ) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  let firstRows: Record<string, unknown>[] = [];
  let followingRows: Record<string, unknown>[][] = [];
  const original = runner.query;
  const query = original.bind(runner) as (
    sql: string,
    parameters?: unknown[],
    structured?: boolean,
  ) => Promise<unknown>;
  runner.query = (async (sql: string, parameters?: unknown[], structured?: boolean) => {
    if (sql !== START) return query(sql, parameters, structured);
    runner.query = original;
    const client = (await runner.connect()) as PoolClient;
    const message = `${START}; ${first}`;
    try {
      const results = (await client.query(message)) as unknown as QueryResult[];
      firstRows = results[1]?.rows ?? [];
      followingRows = results.slice(2).map((result) => result.rows);
    } catch (error) {
      throw new QueryFailedError(message, undefined, error as Error);
    }
  }) as QueryRunner['query'];
  try {
    await runner.startTransaction();
    const result = await work(firstRows, runner.manager, followingRows);
    await runner.commitTransaction();
    return result;
  } catch (error) {
    // As TypeORM does: the original error is what the caller sees, whatever the rollback does.
    await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/** A string as an SQL literal (quoted and escaped), for statements sent without parameters. */
export function sqlLiteral(value: string): string {
  return escapeLiteral(value);
}

/** What TypeORM's PostgreSQL query runner sends to open a transaction (not nested). */
const START = 'START TRANSACTION';
