import { INestMicroservice, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { MessageEnvelope, SwapEventTypes, Topics } from '@swapgw/contracts';
import {
  createEnvelope,
  ensureTopics,
  createKafkaMicroservice,
  kafkaSettingsFromEnv,
  MessagingModule,
  ProcessedEventClaim,
} from '@swapgw/messaging';
import { prepareDatabase } from '@swapgw/persistence';
import { testEnv, waitFor } from '@swapgw/testing';
import { GlobalClockModule, metricsRegistry, SystemClock } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { IntegratorFeesCollectedRepository } from '../integrator-fees/integrator-fees-collected.repository';
import { gatewayDatabaseOptions, gatewayDataSourceOptions } from '../database/gateway-data-source';
import { SwapEventLogRepository } from '../swap-event-stream/swap-event-log.repository';
import { SwapViewChanges } from './swap-view-changes';
import { SwapViewEntity } from './swap-view.entity';
import { SwapViewRepository } from './swap-view.repository';
import { SwapViewsProjector } from './swap-views.projector';

// The read model over real Kafka and PostgreSQL: swap.events in, gateway.swap_views out.
const env = testEnv();
const groupId = `gateway-projector-it-${Date.now().toString(36)}`;
const clock = new SystemClock();
const cacheConfig = {
  SWAP_VIEW_CACHE_ENTRIES: 1000,
  SWAP_VIEW_CACHE_TTL_MS: 60_000,
  SWAP_EVENT_RETENTION_HOURS: 24,
} as GatewayConfig;

/**
 * Another gateway instance beside the projector's: its own DataSource, LISTEN connection and cache
 * of views, for `work`, then closed.
 */
async function asAnotherInstance(
  work: (instance: { changes: SwapViewChanges; views: SwapViewRepository }) => Promise<void>,
): Promise<void> {
  const other = await new DataSource(
    gatewayDataSourceOptions(env.databaseUrl, [SwapViewEntity], 1),
  ).initialize();
  const changes = new SwapViewChanges(other, cacheConfig);
  await changes.onModuleInit();
  try {
    await work({ changes, views: new SwapViewRepository(other, changes, clock) });
  } finally {
    await changes.onModuleDestroy();
    await other.destroy();
  }
}

/** swap.created of alice's swap on devnet-a, as the planner publishes it. */
const swapCreated = (swapId: string, stepCount: number) =>
  createEnvelope(
    SwapEventTypes.created,
    swapId,
    {
      swapId,
      status: 'planning',
      owner: 'alice',
      quoteId: 'q',
      routeId: 'r',
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      stepCount,
      createdAtMs: 1,
    },
    clock,
  );

@Module({
  imports: [
    // The Clock as the gateway's global root module provides it: MessagingModule's providers read it.
    GlobalClockModule.of(clock),
    TypeOrmModule.forRoot(gatewayDataSourceOptions(env.databaseUrl, [SwapViewEntity], 3)),
    MessagingModule.forRoot({
      clientId: 'gateway-projector-it',
      groupId,
      settings: kafkaSettingsFromEnv('gateway-projector-it', env.env),
    }),
  ],
  controllers: [SwapViewsProjector],
  providers: [
    SwapViewRepository,
    SwapViewChanges,
    SwapEventLogRepository,
    IntegratorFeesCollectedRepository,
    { provide: GatewayConfig, useValue: cacheConfig },
  ],
})
class ProjectorTestModule {}

describe('SwapViewsProjector over real Kafka and PostgreSQL', () => {
  const settings = kafkaSettingsFromEnv('gateway-projector-it', env.env);
  const kafka = new Kafka({
    clientId: 'gateway-projector-it-planner',
    brokers: env.brokers,
    logLevel: logLevel.NOTHING,
  });
  let app: INestMicroservice;
  let db: DataSource;
  let producer: Producer;

  const viewOf = (swapId: string) => db.getRepository(SwapViewEntity).findOneBy({ swapId });
  const publish = async (envelopes: MessageEnvelope[]) =>
    producer.send({
      topic: Topics.swapEvents,
      acks: -1,
      messages: envelopes.map((e) => ({ key: e.aggregateId, value: JSON.stringify(e) })),
    });

  async function startProjector(): Promise<void> {
    app = await createKafkaMicroservice(ProjectorTestModule, settings, groupId, { logger: ['error'] });
    await app.listen();
    db = app.get(DataSource);
  }

  async function caughtUp(): Promise<boolean> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [ends, committed] = await Promise.all([
        admin.fetchTopicOffsets(Topics.swapEvents),
        admin.fetchOffsets({ groupId, topics: [Topics.swapEvents] }),
      ]);
      const byPartition = new Map(committed[0]?.partitions.map((p) => [p.partition, p.offset]) ?? []);
      return ends.every((e) => e.high === '0' || byPartition.get(e.partition) === e.high);
    } finally {
      await admin.disconnect();
    }
  }

  beforeAll(async () => {
    await ensureTopics(settings);
    await prepareDatabase(gatewayDatabaseOptions(env.databaseUrl));
    await startProjector();
    producer = kafka.producer();
    await producer.connect();
    const admin = kafka.admin();
    await admin.connect();
    await waitFor(async () => (await admin.describeGroups([groupId])).groups[0]?.state === 'Stable', {
      timeoutMs: 60_000,
      description: 'the projector to join',
    });
    await admin.disconnect();
  }, 120_000);

  afterAll(async () => {
    await producer?.disconnect();
    await app?.close();
  });

  it('wakes a build waiting on another connection (another gateway instance) as soon as the swap is projected, and drops its cached view', async () => {
    // Another instance: its own DataSource and LISTEN connection, not the projector's.
    await asAnotherInstance(async ({ changes, views: otherViews }) => {
      const swapId = randomUUID();
      const unrelated = changes.watch(randomUUID());
      const watch = changes.watch(swapId);
      const created = swapCreated(swapId, 1);
      const deadline = Date.now() + 30_000;
      await publish([created]);
      expect(await watch.changedOrDeadline(deadline)).toBe(true); // told, not timed out
      expect(await viewOf(swapId)).toMatchObject({ status: 'planning', stepTotal: 1 });
      // Only the waiters of that swap were told.
      expect(await unrelated.changedOrDeadline(Date.now() + 300)).toBe(false);
      watch.close();
      unrelated.close();
      expect(changes.waiting).toBe(0);

      // That instance's signing polls: the second read is answered from its cache (the same
      // object), until the projector changes the row; then the change is read, whoever polls.
      const planning = await otherViews.findOwned(swapId, 'alice');
      expect(planning).toMatchObject({ status: 'planning' });
      expect(await otherViews.findOwned(swapId, 'alice')).toBe(planning);
      expect(await otherViews.findOwned(swapId, 'mallory')).toBeNull();
      const changed = changes.watch(swapId);
      await publish([
        createEnvelope(
          SwapEventTypes.signingReady,
          swapId,
          {
            swapId,
            status: 'awaiting_signature',
            step: { current: 1, total: 1 },
            payload: { type: 'evm-transaction' },
            expiresAtMs: Date.now() + 60_000,
            readyAtMs: 2,
            executionHints: {},
            clientHints: {},
          },
          clock,
        ),
      ]);
      expect(await changed.changedOrDeadline(Date.now() + 30_000)).toBe(true);
      changed.close();
      expect(await otherViews.findOwned(swapId, 'alice')).toMatchObject({
        status: 'awaiting_signature',
        payload: { type: 'evm-transaction' },
      });
    });
  });

  it('answers the first poll after a build from the row the build created, until the projector changes it', async () => {
    await asAnotherInstance(async ({ changes, views: otherViews }) => {
      const swapId = randomUUID();
      expect(await otherViews.ensureCreated(swapId, 'alice', 'planning', null, 1)).toBe(true);
      const asCreated = await viewOf(swapId);
      // Changed behind the cache's back (no NOTIFY): a poll that read the row would see it.
      await db.query(`UPDATE "gateway"."swap_views" SET "updated_at_ms" = 6 WHERE "swap_id" = $1`, [swapId]);
      // The first poll is answered from memory: the row exactly as the build created it.
      const created = await otherViews.findOwned(swapId, 'alice');
      expect(created).toEqual(asCreated);
      expect(created).toMatchObject({
        swapId,
        owner: 'alice',
        status: 'planning',
        stepCurrent: 1,
        updatedAtMs: 1,
      });
      expect(await otherViews.findOwned(swapId, 'mallory')).toBeNull();
      // The projector's change (with its NOTIFY) drops it: the next poll reads the projected row.
      const changed = changes.watch(swapId);
      await publish([swapCreated(swapId, 2)]);
      expect(await changed.changedOrDeadline(Date.now() + 30_000)).toBe(true);
      changed.close();
      expect(await otherViews.findOwned(swapId, 'alice')).toMatchObject({ stepTotal: 2 });
    });
  });

  it('follows a swap from created to completed, and a replay of its events changes nothing', async () => {
    const swapId = randomUUID();
    const step = (current: number) => ({ current, total: 2 });
    const payload = { type: 'evm-transaction', transaction: { chainId: '31337', nonce: '3' } };
    const created = swapCreated(swapId, 2);
    const ready = createEnvelope(
      SwapEventTypes.signingReady,
      swapId,
      {
        swapId,
        status: 'awaiting_signature',
        step: step(1),
        payload,
        expiresAtMs: Date.now() + 60_000,
        readyAtMs: 5,
        executionHints: { gasLimit: '1' },
        clientHints: { action: 'approve' },
      },
      clock,
    );
    await publish([created, ready]);
    const first = await waitFor(
      async () => ((await viewOf(swapId))?.status === 'awaiting_signature' ? viewOf(swapId) : null),
      { timeoutMs: 20_000, description: 'the ready view' },
    );
    expect(first).toMatchObject({
      owner: 'alice',
      stepCurrent: 1,
      stepTotal: 2,
      payload,
      clientHints: { action: 'approve' },
    });

    const txHash = '0x' + 'cd'.repeat(32);
    const inFlight = [
      createEnvelope(
        SwapEventTypes.stepSubmitted,
        swapId,
        {
          swapId,
          status: 'submitted',
          step: step(1),
          chain: 'devnet-a',
          txHash,
        },
        clock,
      ),
      createEnvelope(
        SwapEventTypes.stepConfirming,
        swapId,
        {
          swapId,
          status: 'confirming',
          step: step(1),
          chain: 'devnet-a',
          txHash,
          blockNumber: 9,
          confirmations: 1,
          confirmationsRequired: 3,
        },
        clock,
      ),
    ];
    await publish(inFlight);
    await waitFor(async () => (await viewOf(swapId))?.status === 'confirming', {
      timeoutMs: 20_000,
      description: 'the confirming view',
    });
    expect(await viewOf(swapId)).toMatchObject({
      stepCurrent: 1,
      payload: null,
      lastTxHash: txHash,
      confirmations: 1,
      confirmationsRequired: 3,
    });

    const rest = [
      ...inFlight,
      createEnvelope(
        SwapEventTypes.stepConfirmed,
        swapId,
        {
          swapId,
          status: 'planning',
          step: step(1),
          chain: 'devnet-a',
          txHash,
        },
        clock,
      ),
      createEnvelope(
        SwapEventTypes.signingReady,
        swapId,
        {
          swapId,
          status: 'awaiting_signature',
          step: step(2),
          payload,
          expiresAtMs: Date.now() + 60_000,
          readyAtMs: 6,
          executionHints: {},
          clientHints: { action: 'swap' },
        },
        clock,
      ),
      createEnvelope(
        SwapEventTypes.stepConfirmed,
        swapId,
        {
          swapId,
          status: 'completed',
          step: step(2),
          chain: 'devnet-a',
          txHash,
        },
        clock,
      ),
      createEnvelope(
        SwapEventTypes.completed,
        swapId,
        { swapId, status: 'completed', completedAtMs: 7 },
        clock,
      ),
    ];
    await publish(rest.slice(inFlight.length));
    await waitFor(async () => (await viewOf(swapId))?.status === 'completed', {
      timeoutMs: 20_000,
      description: 'the completed view',
    });
    // The step's confirmation already says completed: the swap.completed after it must be applied
    // too before the view is the one a replay must leave as it is.
    await waitFor(caughtUp, { timeoutMs: 30_000, description: 'the projector to consume every event' });
    const completed = await viewOf(swapId);
    expect(completed).toMatchObject({
      status: 'completed',
      stepCurrent: 2,
      payload: null,
      lastTxHash: txHash,
      confirmations: null,
      confirmationsRequired: null,
    });
    // Every step, as GET /swap/{swapId} shows them: kind from the payload's action, chain and
    // transaction from its events, times from when the planner recorded them.
    expect(completed?.steps).toEqual([
      {
        index: 1,
        kind: 'approve',
        chain: 'devnet-a',
        status: 'confirmed',
        txHash,
        submittedAtMs: inFlight[0].occurredAtMs,
        confirmedAtMs: rest[2].occurredAtMs,
        packet: null,
        thorchain: null,
      },
      {
        index: 2,
        kind: 'swap',
        chain: 'devnet-a',
        status: 'confirmed',
        txHash,
        submittedAtMs: null,
        confirmedAtMs: rest[4].occurredAtMs,
        packet: null,
        thorchain: null,
      },
    ]);

    // An ops replay: every event again, in order. Were ready(step 2) applied again, the view would
    // show a payload to sign on a completed swap.
    await publish([created, ready, ...rest.slice(0, 4)]);
    await waitFor(caughtUp, { timeoutMs: 30_000, description: 'the projector to consume the replay' });
    expect(await viewOf(swapId)).toEqual(completed);
  });

  it('applies an event in one statement with its claim, and writes nothing when the row changed since it was read or the event was claimed', async () => {
    const store = app.get(SwapViewRepository);
    const swapId = randomUUID();
    await store.ensureCreated(swapId, 'carol', 'planning', 2, 1);
    const claimed = async (eventId: string) =>
      Number(
        (
          (await db.query(
            'SELECT count(*)::int AS "n" FROM "gateway"."processed_events" WHERE "consumer_group" = $1 AND "event_id" = $2',
            [groupId, eventId],
          )) as Array<{ n: number }>
        )[0].n,
      );
    const logged = async () =>
      (
        (await db.query('SELECT "type" FROM "gateway"."swap_events" WHERE "swap_id" = $1 ORDER BY "id"', [
          swapId,
        ])) as Array<{ type: string }>
      ).map((row) => row.type);

    // Another instance writes the row between the fast path's read and its write (the first
    // statement that is not the read).
    const stale = randomUUID();
    const query = db.query.bind(db);
    let written = false;
    const spy = jest
      .spyOn(db, 'query')
      .mockImplementation(async (sql: string, parameters?: unknown[] | object) => {
        if (!written && !/^\s*SELECT\b/i.test(sql)) {
          written = true;
          await query('UPDATE "gateway"."swap_views" SET "pending_reason" = $2 WHERE "swap_id" = $1', [
            swapId,
            'written meanwhile',
          ]);
        }
        return query(sql, parameters);
      });
    const change = { status: 'awaiting_signature', updatedAtMs: 2 };
    const options = { loggedAs: SwapEventTypes.signingReady };
    await expect(
      store.updateAtOnce(swapId, change, options, new ProcessedEventClaim('gateway', groupId, stale)),
    ).resolves.toBe(false);
    spy.mockRestore();
    expect(written).toBe(true);
    expect(await viewOf(swapId)).toMatchObject({ status: 'planning', pendingReason: 'written meanwhile' });
    expect(await claimed(stale)).toBe(0);
    expect(await logged()).toEqual([]);

    const fresh = randomUUID();
    await expect(
      store.updateAtOnce(swapId, change, options, new ProcessedEventClaim('gateway', groupId, fresh)),
    ).resolves.toBe(true);
    expect(await viewOf(swapId)).toMatchObject({
      status: 'awaiting_signature',
      pendingReason: 'written meanwhile',
    });
    expect(await claimed(fresh)).toBe(1);
    expect(await logged()).toEqual([SwapEventTypes.signingReady]);

    // The same event again: already claimed, so nothing changes.
    await expect(
      store.updateAtOnce(
        swapId,
        { status: 'planning', updatedAtMs: 3 },
        options,
        new ProcessedEventClaim('gateway', groupId, fresh),
      ),
    ).resolves.toBe(false);
    expect(await viewOf(swapId)).toMatchObject({ status: 'awaiting_signature' });
    expect(await logged()).toEqual([SwapEventTypes.signingReady]);

    // No row: nothing to apply at once (the projector's transactional path decides).
    await expect(
      store.updateAtOnce(
        randomUUID(),
        change,
        options,
        new ProcessedEventClaim('gateway', groupId, randomUUID()),
      ),
    ).resolves.toBe(false);

    // The row never came from swap.events: the rebuild below must not expect it.
    await db.query('DELETE FROM "gateway"."swap_views" WHERE "swap_id" = $1', [swapId]);
  });

  /** What a statement about a swap's view does, as the tests below tell them apart. */
  const kindOf = (sql: string): string =>
    /^\s*SELECT\b/i.test(sql)
      ? /FOR UPDATE/.test(sql)
        ? 'locked read'
        : 'read'
      : /^\s*WITH "changed" AS \(UPDATE/.test(sql)
        ? /"xmin" =/.test(sql)
          ? 'guarded update'
          : 'update'
        : sql;

  /**
   * The statements this instance sends through `db.query` (or a transaction's manager, which hands
   * them to it) about `swapId` while `work` runs.
   */
  async function statementsAbout(swapId: string, work: () => Promise<void>): Promise<string[]> {
    const spy = jest.spyOn(db, 'query');
    try {
      await work();
      return spy.mock.calls
        .filter(([, parameters]) => Array.isArray(parameters) && parameters.includes(swapId))
        .map(([sql]) => kindOf(sql));
    } finally {
      spy.mockRestore();
    }
  }

  const readyEvent = (swapId: string) =>
    createEnvelope(
      SwapEventTypes.signingReady,
      swapId,
      {
        swapId,
        status: 'awaiting_signature',
        step: { current: 1, total: 2 },
        payload: { type: 'evm-transaction' },
        expiresAtMs: Date.now() + 60_000,
        readyAtMs: 2,
        executionHints: {},
        clientHints: { action: 'approve' },
      },
      clock,
    );

  it('keeps the row each projected event wrote in the cache of views: the next poll and the next event need no read', async () => {
    const store = app.get(SwapViewRepository);
    const swapId = randomUUID();
    // The build's row, cached by the instance that created it (here the projector's).
    await store.ensureCreated(swapId, 'alice', 'planning', null, 1);

    // swap.created: its fast path starts from the cached row and version, one statement, no read.
    expect(
      await statementsAbout(swapId, async () => {
        await publish([swapCreated(swapId, 2)]);
        await waitFor(caughtUp, { timeoutMs: 30_000, description: 'swap.created projected' });
      }),
    ).toEqual(['guarded update']);
    // The poll after it is answered from memory (its own NOTIFY kept the row it wrote), and that is
    // the row in PostgreSQL.
    let polled: SwapViewEntity | null = null;
    expect(
      await statementsAbout(swapId, async () => {
        polled = await store.findOwned(swapId, 'alice');
      }),
    ).toEqual([]);
    expect(polled).toEqual(await viewOf(swapId));
    expect(polled).toMatchObject({ status: 'planning', stepTotal: 2 });

    // The next event likewise: one statement from the version the last one wrote.
    expect(
      await statementsAbout(swapId, async () => {
        await publish([readyEvent(swapId)]);
        await waitFor(caughtUp, { timeoutMs: 30_000, description: 'signing.ready projected' });
        polled = await store.findOwned(swapId, 'alice');
      }),
    ).toEqual(['guarded update']);
    expect(polled).toEqual(await viewOf(swapId));
    expect(polled).toMatchObject({ status: 'awaiting_signature', payload: { type: 'evm-transaction' } });
    // The row stays: swap.events rebuilds it (the rebuild test below).
  });

  it('drops the cached row when another instance writes it, whether its notification names the new version or not', async () => {
    const store = app.get(SwapViewRepository);
    const changes = app.get(SwapViewChanges);
    const swapId = randomUUID();
    await store.ensureCreated(swapId, 'alice', 'planning', 2, 1);
    await asAnotherInstance(async ({ views: otherViews }) => {
      // The other instance's fast path: its own version in the notification.
      let told = changes.watch(swapId);
      await expect(
        otherViews.updateAtOnce(
          swapId,
          { status: 'awaiting_signature', stepCurrent: 1, updatedAtMs: 2 },
          { loggedAs: SwapEventTypes.signingReady },
          new ProcessedEventClaim('gateway', groupId, randomUUID()),
        ),
      ).resolves.toBe(true);
      expect(await told.changedOrDeadline(Date.now() + 30_000)).toBe(true);
      told.close();
      let polled: SwapViewEntity | null = null;
      expect(
        await statementsAbout(swapId, async () => {
          polled = await store.findOwned(swapId, 'alice');
        }),
      ).toEqual(['read']);
      expect(polled).toMatchObject({ status: 'awaiting_signature' });
      expect(polled).toEqual(await viewOf(swapId));

      // A write that names no version (the signer accepted the transaction).
      told = changes.watch(swapId);
      await otherViews.markSubmitted(swapId, 1, '0x' + 'ab'.repeat(32), 3);
      expect(await told.changedOrDeadline(Date.now() + 30_000)).toBe(true);
      told.close();
      expect(
        await statementsAbout(swapId, async () => {
          polled = await store.findOwned(swapId, 'alice');
        }),
      ).toEqual(['read']);
      expect(polled).toMatchObject({ status: 'submitted', payload: null });
      expect(polled).toEqual(await viewOf(swapId));
    });
    await db.query('DELETE FROM "gateway"."swap_views" WHERE "swap_id" = $1', [swapId]);
  });

  it('falls back to the transactional path when the cached version is not the row any more, and applies the event there', async () => {
    const store = app.get(SwapViewRepository);
    const swapId = randomUUID();
    await store.ensureCreated(swapId, 'alice', 'planning', 2, 1);
    // Changed behind the cache's back (no NOTIFY): the cached version is stale. Step 2 became
    // known, which the event's steps (computed from the row) must keep.
    await db.query(`UPDATE "gateway"."swap_views" SET "steps" = $2::jsonb WHERE "swap_id" = $1`, [
      swapId,
      JSON.stringify([{ index: 2, kind: 'swap', chain: 'devnet-b', status: 'pending' }]),
    ]);
    expect(
      await statementsAbout(swapId, async () => {
        await publish([readyEvent(swapId)]);
        await waitFor(caughtUp, { timeoutMs: 30_000, description: 'signing.ready projected' });
      }),
    ).toEqual(['guarded update', 'locked read', 'update']); // refused: the transactional path applied it
    expect(await viewOf(swapId)).toMatchObject({
      status: 'awaiting_signature',
      stepCurrent: 1,
      payload: { type: 'evm-transaction' },
      steps: [
        { index: 1, kind: 'approve', status: 'awaiting_signature' },
        { index: 2, kind: 'swap', chain: 'devnet-b', status: 'pending' },
      ],
    });
    const logged = (await db.query('SELECT "type" FROM "gateway"."swap_events" WHERE "swap_id" = $1', [
      swapId,
    ])) as Array<{ type: string }>;
    expect(logged.map((row) => row.type)).toEqual([SwapEventTypes.signingReady]);
    // The stale entry is gone: the next poll reads the row.
    let polled: SwapViewEntity | null = null;
    expect(
      await statementsAbout(swapId, async () => {
        polled = await store.findOwned(swapId, 'alice');
      }),
    ).toEqual(['read']);
    expect(polled).toEqual(await viewOf(swapId));
    await db.query('DELETE FROM "gateway"."swap_views" WHERE "swap_id" = $1', [swapId]);
  });

  it('records the integrator fees once, per recipient, when the step that paid them is confirmed, and counts each once', async () => {
    const swapId = randomUUID();
    const step = (current: number) => ({ current, total: 2 });
    const usdc = { chain: 'devnet-a', symbol: 'USDC', address: '0x' + '11'.repeat(20), decimals: 6 };
    const weth = { chain: 'devnet-a', symbol: 'WETH', address: '0x' + '22'.repeat(20), decimals: 18 };
    const recipients = ['0x' + 'a1'.repeat(20), '0x' + 'b2'.repeat(20)];
    const owner = `fee-owner-${swapId}`;
    const feeCounter = async (name: string) =>
      (await metricsRegistry().getSingleMetric(name)?.get())?.values.find(
        (v) => v.labels.chain === 'devnet-a' && v.labels.token === 'USDC',
      )?.value ?? 0;
    const collectedBefore = await feeCounter('swapgw_integrator_fees_collected_total');
    const paymentsBefore = await feeCounter('swapgw_integrator_fee_payments_total');
    // The build's row, with the plan's fees in `quoted` (as POST /swap/build writes it). No
    // swap.created here: the rebuild test below must not recreate a row whose `quoted` it cannot know.
    await app.get(SwapViewRepository).ensureCreated(swapId, owner, 'planning', 2, Date.now(), undefined, {
      quoteId: 'q',
      routeId: 'r',
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: usdc,
      tokenOut: weth,
      amountIn: '100000000',
      expectedAmountOut: '1',
      minAmountOut: '1',
      integratorFees: [
        { recipient: recipients[0], amount: '1500000', token: usdc },
        { recipient: recipients[1], amount: '250000', token: usdc },
      ],
    });
    const approveTx = '0x' + 'a0'.repeat(32);
    const swapTx = '0x' + 'f0'.repeat(32);
    const ready = (current: number, action: string) =>
      createEnvelope(
        SwapEventTypes.signingReady,
        swapId,
        {
          swapId,
          status: 'awaiting_signature',
          step: step(current),
          payload: { type: 'evm-transaction', transaction: { chainId: '31337' } },
          expiresAtMs: Date.now() + 60_000,
          readyAtMs: 5,
          executionHints: {},
          clientHints: { action },
        },
        clock,
      );
    const confirmed = (current: number, txHash: string) =>
      createEnvelope(
        SwapEventTypes.stepConfirmed,
        swapId,
        {
          swapId,
          status: current === 2 ? 'completed' : 'planning',
          step: step(current),
          chain: 'devnet-a',
          txHash,
        },
        clock,
      );
    const feeRows = () =>
      db.query(
        `SELECT "owner", "chain", "token_symbol", "token_address", "token_decimals", "recipient", "amount"::text, "tx_hash"
           FROM gateway.integrator_fees_collected WHERE swap_id = $1 ORDER BY recipient`,
        [swapId],
      );

    // The approve's confirmation pays nothing.
    await publish([ready(1, 'approve'), confirmed(1, approveTx)]);
    await waitFor(async () => (await viewOf(swapId))?.stepCurrent === 2, {
      timeoutMs: 20_000,
      description: 'the approve confirmed',
    });
    expect(await feeRows()).toEqual([]);

    const swapConfirmed = confirmed(2, swapTx);
    await publish([
      ready(2, 'swap'),
      swapConfirmed,
      createEnvelope(
        SwapEventTypes.completed,
        swapId,
        { swapId, status: 'completed', completedAtMs: 7 },
        clock,
      ),
    ]);
    await waitFor(async () => (await viewOf(swapId))?.status === 'completed', {
      timeoutMs: 20_000,
      description: 'the completed view',
    });
    const recorded = recipients.map((recipient, i) => ({
      owner,
      chain: 'devnet-a',
      token_symbol: 'USDC',
      token_address: usdc.address,
      token_decimals: 6,
      recipient,
      amount: ['1500000', '250000'][i],
      tx_hash: swapTx,
    }));
    expect(await feeRows()).toEqual(recorded);
    expect((await feeCounter('swapgw_integrator_fees_collected_total')) - collectedBefore).toBeCloseTo(
      1.75,
      9,
    );
    expect((await feeCounter('swapgw_integrator_fee_payments_total')) - paymentsBefore).toBe(2);

    // The same event again (a replay), and the planner's confirmation sent twice (a new eventId):
    // still two rows, nothing counted again.
    await publish([swapConfirmed, confirmed(2, swapTx)]);
    await waitFor(caughtUp, { timeoutMs: 30_000, description: 'the projector to consume the replay' });
    expect(await feeRows()).toEqual(recorded);
    expect((await feeCounter('swapgw_integrator_fees_collected_total')) - collectedBefore).toBeCloseTo(
      1.75,
      9,
    );
    expect((await feeCounter('swapgw_integrator_fee_payments_total')) - paymentsBefore).toBe(2);

    // The operator's totals for the key's owner (npm run keys -- fees).
    const totals = await app
      .get(IntegratorFeesCollectedRepository)
      .totalsOf(owner, new Date(Date.now() - 600_000));
    expect(totals).toEqual(
      recipients.map((recipient, i) => ({
        chain: 'devnet-a',
        tokenSymbol: 'USDC',
        tokenAddress: usdc.address,
        tokenDecimals: 6,
        recipient,
        amount: ['1500000', '250000'][i],
        payments: 1,
      })),
    );
    expect(
      await app.get(IntegratorFeesCollectedRepository).totalsOf(owner, new Date(Date.now() + 600_000)),
    ).toEqual([]);
    // Out of the read model for the rebuild test below (swap.events cannot recreate a build's row).
    await db.query('DELETE FROM gateway.swap_views WHERE swap_id = $1', [swapId]);
  });

  it('rebuilds the same rows when the read model is wiped and swap.events is replayed from the beginning', async () => {
    await waitFor(caughtUp, { timeoutMs: 30_000, description: 'the projector to be caught up' });
    // updatedAtMs is the projection time, so it is the one column a rebuild may change.
    const rows = async () =>
      (await db.getRepository(SwapViewEntity).find({ order: { swapId: 'ASC' } })).map(
        ({ updatedAtMs: _updated, ...row }) => row,
      );
    const before = await rows();
    expect(before.length).toBeGreaterThan(0);

    // The runbook (docs/runbook.md, "Replaying a topic"): stop the consumer, wipe the read model, rewind the
    // group to the beginning of swap.events, start the consumer again.
    await app.close();
    const wipe = new DataSource(gatewayDataSourceOptions(env.databaseUrl, [SwapViewEntity], 1));
    await wipe.initialize();
    try {
      await wipe.query('TRUNCATE gateway.swap_views');
      await wipe.query('DELETE FROM gateway.processed_events WHERE consumer_group = $1', [groupId]);
    } finally {
      await wipe.destroy();
    }
    const admin = kafka.admin();
    await admin.connect();
    try {
      await waitFor(async () => (await admin.describeGroups([groupId])).groups[0]?.members.length === 0, {
        timeoutMs: 60_000,
        description: 'the projector group to be empty',
      });
      const earliest = await admin.fetchTopicOffsets(Topics.swapEvents);
      await admin.setOffsets({
        groupId,
        topic: Topics.swapEvents,
        partitions: earliest.map((p) => ({ partition: p.partition, offset: p.low })),
      });
    } finally {
      await admin.disconnect();
    }
    await startProjector();

    await waitFor(
      async () => (await caughtUp()) && (await db.getRepository(SwapViewEntity).count()) === before.length,
      {
        timeoutMs: 60_000,
        description: 'the read model to be rebuilt',
      },
    );
    expect(await rows()).toEqual(before);
  });
});
