import { Logger } from '@nestjs/common';
import type { KafkaContext } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SigningEventTypes, SwapCommandTypes, Topics } from '@swapgw/contracts';
import { createEnvelope, IdempotentConsumer, Outbox } from '@swapgw/messaging';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { ManualClock, SystemClock } from '@swapgw/runtime';
import { testEnv, waitFor } from '@swapgw/testing';
import { FakeSwapChains, plannerConfigOf } from '../../test/support/swap-fakes';
import { buildRequestFor, EVM_PAYLOAD, NOW_MS, planFor, stepRef } from '../../test/support/swap-fixtures';
import { plannerDatabaseOptions } from '../database/planner-database';
import { RepricingSignal } from './repricing-signal';
import { SigningEventsConsumer } from './signing-events.consumer';
import { SwapCommandsConsumer } from './swap-commands.consumer';
import { SwapPlanner } from './swap-planner.service';
import { SwapProgress } from './swap-progress.service';
import { TypeOrmSwapRepository } from './swap.repository';

/**
 * What a swap's hot path costs PostgreSQL in round trips, each one about 0.5 ms of the planner's
 * CPU besides the backend's: the build command (its fast path) and a step's signing.payload-ready,
 * each taken by its consumer as Kafka hands it over, counted at the driver (every message node-postgres
 * sends and waits on, START TRANSACTION with its claim being one).
 */
