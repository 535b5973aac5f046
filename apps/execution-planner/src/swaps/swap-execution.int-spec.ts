import { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { getAddress } from 'ethers';
import { Kafka, logLevel, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '@swapgw/chains';
import { RoutePlan, SigningEventTypes, SwapBuildRequest, SwapCommandTypes, Topics } from '@swapgw/contracts';
import {
  createEnvelope,
  ensureTopics,
  kafkaMicroserviceOptions,
  kafkaSettingsFromEnv,
} from '@swapgw/messaging';
import { prepareDatabase } from '@swapgw/persistence';
import { loadConfig, SystemClock } from '@swapgw/runtime';
import { testEnv, waitFor } from '@swapgw/testing';
import { AppModule } from '../app.module';
import { RegistrySwapChains } from '../chains/registry-swap-chains';
import { SWAP_CHAINS } from '../chains/swap-chains';
import { plannerDatabaseOptions } from '../database/planner-database';
import { uniswapV2RouterInterface } from '@swapgw/chains/families';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { SwapPlanner } from './swap-planner.service';
import { SwapExpirySweeper } from './swap-expiry.sweeper';
import { SwapProgress } from './swap-progress.service';

// Real Kafka and PostgreSQL. quote-service is played by a route table (the planner's port to it);
// the chain registry is the real one over a devnet-shaped manifest (same-chain routes read no RPC).
const env = testEnv();
process.env.KAFKA_BROKERS = env.kafkaBrokers; // MessagingModule reads the brokers from the environment
const groupId = `execution-planner-it-${Date.now().toString(36)}`;

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const USDC = getAddress('0x' + '11'.repeat(20));
const WETH = getAddress('0x' + '22'.repeat(20));
const ROUTER = getAddress('0x' + 'a1'.repeat(20));

const registry = new ChainRegistry({
  manifest: {
    generatedAtMs: 0,
    chains: [
      {
        id: 'devnet-a',
        name: 'Devnet A',
        chainId: 31337,
        rpcUrl: 'http://127.0.0.1:8545',
        nativeSymbol: 'ETH',
        tokens: {},
        uniswapV2: { factory: ROUTER, router: ROUTER, initCodeHash: '0x' + '0'.repeat(64), pairs: {} },
        bridge: { address: ROUTER, token: 'USDC' },
      },
    ],
    bridge: { provider: 'devnet-bridge', feeBps: 10, estimatedDurationSeconds: 30, relayer: ROUTER },
    accounts: [],
  },
});

function planFor(quoteId: string, chain = 'devnet-a', expiresAtMs = Date.now() + 60_000): RoutePlan {
  const tokenIn = { chain, symbol: 'USDC', address: USDC, decimals: 6 };
  const tokenOut = { chain, symbol: 'WETH', address: WETH, decimals: 18 };
  return {
    quoteId,
    routeId: 'r1',
    expiresAtMs,
    fromChain: chain,
    toChain: chain,
    tokenIn,
    tokenOut,
    amountIn: '1500000',
    expectedAmountOut: '500000000000000',
    slippageBps: 50,
    providers: ['uniswap-v2'],
    legs: [
      {
        kind: 'swap',
        chain,
        provider: 'uniswap-v2',
        tokenIn,
        tokenOut,
        amountIn: '1500000',
        expectedAmountOut: '500000000000000',
        minAmountOut: '497500000000000',
        spender: ROUTER,
        path: [USDC, WETH],
        estimatedDurationSeconds: 15,
      },
    ],
  };
}

const plans = new Map<string, RoutePlan>();
/** The plan a quote answered for the test's quote id (what the gateway sends on in the build). */
const planOf = (quoteId: string): RoutePlan => {
  const plan = plans.get(quoteId);
  if (!plan) throw new Error(`the test set no plan for ${quoteId}`);
  return plan;
};

describe('execution-planner over real Kafka and PostgreSQL', () => {
  let app: INestMicroservice;
  let db: DataSource;
  let producer: Producer;
  let builder: SwapPlanner;
  let progress: SwapProgress;
  let sweeper: SwapExpirySweeper;

  const buildRequest = (quoteId: string, swapId = randomUUID()): SwapBuildRequest => ({
    swapId,
    owner: 'alice',
    quoteId,
    routeId: 'r1',
    userAddress: USER,
    plan: planOf(quoteId),
  });
  const swapRow = async (swapId: string) =>
    (await db.query(`SELECT * FROM planner.swaps WHERE id = $1`, [swapId]))[0];
  const stepRows = (swapId: string) =>
    db.query(`SELECT * FROM planner.swap_steps WHERE swap_id = $1 ORDER BY step_index`, [swapId]);
  const outboxOf = async (
    swapId: string,
  ): Promise<Array<{ type: string; topic: string; payload: Record<string, unknown>; published: boolean }>> =>
    (
      await db.query(
        `SELECT topic, envelope, published_at FROM planner.outbox WHERE message_key = $1 ORDER BY id`,
        [swapId],
      )
    ).map(
      (r: {
        topic: string;
        envelope: { type: string; payload: Record<string, unknown> };
        published_at: Date | null;
      }) => ({
        type: r.envelope.type,
        topic: r.topic,
        payload: r.envelope.payload,
        published: r.published_at !== null,
      }),
    );

  /** signer-surface's side: one event on signing.events, exactly as it would publish it. */
  async function signerSays(
    type: string,
    payload: Record<string, unknown>,
    envelope = createEnvelope(type, String(payload.swapId), payload, new SystemClock()),
  ) {
    await producer.send({
      topic: Topics.signingEvents,
      acks: -1,
      messages: [{ key: envelope.aggregateId, value: JSON.stringify(envelope) }],
    });
    return envelope;
  }
  const stepRef = (swapId: string, stepIndex: number) => ({
    swapId,
    stepId: `${swapId}:${stepIndex}`,
    stepIndex,
    chain: 'devnet-a',
  });
  const payloadReady = (swapId: string, stepIndex: number, expiresAtMs = Date.now() + 120_000) => ({
    ...stepRef(swapId, stepIndex),
    signingRequestId: randomUUID(),
    stepCount: 2,
    kind: stepIndex === 1 ? 'approve' : 'swap',
    payload: {
      type: 'evm-transaction',
      transaction: {
        chainId: '31337',
        from: USER,
        to: ROUTER,
        data: '0x',
        value: '0',
        nonce: '0',
        gasLimit: '1',
        maxFeePerGas: '1',
        maxPriorityFeePerGas: '1',
      },
    },
    expiresAtMs,
    readyAtMs: Date.now(),
    executionHints: { gasLimit: '1' },
    clientHints: { recommendedWallet: 'any', network: 'Devnet A', action: 'approve' },
  });
  /** True once the planner's group has committed offsets at the end of every partition of `topic`. */
  async function groupCaughtUp(topic: string): Promise<boolean> {
    const admin = new Kafka({
      clientId: 'planner-it-lag',
      brokers: env.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const [ends, committed] = await Promise.all([
        admin.fetchTopicOffsets(topic),
        admin.fetchOffsets({ groupId, topics: [topic] }),
      ]);
      const byPartition = new Map(committed[0]?.partitions.map((p) => [p.partition, p.offset]) ?? []);
      return ends.every((e) => e.high === '0' || byPartition.get(e.partition) === e.high);
    } finally {
      await admin.disconnect();
    }
  }
  const txHash = (n: number) => '0x' + n.toString(16).padStart(64, '0');

  beforeAll(async () => {
    const settings = kafkaSettingsFromEnv('execution-planner-it', process.env);
    await ensureTopics(settings);
    const config = loadConfig(ExecutionPlannerConfig, { ...process.env, ...env.env, HEALTH_PORT: '0' });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, { groupId })] })
      .overrideProvider(SWAP_CHAINS)
      .useValue(new RegistrySwapChains(registry))
      .compile();
    // The app's own migrations, as main.ts runs them at boot.
    await prepareDatabase(plannerDatabaseOptions(env.databaseUrl));
    app = moduleRef.createNestMicroservice({
      ...kafkaMicroserviceOptions(settings, groupId),
      logger: ['error', 'warn'],
    });
    await app.listen();
    db = app.get(DataSource);
    builder = app.get(SwapPlanner);
    progress = app.get(SwapProgress);
    sweeper = app.get(SwapExpirySweeper);
    producer = new Kafka({
      clientId: 'planner-it-signer',
      brokers: env.brokers,
      logLevel: logLevel.NOTHING,
    }).producer();
    await producer.connect();
    const admin = new Kafka({
      clientId: 'planner-it-admin',
      brokers: env.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    // A new group starts at the end of the topic: events sent before it joined would be missed.
    await waitFor(async () => (await admin.describeGroups([groupId])).groups[0]?.state === 'Stable', {
      timeoutMs: 60_000,
      description: 'the planner to join its group',
    });
    await admin.disconnect();
  }, 120_000);

  afterAll(async () => {
    await producer?.disconnect();
    await app?.close();
  });

  it('builds the swap, its steps and step 1’s signing.prepare in one go, and the relay publishes them', async () => {
    plans.set('q-build', planFor('q-build'));
    const request = buildRequest('q-build');

    const result = await builder.build(request);

    expect(result).toEqual({ swapId: request.swapId, status: 'planning', stepCount: 2, created: true });
    expect(await swapRow(request.swapId)).toMatchObject({
      owner: 'alice',
      status: 'planning',
      current_step: 1,
      step_count: 2,
      from_chain: 'devnet-a',
    });
    const steps = await stepRows(request.swapId);
    expect(steps.map((s: { kind: string; status: string }) => [s.kind, s.status])).toEqual([
      ['approve', 'building'],
      ['swap', 'pending'],
    ]);
    const swapCall = uniswapV2RouterInterface.decodeFunctionData(
      'swapExactTokensForTokens',
      steps[1].spec.call.data,
    );
    expect([swapCall[0], swapCall[1], swapCall[3]]).toEqual([1_500_000n, 497_500_000_000_000n, USER]);
    const outbox = await waitFor(
      async () => {
        const rows = await outboxOf(request.swapId);
        return rows.length === 2 && rows.every((r) => r.published) ? rows : null;
      },
      { timeoutMs: 15_000, description: 'the outbox rows to be published' },
    );
    expect(outbox.map((r) => [r.topic, r.type])).toEqual([
      [Topics.swapEvents, 'swap.created'],
      [Topics.signingCommands, 'signing.prepare'],
    ]);
    expect(outbox[1].payload).toMatchObject({
      swapId: request.swapId,
      stepId: `${request.swapId}:1`,
      stepIndex: 1,
      stepCount: 2,
      kind: 'approve',
      from: USER,
      step: { family: 'evm-transaction', approve: { token: USDC, spender: ROUTER, amount: '1500000' } },
    });
  });

  it('answers a retried build with the same swap and writes nothing new; another request on the swapId is a conflict', async () => {
    plans.set('q-retry', planFor('q-retry'));
    const request = buildRequest('q-retry');
    await builder.build(request);
    const [again, concurrent] = await Promise.all([builder.build(request), builder.build(request)]);

    expect(again).toEqual({ swapId: request.swapId, status: 'planning', stepCount: 2, created: false });
    expect(concurrent.created).toBe(false);
    expect(await stepRows(request.swapId)).toHaveLength(2);
    expect(await outboxOf(request.swapId)).toHaveLength(2);
    await expect(
      builder.build({ ...request, userAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('refuses expired quotes, unknown routes and chains without a signing surface, creating nothing', async () => {
    plans.set('q-expired', planFor('q-expired', 'devnet-a', Date.now() - 1));
    plans.set('q-nosurface', planFor('q-nosurface', 'ethereum'));
    const expired = buildRequest('q-expired');
    const noSurface = buildRequest('q-nosurface');
    await expect(builder.build(expired)).rejects.toMatchObject({ code: 'QUOTE_EXPIRED' });
    await expect(builder.build({ ...buildRequest('q-build'), routeId: 'nope' })).rejects.toMatchObject({
      code: 'UNKNOWN_ROUTE',
    });
    await expect(builder.build(noSurface)).rejects.toMatchObject({
      code: 'SIGNING_SURFACE_UNAVAILABLE',
      details: { chains: ['ethereum'] },
    });
    expect(await swapRow(expired.swapId)).toBeUndefined();
    expect(await swapRow(noSurface.swapId)).toBeUndefined();
  });

  it('takes build commands from swap.commands: a swap once however often the command comes, a refusal as a failed swap with its code', async () => {
    plans.set('q-command', planFor('q-command'));
    plans.set('q-command-nosurface', planFor('q-command-nosurface', 'ethereum'));
    // Accepted before the quote expired, planned after: judged at acceptance.
    plans.set('q-command-late', planFor('q-command-late', 'devnet-a', Date.now() + 50));
    const built = buildRequest('q-command');
    const refused = buildRequest('q-command-nosurface');
    const late = { ...buildRequest('q-command-late'), acceptedAtMs: Date.now() };
    await new Promise((resolve) => setTimeout(resolve, 100));
    const command = (request: SwapBuildRequest) => {
      const envelope = createEnvelope(SwapCommandTypes.build, request.swapId, request, new SystemClock());
      return { key: request.swapId, value: JSON.stringify(envelope) };
    };
    // The same build twice (a gateway retry: another eventId), and the same message twice (a redelivery).
    const once = command(built);
    await producer.send({
      topic: Topics.swapCommands,
      acks: -1,
      messages: [once, once, command(built), command(refused), command(late)],
    });

    const swap = await waitFor(async () => (await swapRow(built.swapId)) ?? null, {
      timeoutMs: 30_000,
      description: 'the commanded swap',
    });
    expect(swap).toMatchObject({ status: 'planning', step_count: 2 });
    const failed = await waitFor(async () => (await swapRow(refused.swapId)) ?? null, {
      timeoutMs: 30_000,
      description: 'the refused swap',
    });
    expect(failed).toMatchObject({
      status: 'failed',
      step_count: 0,
      failure_reason: 'SIGNING_SURFACE_UNAVAILABLE',
      failure_details: { chains: ['ethereum'] },
    });
    expect(
      await waitFor(async () => (await swapRow(late.swapId)) ?? null, {
        timeoutMs: 30_000,
        description: 'the late swap',
      }),
    ).toMatchObject({ status: 'planning' });

    await waitFor(async () => groupCaughtUp(Topics.swapCommands), {
      timeoutMs: 30_000,
      description: 'the planner to commit swap.commands',
    });
    expect(await stepRows(built.swapId)).toHaveLength(2);
    expect((await outboxOf(built.swapId)).map((r) => r.type)).toEqual(['swap.created', 'signing.prepare']);
    const refusal = await outboxOf(refused.swapId);
    expect(refusal.map((r) => r.type)).toEqual(['swap.created', 'swap.failed']);
    expect(refusal[1].payload).toMatchObject({
      status: 'failed',
      reason: 'SIGNING_SURFACE_UNAVAILABLE',
      details: { chains: ['ethereum'], message: expect.stringContaining('ethereum') },
    });
  });

  it('advances on signer events through every step to completed, and a replay of the events changes nothing', async () => {
    plans.set('q-flow', planFor('q-flow'));
    const { swapId } = await builder.build(buildRequest('q-flow'));
    const sent = [];

    sent.push(await signerSays(SigningEventTypes.payloadReady, payloadReady(swapId, 1)));
    await waitFor(async () => (await swapRow(swapId)).status === 'awaiting_signature', {
      timeoutMs: 15_000,
      description: 'payload ready',
    });
    const ready = (await outboxOf(swapId)).find((r) => r.type === 'swap.signing-ready');
    expect(ready?.payload).toMatchObject({
      swapId,
      status: 'awaiting_signature',
      step: { current: 1, total: 2 },
      clientHints: { action: 'approve' },
    });

    sent.push(
      await signerSays(SigningEventTypes.submitted, {
        ...stepRef(swapId, 1),
        txHash: txHash(1),
        submittedAtMs: Date.now(),
      }),
    );
    sent.push(
      await signerSays(SigningEventTypes.stepIncluded, {
        ...stepRef(swapId, 1),
        txHash: txHash(1),
        blockNumber: 5,
        confirmations: 1,
        confirmationsRequired: 2,
      }),
    );
    await waitFor(async () => (await swapRow(swapId)).status === 'confirming', {
      timeoutMs: 15_000,
      description: 'the swap to be confirming',
    });
    const confirming = (await outboxOf(swapId)).find((r) => r.type === 'swap.step-confirming');
    expect(confirming?.payload).toMatchObject({
      swapId,
      status: 'confirming',
      step: { current: 1, total: 2 },
      txHash: txHash(1),
      confirmations: 1,
      confirmationsRequired: 2,
    });
    expect((await stepRows(swapId))[0]).toMatchObject({ status: 'submitted', tx_hash: txHash(1) });
    sent.push(
      await signerSays(SigningEventTypes.stepConfirmed, {
        ...stepRef(swapId, 1),
        txHash: txHash(1),
        blockNumber: 5,
        confirmations: 2,
        confirmedAtMs: Date.now(),
      }),
    );
    await waitFor(async () => (await swapRow(swapId)).current_step === 2, {
      timeoutMs: 15_000,
      description: 'step 2 to start',
    });
    const afterStep1 = await outboxOf(swapId);
    expect(afterStep1.filter((r) => r.type === 'signing.prepare').map((r) => r.payload.stepIndex)).toEqual([
      1, 2,
    ]);
    expect(
      (await stepRows(swapId)).map((s: { status: string; tx_hash: string | null }) => [s.status, s.tx_hash]),
    ).toEqual([
      ['confirmed', txHash(1)],
      ['building', null],
    ]);

    sent.push(await signerSays(SigningEventTypes.payloadReady, payloadReady(swapId, 2)));
    sent.push(
      await signerSays(SigningEventTypes.submitted, {
        ...stepRef(swapId, 2),
        txHash: txHash(2),
        submittedAtMs: Date.now(),
      }),
    );
    sent.push(
      await signerSays(SigningEventTypes.stepConfirmed, {
        ...stepRef(swapId, 2),
        txHash: txHash(2),
        blockNumber: 6,
        confirmations: 1,
        confirmedAtMs: Date.now(),
      }),
    );
    await waitFor(async () => (await swapRow(swapId)).status === 'completed', {
      timeoutMs: 15_000,
      description: 'the swap to complete',
    });
    const final = await outboxOf(swapId);
    expect(final.map((r) => r.type)).toEqual([
      'swap.created',
      'signing.prepare',
      'swap.signing-ready',
      'swap.step-submitted',
      'swap.step-confirming',
      'swap.step-confirmed',
      'signing.prepare',
      'swap.signing-ready',
      'swap.step-submitted',
      'swap.step-confirmed',
      'swap.completed',
    ]);

    // Replay: the very same envelopes again (an ops replay from offset 0); wait until the planner's
    // group has consumed the whole topic, then nothing may have changed.
    for (const envelope of sent)
      await signerSays(envelope.type, envelope.payload as Record<string, unknown>, envelope);
    await waitFor(() => groupCaughtUp(Topics.signingEvents), {
      timeoutMs: 30_000,
      description: 'the planner to consume the replay',
    });
    expect(await outboxOf(swapId)).toHaveLength(final.length);
    expect((await swapRow(swapId)).status).toBe('completed');
  });

  it('skips a step the signer found unnecessary and fails the swap with the signer’s reason', async () => {
    plans.set('q-fail', planFor('q-fail'));
    const { swapId } = await builder.build(buildRequest('q-fail'));
    await signerSays(SigningEventTypes.stepSkipped, {
      ...stepRef(swapId, 1),
      reason: 'allowance already sufficient',
    });
    await waitFor(async () => (await swapRow(swapId)).current_step === 2, {
      timeoutMs: 15_000,
      description: 'the approve to be skipped',
    });
    await signerSays(SigningEventTypes.stepFailed, {
      ...stepRef(swapId, 2),
      code: 'TX_REQUEST_INVALID',
      reason: 'execution reverted: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT',
    });
    await waitFor(async () => (await swapRow(swapId)).status === 'failed', {
      timeoutMs: 15_000,
      description: 'the swap to fail',
    });

    expect((await stepRows(swapId)).map((s: { status: string }) => s.status)).toEqual(['skipped', 'failed']);
    const failed = (await outboxOf(swapId)).find((r) => r.type === 'swap.failed');
    expect(failed?.payload).toMatchObject({
      status: 'failed',
      reason: 'TX_REQUEST_INVALID',
      details: {
        step: { current: 2, total: 2 },
        message: expect.stringContaining('INSUFFICIENT_OUTPUT_AMOUNT'),
      },
    });
    const confirmed = (await outboxOf(swapId)).find((r) => r.type === 'swap.step-confirmed');
    expect(confirmed?.payload).toMatchObject({ step: { current: 1, total: 2 }, skipped: true });
  });

  it('fails the swap with SIGNING_SURFACE_UNAVAILABLE when the signer has none for the step', async () => {
    plans.set('q-unavailable', planFor('q-unavailable'));
    const { swapId } = await builder.build(buildRequest('q-unavailable'));
    await signerSays(SigningEventTypes.unavailable, { ...stepRef(swapId, 1), reason: 'no RPC for devnet-a' });
    await waitFor(async () => (await swapRow(swapId)).status === 'failed', {
      timeoutMs: 15_000,
      description: 'the swap to fail',
    });
    expect((await swapRow(swapId)).failure_reason).toBe('SIGNING_SURFACE_UNAVAILABLE');
  });

  it('asks for a fresh payload once when the current one expired, and only for its owner', async () => {
    plans.set('q-refresh', planFor('q-refresh'));
    const { swapId } = await builder.build(buildRequest('q-refresh'));
    await signerSays(SigningEventTypes.payloadReady, payloadReady(swapId, 1, Date.now() - 1));
    await waitFor(async () => (await swapRow(swapId)).status === 'awaiting_signature', {
      timeoutMs: 15_000,
      description: 'payload ready',
    });

    await expect(progress.refreshSigning(swapId, 'mallory')).rejects.toMatchObject({
      code: 'SWAP_NOT_FOUND',
    });
    expect(await progress.refreshSigning(swapId, 'alice')).toEqual({
      swapId,
      refreshRequested: true,
      status: 'planning',
    });
    expect(await progress.refreshSigning(swapId, 'alice')).toEqual({
      swapId,
      refreshRequested: false,
      status: 'planning',
    });
    const refreshes = (await outboxOf(swapId)).filter((r) => r.type === 'signing.refresh');
    expect(refreshes.map((r) => r.payload)).toEqual([{ swapId, stepId: `${swapId}:1` }]);
  });

  it('expires a swap abandoned past its deadline, but not one whose transaction is in flight', async () => {
    plans.set('q-abandoned', planFor('q-abandoned'));
    plans.set('q-inflight', planFor('q-inflight'));
    const abandoned = await builder.build(buildRequest('q-abandoned'));
    const inflight = await builder.build(buildRequest('q-inflight'));
    await signerSays(SigningEventTypes.submitted, {
      ...stepRef(inflight.swapId, 1),
      txHash: txHash(9),
      submittedAtMs: Date.now(),
    });
    await waitFor(async () => (await swapRow(inflight.swapId)).status === 'submitted', {
      timeoutMs: 15_000,
      description: 'step 1 submitted',
    });
    await db.query(`UPDATE planner.swaps SET expires_at_ms = 1 WHERE id = ANY($1)`, [
      [abandoned.swapId, inflight.swapId],
    ]);

    await sweeper.sweepOnce(); // the app's own timer may have got there first: the outcome is the same

    expect(await swapRow(abandoned.swapId)).toMatchObject({
      status: 'expired',
      failure_reason: 'SWAP_DEADLINE_PASSED',
    });
    expect((await stepRows(abandoned.swapId)).map((s: { status: string }) => s.status)).toEqual([
      'expired',
      'pending',
    ]);
    expect(
      (await outboxOf(abandoned.swapId)).filter((r) => r.type === 'swap.expired').map((r) => r.payload),
    ).toEqual([{ swapId: abandoned.swapId, status: 'expired', reason: 'SWAP_DEADLINE_PASSED' }]);
    expect((await swapRow(inflight.swapId)).status).toBe('submitted');
  });
});
