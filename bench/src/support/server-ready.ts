// When the burst's payloads were ready as the gateway stored them, not as the load client saw them.
// A client sees a payload at its next poll, which comes a 202's pollAfterMs after the one before
// (1–3 s, longer for a swap that waited longer): the client-side throughput counts that wait too.
// The gateway's read model stamps the moment the payload became visible (gateway.swap_views'
// updated_at_ms, written when the projector stored the signable step), which nothing changes
// afterwards in a soak (its swaps are never signed).
import { Client } from 'pg';
import { pgClientConfig } from '@swapgw/persistence';

export interface ServerReadyFigures {
  /** Swaps of the burst whose view is awaiting a signature. */
  ready: number;
  /** From the first swap sent to the last payload stored, in seconds. */
  wallSeconds: number;
  swapsPerSecond: number;
}

/** `burstStartEpochMs`: Date.now() when the burst's first swap was sent (same machine's clock). */
export async function readServerReady(
  databaseUrl: string,
  swapIds: readonly string[],
  burstStartEpochMs: number,
): Promise<ServerReadyFigures | undefined> {
  if (swapIds.length === 0) return undefined;
  const client = new Client(pgClientConfig(databaseUrl));
  await client.connect();
  try {
    const { rows } = await client.query<{ ready: number; lastMs: string | null }>(
      `SELECT count(*)::int AS ready, max(updated_at_ms)::text AS "lastMs"
         FROM gateway.swap_views
        WHERE swap_id = ANY($1::uuid[]) AND status = 'awaiting_signature'`,
      [swapIds],
    );
    const { ready, lastMs } = rows[0];
    if (ready === 0 || lastMs === null) return { ready: 0, wallSeconds: Number.NaN, swapsPerSecond: 0 };
    const wallSeconds = (Number(lastMs) - burstStartEpochMs) / 1000;
    return { ready, wallSeconds, swapsPerSecond: Math.round((ready / wallSeconds) * 100) / 100 };
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}