describe('the planner’s round trips per swap (real PostgreSQL)', () => {
  const env = testEnv();
  const clock = new ManualClock(NOW_MS);
  let dataSource: DataSource;
  let commands: SwapCommandsConsumer;
  let signingEvents: SigningEventsConsumer;
  let swaps: TypeOrmSwapRepository;
  let offset = 0;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    await prepareDatabase(plannerDatabaseOptions(env.databaseUrl));
    dataSource = await new DataSource(
      serviceDataSourceOptions(plannerDatabaseOptions(env.databaseUrl, 2)),
    ).initialize();
    swaps = new TypeOrmSwapRepository(dataSource, new Outbox(new SystemClock()));
    const consumer = new IdempotentConsumer(
      dataSource,
      `planner-round-trips-${randomUUID()}`,
      new SystemClock(),
    );
    const config = plannerConfigOf();
    const planner = new SwapPlanner(
      swaps,
      new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 } }),
      config,
      clock,
    );
    commands = new SwapCommandsConsumer(consumer, planner, swaps);
    const progress = new SwapProgress(swaps, clock, config, new RepricingSignal());
    signingEvents = new SigningEventsConsumer(consumer, progress, swaps);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']);
  });

  /** A Kafka delivery of `message` on `topic`, as the consumers read it. */
  const deliveryOf = (topic: string, message: { aggregateId: string }): KafkaContext =>
    ({
      getTopic: () => topic,
      getPartition: () => 0,
      getMessage: () => ({
        offset: String(offset++),
        key: Buffer.from(message.aggregateId),
        value: Buffer.from(JSON.stringify(message)),
        headers: {},
      }),
    }) as unknown as KafkaContext;

  /** The statements `work` sends to PostgreSQL, one per round trip, in order (their first words). */
  async function roundTripsOf(work: () => Promise<void>): Promise<string[]> {
    const sent: string[] = [];
    // Every statement goes through pg.Client#query (PreparingClient names some and calls it).
    const original = Client.prototype.query;
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      const [config] = args as [string | { text: string }];
      const text = typeof config === 'string' ? config : config.text;
      sent.push(text.replace(/\s+/g, ' ').trim().slice(0, 60));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      await work();
    } finally {
      Client.prototype.query = original;
    }
    return sent;
  }

  const build = (swapId: string) => {
    const envelope = createEnvelope(
      SwapCommandTypes.build,
      swapId,
      buildRequestFor(planFor(`q-${swapId}`), swapId),
      new SystemClock(),
    );
    return commands.onSwapCommand(envelope, deliveryOf(Topics.swapCommands, envelope));
  };

  const payloadReady = (swapId: string) => {
    const envelope = createEnvelope(
      SigningEventTypes.payloadReady,
      swapId,
      {
        ...stepRef(swapId, 1),
        signingRequestId: randomUUID(),
        stepCount: 2,
        kind: 'approve',
        payload: EVM_PAYLOAD,
        expiresAtMs: NOW_MS + 120_000,
        readyAtMs: NOW_MS,
        executionHints: { gasLimit: '1' },
        clientHints: { recommendedWallet: 'any', network: 'Devnet A', action: 'approve' },
      },
      new SystemClock(),
    );
    return signingEvents.onSigningEvent(envelope, deliveryOf(Topics.signingEvents, envelope));
  };

  const outboxTypesOf = async (swapId: string): Promise<string[]> =>
    (
      (await dataSource.query(
        `SELECT "envelope" FROM "planner"."outbox" WHERE "message_key" = $1 ORDER BY "id"`,
        [swapId],
      )) as Array<{ envelope: { type: string } }>
    ).map((row) => row.envelope.type);

  it('builds a swap in one round trip: the swap, its steps, the claim and both messages in one autocommitted statement', async () => {
    const swapId = randomUUID();

    const sent = await roundTripsOf(() => build(swapId));

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^WITH "swap" AS \( INSERT INTO "planner"."swaps"/);
    expect(await outboxTypesOf(swapId)).toEqual(['swap.created', 'signing.prepare']);
    const [swap] = (await dataSource.query(`SELECT "status" FROM "planner"."swaps" WHERE "id" = $1`, [
      swapId,
    ])) as Array<{ status: string }>;
    expect(swap.status).toBe('planning');
  });

  it('applies a step’s payload-ready in four: START with the claim, the swap and its step locked, the UPDATEs with the message, COMMIT', async () => {
    const swapId = randomUUID();
    await build(swapId);

    const sent = await roundTripsOf(() => payloadReady(swapId));

    expect(sent).toEqual([
      expect.stringMatching(/^START TRANSACTION; INSERT INTO "planner"."processed_events"/),
      expect.stringMatching(/^WITH "swap" AS \(SELECT "id", "owner"/),
      expect.stringMatching(/^WITH "u0" AS \(UPDATE "planner"."swaps"/),
      'COMMIT',
    ]);
    expect(await outboxTypesOf(swapId)).toEqual(['swap.created', 'signing.prepare', 'swap.signing-ready']);
    const [step] = (await dataSource.query(`SELECT "status" FROM "planner"."swap_steps" WHERE "id" = $1`, [
      `${swapId}:1`,
    ])) as Array<{ status: string }>;
    expect(step.status).toBe('ready');
  });

  it('applies a redelivered payload-ready once: the claim alone, found taken', async () => {
    const swapId = randomUUID();
    await build(swapId);
    const envelope = createEnvelope(
      SigningEventTypes.stepSkipped,
      swapId,
      {
        ...stepRef(swapId, 1),
        reason: 'allowance covers it',
      },
      new SystemClock(),
    );
    await signingEvents.onSigningEvent(envelope, deliveryOf(Topics.signingEvents, envelope));

    const sent = await roundTripsOf(() =>
      signingEvents.onSigningEvent(envelope, deliveryOf(Topics.signingEvents, envelope)),
    );

    expect(sent).toEqual([expect.stringMatching(/^START TRANSACTION; INSERT INTO/), 'COMMIT']);
    expect(await outboxTypesOf(swapId)).toEqual([
      'swap.created',
      'signing.prepare',
      'swap.step-confirmed',
      'signing.prepare',
    ]);
  });

  it('reads the current step as the transaction that held the swap left it, though it waited for that one', async () => {
    const swapId = randomUUID();
    await build(swapId);
    const watcher = new Client({ connectionString: env.databaseUrl });
    await watcher.connect();
    try {
      let waiting: Promise<unknown> | undefined;
      await swaps.transaction(async (holder) => {
        const held = await holder.lockSwapAndCurrentStep(swapId);
        if (!held?.step) throw new Error('the swap was built with its steps');
        held.step.status = 'ready';
        await holder.updateProgress(held.swap, [held.step]);
        // A second transaction asks for the same swap while the first holds it, and waits.
        waiting = swaps.transaction((tx) => tx.lockSwapAndCurrentStep(swapId));
        await waitFor(
          async () =>
            (
              await watcher.query(
                `SELECT 1 FROM pg_stat_activity WHERE "wait_event_type" = 'Lock' AND "query" LIKE 'WITH "swap" AS (SELECT%'`,
              )
            ).rowCount === 1,
          { description: 'the second transaction waiting for the swap' },
        );
      });

      expect(await waiting).toMatchObject({ swap: { id: swapId }, step: { stepIndex: 1, status: 'ready' } });
    } finally {
      await watcher.end();
    }
  });
});
