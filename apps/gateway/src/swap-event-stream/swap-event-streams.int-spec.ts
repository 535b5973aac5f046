import { randomUUID } from 'node:crypto';
import { SwapEventType, SwapEventTypes } from '@swapgw/contracts';
import { waitFor } from '@swapgw/testing';
import {
  dropTestDatabase,
  startTestGateway,
  TestGateway,
  testDatabaseUrl,
} from '../../test/support/test-gateway';
import { openSseStream } from '../../test/support/sse-client';
import { SwapViewEntity } from '../swap/swap-view.entity';
import { SwapViewRepository } from '../swap/swap-view.repository';
import { STREAM_PAGE_SIZE } from './swap-event-streams.service';

// The stream handler over a real gateway and PostgreSQL, fed by the real event log as the
// projector writes it (view change, log append and NOTIFY in one transaction).

describe('swap event streams over PostgreSQL', () => {
  const databaseUrl = testDatabaseUrl('swap_events');
  let gateway: TestGateway;
  let key: string;
  const owner = `sse-it-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    gateway = await startTestGateway({
      databaseUrl,
      env: { SWAP_EVENT_HEARTBEAT_MS: '1000', SWAP_EVENT_STREAMS_PER_KEY: '3' },
    });
    key = await gateway.createKey(owner);
  });

  afterAll(async () => {
    try {
      await gateway?.close();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  /** What the projector does for one swap event: change the view, log the event, NOTIFY, in one transaction. */
  async function project(
    swapId: string,
    type: SwapEventType,
    change: Partial<SwapViewEntity>,
  ): Promise<void> {
    const views = gateway.app.get(SwapViewRepository);
    await gateway.dataSource.transaction((manager) =>
      views.update(manager, swapId, { ...change, updatedAtMs: Date.now() }, { loggedAs: type }),
    );
  }

  async function newSwap(): Promise<string> {
    const swapId = randomUUID();
    await gateway.dataSource.query(
      `INSERT INTO "gateway"."swap_views" ("swap_id", "owner", "status", "step_current", "step_total", "created_at_ms", "updated_at_ms") VALUES ($1, $2, 'planning', 1, 2, $3, $3)`,
      [swapId, owner, Date.now()],
    );
    await project(swapId, SwapEventTypes.created, {});
    return swapId;
  }

  const bigPayload = {
    type: 'evm-transaction',
    transaction: { to: '0x' + 'ab'.repeat(20), data: '0x' + 'cd'.repeat(20_000) },
  };

  it('replays a finished swap from its first event, in pages, and ends after the terminal one', async () => {
    const swapId = await newSwap();
    // More events than a page, with large payloads: the stream pages through the log and waits for the socket.
    for (let i = 0; i < STREAM_PAGE_SIZE + 5; i++) {
      await project(swapId, SwapEventTypes.signingReady, {
        status: 'awaiting_signature',
        payload: bigPayload,
        expiresAtMs: Date.now() + 60_000,
        readyAtMs: Date.now(),
      });
    }
    await project(swapId, SwapEventTypes.completed, { status: 'completed', payload: null });
    const url = `${gateway.baseUrl}/swap/${swapId}/events`;

    const all = await openSseStream(url, key);
    expect(all.status).toBe(200);
    expect(all.contentType).toBe('text/event-stream; charset=utf-8');
    await all.ended;
    expect(all.events.map((e) => e.event)).toEqual([
      SwapEventTypes.created,
      ...Array(STREAM_PAGE_SIZE + 5).fill(SwapEventTypes.signingReady),
      SwapEventTypes.completed,
    ]);
    expect(all.events[1].data).toMatchObject({
      swapId,
      mode: 'sync',
      nextAction: 'sign',
      signing: { payload: bigPayload },
    });

    const resumed = await openSseStream(url, key, { lastEventId: all.events[50].id });
    await resumed.ended;
    expect(resumed.events.map((e) => e.id)).toEqual(all.events.slice(51).map((e) => e.id));

    const afterEnd = await openSseStream(url, key, { lastEventId: all.events[all.events.length - 1].id });
    await afterEnd.ended;
    expect(afterEnd.events).toEqual([]);
  });

  it("waits for swap.completed after the last step's confirmation, which already reads completed", async () => {
    const swapId = await newSwap();
    // The planner's last swap.step-confirmed carries the swap's new status: the view is terminal
    // one event before the terminal event is logged.
    await project(swapId, SwapEventTypes.stepConfirmed, { status: 'completed', stepCurrent: 2 });
    const stream = await openSseStream(`${gateway.baseUrl}/swap/${swapId}/events`, key);
    await waitFor(() => stream.events.some((e) => e.event === SwapEventTypes.stepConfirmed));
    // A keep-alive after it: the stream read the log again with the view terminal, and stayed.
    const keepAlives = stream.comments.length;
    await waitFor(() => stream.comments.length > keepAlives || stream.isEnded(), {
      timeoutMs: 5_000,
      description: 'a keep-alive, or the end',
    });
    expect(stream.isEnded()).toBe(false);

    await project(swapId, SwapEventTypes.completed, { status: 'completed' });
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toEqual([
      SwapEventTypes.created,
      SwapEventTypes.stepConfirmed,
      SwapEventTypes.completed,
    ]);
  });

  it('ends at once for a swap long terminal whose terminal event was never logged, and for one whose log was purged', async () => {
    const old = Date.now() - 120_000;
    const neverLogged = await newSwap();
    await gateway.dataSource.query(
      `UPDATE "gateway"."swap_views" SET "status" = 'completed', "updated_at_ms" = $2 WHERE "swap_id" = $1`,
      [neverLogged, old],
    );
    const purged = await newSwap();
    await project(purged, SwapEventTypes.completed, { status: 'completed' });
    await gateway.dataSource.query(`DELETE FROM "gateway"."swap_events" WHERE "swap_id" = $1`, [purged]);

    const [fromNeverLogged, fromPurged] = await Promise.all(
      [neverLogged, purged].map((swapId) => openSseStream(`${gateway.baseUrl}/swap/${swapId}/events`, key)),
    );
    await Promise.all([fromNeverLogged.ended, fromPurged.ended]);
    expect(fromNeverLogged.events.map((e) => e.event)).toEqual([SwapEventTypes.created]);
    expect(fromPurged.events).toEqual([]);
  });

  it('sends new events as they are projected, keep-alive comments while idle, and frees its slot when the client leaves', async () => {
    const swapId = await newSwap();
    const url = `${gateway.baseUrl}/swap/${swapId}/events`;
    const live = await openSseStream(url, key);
    await waitFor(() => live.events.length === 1, { description: 'swap.created replayed' });
    await waitFor(() => live.comments.includes('keep-alive'), {
      timeoutMs: 5_000,
      description: 'a keep-alive comment',
    });

    await project(swapId, SwapEventTypes.signingPending, { pendingReason: 'awaiting funds', readyAtMs: 123 });
    const pending = await waitFor(() => live.events.find((e) => e.event === SwapEventTypes.signingPending), {
      timeoutMs: 3_000,
    });
    expect(pending.data).toMatchObject({
      swapId,
      status: 'planning',
      pendingReason: 'awaiting funds',
      readyAtMs: 123,
    });

    // The per-key limit is 3 here: two more fit, a fourth is refused.
    const opened = await Promise.all([openSseStream(url, key), openSseStream(url, key)]);
    expect(opened.map((s) => s.status)).toEqual([200, 200]);
    const refused = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({
      error: { code: 'RATE_LIMITED', details: { limit: 3, openStreams: 3 } },
    });

    await Promise.all([live, ...opened].map((s) => s.drop()));
    const again = await waitFor(
      async () => {
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${key}` },
          signal: AbortSignal.timeout(2_000),
        }).catch(() => null);
        return res?.status === 200 ? res : null;
      },
      { timeoutMs: 5_000, description: 'slots freed' },
    );
    await again.body?.cancel();
  });
});
