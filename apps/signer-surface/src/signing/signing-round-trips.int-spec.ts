import { waitFor } from '@swapgw/testing';
import { Interface } from 'ethers';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { registryOf, startTestChain, TestChain } from '../../test/signer-test-chain';
import { SignerTestService, startSignerTestService } from '../../test/signer-test-service';

// Real anvil, PostgreSQL and Kafka: what a signing.prepare costs PostgreSQL in round trips (each about
// 0.5 ms of the service's CPU besides the backend's), counted at the driver.

const CHAIN = 'signer-rt-a';
let chain: TestChain;
let service: SignerTestService;

/** Every message node-postgres sent and waited on, by connection: its text and its values. */
interface Sent {
  text: string;
  values: unknown[];
}
/** The statements of each transaction committed while counting, START to COMMIT, per connection. */
const committed: Sent[][] = [];
const open = new Map<Client, Sent[]>();
const original = Client.prototype.query;

beforeAll(async () => {
  chain = await startTestChain(CHAIN);
  service = await startSignerTestService(
    registryOf([{ id: CHAIN, chainId: chain.chainId, rpcUrl: chain.rpcUrl }]),
  );
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown];
    const sent: Sent =
      typeof config === 'string'
        ? { text: config, values: Array.isArray(values) ? values : [] }
        : { text: config.text, values: config.values ?? [] };
    if (sent.text.startsWith('START TRANSACTION')) open.set(this, []);
    const statements = open.get(this);
    statements?.push(sent);
    if (statements && (sent.text === 'COMMIT' || sent.text === 'ROLLBACK')) {
      committed.push(statements);
      open.delete(this);
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
}, 90_000);

afterAll(async () => {
  Client.prototype.query = original;
  await service?.close();
  await chain?.stop();
});

/** The committed transactions that name `swapId` in a statement or its values. */
const transactionsOf = (swapId: string): Sent[][] =>
  committed.filter((statements) =>
    statements.some((s) => s.text.includes(swapId) || s.values.some((v) => String(v).includes(swapId))),
  );

describe('signer-surface round trips per swap step', () => {
  it('prepares a step in three: START with the claim and the live-request check, the request with its event, COMMIT', async () => {
    const swapId = `swp-${randomUUID()}`;
    const fixture = new Interface(chain.fixtureAbi as never);

    await service.sendCommand('signing.prepare', swapId, {
      swapId,
      stepId: `${swapId}-step-1`,
      stepIndex: 1,
      stepCount: 1,
      kind: 'swap',
      chain: CHAIN,
      from: chain.wallet(1).address,
      call: {
        to: chain.fixtureAddress,
        data: fixture.encodeFunctionData('approve', ['0x000000000000000000000000000000000000dEaD', 1000n]),
        value: '0',
      },
    });
    await waitFor(
      () => service.events.find((e) => e.aggregateId === swapId && e.type === 'signing.payload-ready'),
      {
        timeoutMs: 30_000,
        description: 'signing.payload-ready',
      },
    );

    const [prepare, ...others] = transactionsOf(swapId);
    expect(others).toEqual([]);
    expect(prepare.map((s) => s.text.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^START TRANSACTION; INSERT INTO ".*"\."processed_events" .*; SELECT "status"/),
      expect.stringMatching(/^WITH "request" AS \(INSERT INTO ".*"\."signing_requests"/),
      'COMMIT',
    ]);
  });
});
