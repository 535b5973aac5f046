import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import {
  api,
  ApiClient,
  ApiResponse,
  ledgerAnomalies,
  readSwapLedger,
  testEnv,
  waitFor,
} from '@swapgw/testing';
import { swapIdOf } from '../src/swap/swap-id';
import { buildSwap, freshQuote, QuotedRoute } from './support/swap-steps';
import { PrivateStack, startPrivateStack } from './support/private-stack';

// A flood of builds while the planner is down: the gateway takes every well-formed build as a
// durable command (202), none is refused, and once the planner is back each swap becomes ready
// exactly once. Its own stack, because the test stops that stack's planner.

const env = testEnv();
const manifest = JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as { mnemonic: string };
const userAddress = HDNodeWallet.fromPhrase(manifest.mnemonic, undefined, `m/44'/60'/0'/0/9`).address;
const BURST = 200;
const RETRIED = 20;
const QUOTES = 5;

describe('a burst of builds while the planner is stopped', () => {
  let stack: PrivateStack;
  let client: ApiClient;
  let owner: string;

  beforeAll(async () => {
    // The burst and the polls are one integrator's key: room above the default 600 a minute.
    stack = await startPrivateStack('burst', { env: { RATE_LIMIT_REQUESTS: '100000' } });
    owner = `burst-${randomBytes(4).toString('hex')}`;
    client = api(stack.stack.gatewayUrl!, await stack.createApiKey(owner));
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const signingPollEdgeAnswers = async (): Promise<number> => {
    const text = await (await fetch(stack.stack.gatewayMetricsUrls[0])).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('swapgw_http_edge_answers_total{route="/api/v1/swap/:swapId/signing"'));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('answers every build 202 while the planner is down, and every swap becomes ready exactly once after it starts', async () => {
    const quotes: QuotedRoute[] = [];
    for (let i = 0; i < QUOTES; i++) quotes.push(await freshQuote(client));
    const planner = stack.stack.get('execution-planner')[0];
    await planner.stop();

    const keys = Array.from({ length: BURST }, (_, i) => `burst-${i}-${randomBytes(4).toString('hex')}`);
    const fire = (key: string, i: number): Promise<ApiResponse> =>
      buildSwap(client, key, quotes[i % QUOTES], userAddress, 1000);
    const answers = await Promise.all(keys.map(fire));
    // A client that did not trust its first answer: the same Idempotency-Keys again, still while the planner is down.
    const retries = await Promise.all(keys.slice(0, RETRIED).map(fire));

    const statuses = (list: ApiResponse[]) =>
      list.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
    expect(statuses(answers)).toEqual({ 202: BURST });
    expect(statuses(retries)).toEqual({ 202: RETRIED });
    const swapIds = keys.map((key) => swapIdOf(owner, key));
    expect(answers.map((r) => r.body.data.swapId)).toEqual(swapIds);
    expect(retries.map((r) => r.body.data.swapId)).toEqual(swapIds.slice(0, RETRIED));
    for (const answer of answers)
      expect(answer.body.data).toMatchObject({ mode: 'async', nextAction: 'poll', status: 'planning' });
    // Polled while the planner is down: accepted, not lost, not failed.
    const polled = await client.get(`/swap/${swapIds[0]}/signing`);
    expect(polled.status).toBe(202);
    // Polled again: the view is in the instance's cache now, and the poll is answered at the edge, the same 202.
    const edgeAnswersBefore = await signingPollEdgeAnswers();
    const polledAgain = await client.get(`/swap/${swapIds[0]}/signing`);
    expect(await signingPollEdgeAnswers()).toBe(edgeAnswersBefore + 1);
    expect(polledAgain.status).toBe(202);
    // The same answer, but for when to poll next: that grows with how long the swap has waited.
    const { pollAfterMs: firstPollAfterMs, ...firstAnswer } = polled.body.data;
    const { pollAfterMs: againPollAfterMs, ...againAnswer } = polledAgain.body.data;
    expect(againAnswer).toEqual(firstAnswer);
    expect(againPollAfterMs).toBeGreaterThanOrEqual(firstPollAfterMs);

    await planner.restart();
    const ledger = await waitFor(
      async () => {
        const rows = await readSwapLedger(stack.databaseUrl, swapIds);
        return rows.every((row) => row.step1ReadyEvents >= 1 && row.gatewayViews === 1) ? rows : null;
      },
      {
        timeoutMs: 300_000,
        intervalMs: 2000,
        description: `all ${BURST} swaps ready after the planner started`,
      },
    );
    expect(ledgerAnomalies(ledger)).toEqual([]);
    // What a client sees: every swap signable, with its first step.
    const signing = await Promise.all(swapIds.map((swapId) => client.get(`/swap/${swapId}/signing`)));
    expect(statuses(signing)).toEqual({ 200: BURST });
    for (const res of signing) expect(res.body.data.signing.step.current).toBe(1);
  }, 600_000);
});
