import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WindowCount } from './cluster-window-counter';

/**
 * The shared counters in `gateway.rate_limit_windows`: one row per API key and window, the sum of
 * what every gateway instance has synced into it.
 */
@Injectable()
export class RateLimitWindowRepository {
  constructor(@Inject(DataSource) private readonly dataSource: Pick<DataSource, 'query'>) {}

  /**
   * In a single statement, adds the batch of one instance (rows with a count) and reads the totals
   * of the windows it only asks about (count 0: seen here, nothing new), and returns the cluster
   * total of each of those windows that exists, every instance's syncs included.
   */
  async add(batch: WindowCount[]): Promise<WindowCount[]> {
    if (batch.length === 0) return [];
    // Rows are locked in one fixed order (key, window) in every instance's statement, so two
    // instances syncing overlapping keys wait for each other instead of deadlocking.
    const sorted = [...batch].sort((a, b) =>
      a.apiKeyId === b.apiKeyId ? a.windowStartMs - b.windowStartMs : a.apiKeyId < b.apiKeyId ? -1 : 1,
    );
    // The read-only rows are not upserted with +0: that would lock and rewrite a row for nothing.
    const rows: Array<{ api_key_id: string; window_start_ms: string; request_count: number }> =
      await this.dataSource.query(
        `WITH batch AS (
         SELECT b.api_key_id, to_timestamp(b.window_start_ms / 1000) AS window_start, b.added, b.n
         FROM unnest($1::uuid[], $2::double precision[], $3::integer[]) WITH ORDINALITY AS b(api_key_id, window_start_ms, added, n)
       ), added AS (
         INSERT INTO "gateway"."rate_limit_windows" AS w ("api_key_id", "window_start", "request_count")
         SELECT api_key_id, window_start, added FROM batch WHERE added > 0 ORDER BY n
         ON CONFLICT ("api_key_id", "window_start")
         DO UPDATE SET "request_count" = w."request_count" + EXCLUDED."request_count"
         RETURNING w."api_key_id", w."window_start", w."request_count"
       )
       SELECT a."api_key_id", (extract(epoch FROM a."window_start") * 1000)::bigint AS window_start_ms, a."request_count" FROM added a
       UNION ALL
       SELECT w."api_key_id", (extract(epoch FROM w."window_start") * 1000)::bigint, w."request_count"
       FROM "gateway"."rate_limit_windows" w
       JOIN batch ON batch.added = 0 AND w."api_key_id" = batch.api_key_id AND w."window_start" = batch.window_start`,
        [sorted.map((c) => c.apiKeyId), sorted.map((c) => c.windowStartMs), sorted.map((c) => c.count)],
      );
    return rows.map((r) => ({
      apiKeyId: r.api_key_id,
      windowStartMs: Number(r.window_start_ms),
      count: Number(r.request_count),
    }));
  }

  /** Drops the windows that started before `windowStartMs`; they are never read again. */
  async purgeBefore(windowStartMs: number): Promise<number> {
    const result: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "gateway"."rate_limit_windows" WHERE "window_start" < to_timestamp($1::double precision / 1000)`,
      [windowStartMs],
    );
    return result[1];
  }
}
