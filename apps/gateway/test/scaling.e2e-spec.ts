import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
import { Topics } from '@swapgw/contracts';
import {
  api,
  ApiClient,
  AppHandle,
  createApiKey,
  e2eGatewayPair,
  startApp,
  testEnv,
  waitFor,
} from '@swapgw/testing';

// Scaling out: a second execution-planner joins the running stack's `execution-planner` group.
// Kafka splits the partitions of its topics between the two instances, several swaps built through
// the first gateway are planned by both planners, the second gateway answers the polling, and every
// swap is signed to completion exactly once while both planners run.

const env = testEnv();
const manifest = JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as { mnemonic: string };
const accountWallet = (index: number): HDNodeWallet =>
  HDNodeWallet.fromPhrase(manifest.mnemonic, undefined, `m/44'/60'/0'/0/${index}`);
const accountAddress = (index: number): string => accountWallet(index).address;
const PLANNER_GROUP = 'execution-planner';
const PLANNER_TOPICS = [Topics.swapCommands, Topics.signingEvents];
// One swap per funded test account (1..9): payloads carry each account's next nonce.
const SWAPS = 9;

/** Value of one sample in Prometheus text, by metric name and label subset. */
function sampleOf(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}

/** Messages a planner instance consumed on its two topics, read from its /metrics. */
async function consumedBy(healthUrl: string): Promise<number> {
  const text = await (await fetch(`${healthUrl}/metrics`)).text();
  return PLANNER_TOPICS.reduce(
    (sum, topic) => sum + sampleOf(text, 'swapgw_kafka_messages_consumed_total', { topic }),
    0,
  );
}

describe('two execution-planners and two gateways on one broker', () => {
  const kafka = new Kafka({ clientId: 'scaling-e2e', brokers: env.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  let builder: ApiClient;
  let poller: ApiClient;
  let secondPlanner: AppHandle | undefined;
  const firstPlannerUrl = process.env.EXECUTION_PLANNER_HEALTH_URL as string;

  /** Partitions per topic owned by each member of the planner group, once it is stable with two members. */
  async function plannerAssignments(): Promise<Array<Record<string, number[]>> | null> {
    const { groups } = await admin.describeGroups([PLANNER_GROUP]);
    const group = groups[0];
    if (group.state !== 'Stable' || group.members.length < 2) return null;
    return group.members.map(
      (m) => AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {},
    );
  }

  beforeAll(async () => {
    const urls = e2eGatewayPair();
    if (!firstPlannerUrl)
      throw new Error(
        'EXECUTION_PLANNER_HEALTH_URL is not set: run through the e2e project (global setup starts the stack)',
      );
    const key = await createApiKey(`scaling-e2e-${randomUUID().slice(0, 8)}`);
    builder = api(urls[0], key);
    poller = api(urls[1], key);
    await admin.connect();
    secondPlanner = await startApp('execution-planner', { instance: `execution-planner-2-${process.pid}` });
  });

  afterAll(async () => {
    await secondPlanner?.stop();
    await admin.disconnect();
  });

  it('splits the planner topics between the instances, both plan swaps, and either gateway answers', async () => {
    const assignments = await waitFor(plannerAssignments, {
      timeoutMs: 60_000,
      intervalMs: 500,
      description: 'a stable planner group with two members',
    });
    const metadata = await admin.fetchTopicMetadata({ topics: PLANNER_TOPICS });
    for (const topic of metadata.topics) {
      const owned = assignments.map((a) => a[topic.name] ?? []);
      // Every partition has exactly one owner, and each instance owns some.
      expect(owned.flat().sort((a, b) => a - b)).toEqual(
        topic.partitions.map((p) => p.partitionId).sort((a, b) => a - b),
      );
      for (const partitions of owned) expect(partitions.length).toBeGreaterThan(0);
    }

    const firstBefore = await consumedBy(firstPlannerUrl);
    const secondBefore = await consumedBy(secondPlanner!.baseUrl);

    const swapIds: string[] = [];
    for (let i = 0; i < SWAPS; i++) {
      const quote = await builder.post('/quote', {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '1',
        slippageBps: 100,
      });
      expect(quote.status).toBe(200);
      const build = await builder.post('/swap/build', {
        quoteId: quote.body.data.quoteId,
        routeId: quote.body.data.routes[0].routeId,
        userAddress: accountAddress(1 + i),
        gasPayment: 'user',
        waitForTxRequestMs: 0,
      });
      expect([200, 202]).toContain(build.status);
      swapIds.push(build.body.data.swapId);
    }

    // Built through the first gateway, polled on the second: its read model has every swap's payload.
    for (const swapId of swapIds) {
      const ready = await waitFor(
        async () => {
          const res = await poller.get(`/swap/${swapId}/signing`);
          expect([200, 202]).toContain(res.status);
          return res.status === 200 ? res : null;
        },
        {
          timeoutMs: 60_000,
          intervalMs: 250,
          description: `the signing payload of ${swapId} on the second gateway`,
        },
      );
      // The first step is the approval, or the swap itself when an earlier suite left the account's
      // allowance high enough (the signer then skips the approval).
      expect(ready.body.data).toMatchObject({ swapId, signing: { payload: { type: 'evm-transaction' } } });
      expect([1, 2]).toContain(ready.body.data.signing.step.current);
    }

    // Both planner instances did part of the work (swap ids spread over the partitions).
    expect((await consumedBy(firstPlannerUrl)) - firstBefore).toBeGreaterThan(0);
    expect((await consumedBy(secondPlanner!.baseUrl)) - secondBefore).toBeGreaterThan(0);

    // Every swap signed step by step (submitted to the first gateway, polled on the second) ends
    // completed, and each account sent exactly one transaction per step.
    const signers = swapIds.map((_, i) => accountWallet(1 + i));
    const rpcUrl = (
      JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as { chains: { id: string; rpcUrl: string }[] }
    ).chains.find((c) => c.id === 'devnet-a')!.rpcUrl;
    const nonceOf = async (address: string): Promise<number> => {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_getTransactionCount',
          params: [address, 'latest'],
        }),
      });
      return Number(((await res.json()) as { result: string }).result);
    };
    for (const [i, swapId] of swapIds.entries()) {
      const wallet = signers[i];
      const nonceBefore = await nonceOf(wallet.address);
      let afterStep = 0;
      let signedSteps = 0;
      for (;;) {
        const next = await waitFor(
          async () => {
            const res = await poller.get(`/swap/${swapId}/signing`);
            if (res.status === 409) return res;
            if (res.status === 200 && res.body.data.signing.step.current > afterStep) return res;
            expect([200, 202]).toContain(res.status);
            return null;
          },
          {
            timeoutMs: 120_000,
            intervalMs: 300,
            description: `swap ${swapId} to offer step ${afterStep + 1} or end`,
          },
        );
        if (next.status === 409) {
          expect(next.body.error).toMatchObject({
            code: 'EXECUTION_TERMINAL',
            details: { status: 'completed' },
          });
          break;
        }
        const { signing } = next.body.data;
        const rawTx = await wallet.signTransaction(signing.payload.transaction);
        const submitted = await builder.post(`/swap/${swapId}/signing`, { rawTx });
        expect(submitted.status).toBe(200);
        afterStep = signing.step.current;
        signedSteps += 1;
      }
      expect(signedSteps).toBeGreaterThan(0);
      expect((await nonceOf(wallet.address)) - nonceBefore).toBe(signedSteps);
    }
  }, 600_000);
});
