import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { SwapStreamEventData } from './swap-stream-events';

/** One row of gateway.swap_events, as a stream sends it. */
export interface LoggedSwapEvent {
  /** bigserial, as a decimal string (beyond Number's exact range in principle). */
  id: string;
  type: string;
  data: SwapStreamEventData;
}

const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * gateway.swap_views' companion log, gateway.swap_events: the durable per-swap log that event
 * streams read. The projector appends to it in the very statement that applies a swap event to the
 * view (SwapViewRepository.update `loggedAs`), so a stream never sees an event the view does not, nor
 * misses one it does; the view write's NOTIFY on `gateway_swap_views` wakes the streams of that
 * swap on every instance. Rows older than SWAP_EVENT_RETENTION_HOURS are purged.
 */
@Injectable()
export class SwapEventLogRepository implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SwapEventLogRepository.name);
  private readonly purgeLoop = new PeriodicWork({
    name: 'swap-events-purge',
    intervalMs: PURGE_INTERVAL_MS,
    run: async () => {
      const count = await this.purge();
      if (count > 0) this.logger.log({ msg: 'purged swap events past retention', count });
    },
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
    private readonly clock: Clock,
  ) {}

  /** At most `limit` events of the swap after event id `afterId`, oldest first. */
  async readAfter(swapId: string, afterId: string, limit: number): Promise<LoggedSwapEvent[]> {
    // Ordered by the bigint column: an output column named "id" (the text) would order "10" before "9".
    const rows: Array<{ event_id: string; type: string; data: SwapStreamEventData }> =
      await this.dataSource.query(
        `SELECT "e"."id"::text AS "event_id", "e"."type", "e"."data" FROM "gateway"."swap_events" "e"
       WHERE "e"."swap_id" = $1 AND "e"."id" > $2 ORDER BY "e"."id" LIMIT $3`,
        [swapId, afterId, limit],
      );
    return rows.map((row) => ({ id: row.event_id, type: row.type, data: row.data }));
  }

  /** The swap's newest logged event (its id and type), or null when its log is empty (or purged). */
  async newestOf(swapId: string): Promise<Pick<LoggedSwapEvent, 'id' | 'type'> | null> {
    const [row]: Array<{ event_id: string; type: string }> = await this.dataSource.query(
      `SELECT "e"."id"::text AS "event_id", "e"."type" FROM "gateway"."swap_events" "e"
       WHERE "e"."swap_id" = $1 ORDER BY "e"."id" DESC LIMIT 1`,
      [swapId],
    );
    return row ? { id: row.event_id, type: row.type } : null;
  }

  /** Drops events older than the retention; returns how many. */
  async purge(nowMs = this.clock.nowMs()): Promise<number> {
    const cutoff = new Date(nowMs - this.config.SWAP_EVENT_RETENTION_HOURS * 3_600_000);
    const result: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "gateway"."swap_events" WHERE "created_at" < $1`,
      [cutoff],
    );
    return result[1];
  }

  onModuleInit(): void {
    this.purgeLoop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.purgeLoop.stop();
  }
}
