import { randomUUID } from 'node:crypto';
import { AssignerProtocol, Kafka, logLevel, Partitioners, PartitionMetadata } from 'kafkajs';
import { Client } from 'pg';
import { Topics } from '@swapgw/contracts';
import { ApiClient, AppHandle, startApp, testEnv, waitFor } from '@swapgw/testing';
import { swapIdOf } from '../../src/swap/swap-id';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi } from '../support/e2e-api';
import { quoteFirstRoute } from '../support/swap-steps';

// Kills the execution-planner instance that owns a swap's partition in the middle of the swap,
// restarts it, and checks that the swap resumes from the database and that no transaction was
// broadcast twice (the wallet's nonce moved by exactly the number of steps).
const env = testEnv();
const PLANNER_GROUP = 'execution-planner';

/** The partition the producers' default partitioner (murmur2, as Java's) gives a key. */
function partitionOf(key: string, partitions: number): number {
  const partitionMetadata: PartitionMetadata[] = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));
  return Partitioners.DefaultPartitioner()({
    topic: Topics.signingEvents,
    partitionMetadata,
    message: { key, value: null },
  });
}

describe('a planner killed mid-swap resumes it after restart', () => {
  const kafka = new Kafka({ clientId: 'swap-resume-e2e', brokers: env.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const devnet = new DevnetEvm();
  const provider = devnet.provider('devnet-a');
  let plannerB: AppHandle | undefined;
  let client: ApiClient;
  let owner: string;

  beforeAll(async () => {
    ({ owner, client } = await connectE2eApi('swap-resume'));
    await admin.connect();
    // A second planner next to the stack's: the group splits the partitions between the two.
    plannerB = await startApp('execution-planner', { instance: `planner-b-${process.pid}` });
  });

  afterAll(async () => {
    await plannerB?.stop();
    await admin.disconnect();
    devnet.destroy();
  });

  /** signing.events partitions of planner B once the group settled with both members. */
  async function partitionsOfPlannerB(): Promise<number[]> {
    return waitFor(
      async () => {
        const [group] = (await admin.describeGroups([PLANNER_GROUP])).groups;
        if (group.state !== 'Stable' || group.members.length < 2) return null;
        const member = group.members.find((m) => m.clientId.includes(plannerB!.instanceId));
        if (!member) return null;
        const assignment =
          AssignerProtocol.MemberAssignment.decode(member.memberAssignment)?.assignment ?? {};
        const partitions = assignment[Topics.signingEvents] ?? [];
        return partitions.length > 0 ? partitions : null;
      },
      { timeoutMs: 90_000, intervalMs: 500, description: 'planner B to own signing.events partitions' },
    );
  }

  async function readyStep(swapId: string, after: number) {
    return waitFor(
      async () => {
        const res = await client.get(`/swap/${swapId}/signing`);
        if (res.status === 200 && res.body.data.signing.step.current > after) return res.body.data;
        if (res.status === 409) return res.body.error;
        return null;
      },
      { timeoutMs: 120_000, intervalMs: 300, description: `swap ${swapId} past step ${after}` },
    );
  }

  it('completes the swap with each step broadcast once', async () => {
    const wallet = devnet.account(5);
    const owned = await partitionsOfPlannerB();
    const { partitions } = (await admin.fetchTopicMetadata({ topics: [Topics.signingEvents] })).topics[0];
    // An Idempotency-Key whose swap (the Kafka key of its events) lands on a partition of planner B.
    let key: string;
    do key = `resume-${randomUUID()}`;
    while (!owned.includes(partitionOf(swapIdOf(owner, key), partitions.length)));

    const { quoteId, route } = await quoteFirstRoute(
      { client },
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '3' },
    );
    const nonceBefore = await provider.getTransactionCount(wallet.address);
    const build = await client.post(
      '/swap/build',
      {
        quoteId,
        routeId: route.routeId,
        userAddress: wallet.address,
        gasPayment: 'user',
        waitForTxRequestMs: 20_000,
      },
      { idempotencyKey: key },
    );
    expect([200, 202]).toContain(build.status);
    const swapId = build.body.data.swapId as string;
    expect(swapId).toBe(swapIdOf(owner, key));

    const first = await readyStep(swapId, 0);
    expect(first.signing.step).toEqual({ current: 1, total: 2 });
    await plannerB!.kill('SIGKILL'); // mid-swap: the confirmation of step 1 is for it to handle
    const submitted = await client.post(`/swap/${swapId}/signing`, {
      rawTx: await wallet.signTransaction(first.signing.payload.transaction),
    });
    expect(submitted.status).toBe(200);
    await plannerB!.restart();

    const second = await readyStep(swapId, 1);
    expect(second.signing.step).toEqual({ current: 2, total: 2 });
    expect(
      (
        await client.post(`/swap/${swapId}/signing`, {
          rawTx: await wallet.signTransaction(second.signing.payload.transaction),
        })
      ).status,
    ).toBe(200);
    const terminal = await readyStep(swapId, 2);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });

    expect((await provider.getTransactionCount(wallet.address)) - nonceBefore).toBe(2);
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT envelope->'payload'->>'stepIndex' AS step, count(*)::int AS n FROM planner.outbox
         WHERE message_key = $1 AND envelope->>'type' = 'signing.prepare' GROUP BY 1 ORDER BY 1`,
        [swapId],
      );
      expect(rows).toEqual([
        { step: '1', n: 1 },
        { step: '2', n: 1 },
      ]);
    } finally {
      await db.end();
    }
  });
});
