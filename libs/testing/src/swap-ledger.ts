import { Client } from 'pg';
import { pgClientConfig } from '@swapgw/persistence';

/**
 * What the services stored about one swap, counted straight from their tables: the evidence for
 * "nothing lost, nothing done twice" in fault tests and the bench soak.
 */
export interface SwapLedgerRow {
  swapId: string;
  /** gateway.swap_views rows (the read model the client polls). */
  gatewayViews: number;
  /** planner.swaps rows. */
  plannerSwaps: number;
  /** signing.prepare commands the planner issued for step 1 (planner.outbox). */
  step1Prepares: number;
  /** swap.signing-ready events for step 1 (planner.outbox): the payload was made ready this often. */
  step1ReadyEvents: number;
  /** signer.signing_requests rows for step 1. */
  step1SigningRequests: number;
}

/** One row per swap id, in the order given; schemas as the apps create them (gateway, planner, signer). */
export async function readSwapLedger(
  databaseUrl: string,
  swapIds: readonly string[],
): Promise<SwapLedgerRow[]> {
  const client = new Client(pgClientConfig(databaseUrl));
  await client.connect();
  try {
    const { rows } = await client.query<SwapLedgerRow>(
      `WITH ids AS (SELECT id, ord FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, ord))
       SELECT ids.id::text AS "swapId",
         (SELECT count(*)::int FROM gateway.swap_views v WHERE v.swap_id = ids.id) AS "gatewayViews",
         (SELECT count(*)::int FROM planner.swaps p WHERE p.id = ids.id) AS "plannerSwaps",
         (SELECT count(*)::int FROM planner.outbox o WHERE o.message_key = ids.id::text
            AND o.envelope->>'type' = 'signing.prepare' AND o.envelope->'payload'->>'stepIndex' = '1') AS "step1Prepares",
         (SELECT count(*)::int FROM planner.outbox o WHERE o.message_key = ids.id::text
            AND o.envelope->>'type' = 'swap.signing-ready' AND o.envelope->'payload'->'step'->>'current' = '1') AS "step1ReadyEvents",
         (SELECT count(*)::int FROM signer.signing_requests r WHERE r.swap_id = ids.id::text AND r.step_index = 1) AS "step1SigningRequests"
       FROM ids ORDER BY ids.ord`,
      [swapIds],
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** The rows that are not "exactly one of everything", for a readable assertion or report. */
export function ledgerAnomalies(rows: readonly SwapLedgerRow[]): SwapLedgerRow[] {
  return rows.filter(
    (r) =>
      r.gatewayViews !== 1 ||
      r.plannerSwaps !== 1 ||
      r.step1Prepares !== 1 ||
      r.step1ReadyEvents !== 1 ||
      r.step1SigningRequests !== 1,
  );
}
