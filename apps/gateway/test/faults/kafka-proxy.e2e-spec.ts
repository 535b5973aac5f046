import fs from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { dropDatabase, ensureDatabase } from '@swapgw/persistence';
import {
  api,
  ApiClient,
  ApiResponse,
  createApiKey,
  FaultProxy,
  ledgerAnomalies,
  ProxiedKafkaBroker,
  readSwapLedger,
  Stack,
  startKafkaBrokerBehindProxy,
  startStack,
  testEnv,
  waitFor,
} from '@swapgw/testing';
import { swapIdOf } from '../../src/swap/swap-id';
import {
  buildSwap,
  freshQuote as freshQuoteOf,
  QuotedRoute,
  SMALL_QUOTE,
  untilSigningReady,
} from '../support/swap-steps';
import {
  expectAcceptedOrUnavailable,
  expectApiError,
  expectQuoteOrUpstreamFailed,
  privateDatabaseUrl,
  stackReady,
  untilAccepted,
} from './fault-support';

// Network faults between the apps and Kafka, on a stack of its own: a private broker that
// advertises a FaultProxy (libs/testing) in front of it, so every Kafka connection of the five apps,
// bootstrap and after, goes through the proxy; a fresh database reached directly; the shared devnet.
// The test adds latency, cuts every connection and blackholes the proxy while builds are in flight.
// What a user checks: statuses and ApiErrors during the fault, every accepted build ready once after.
const env = testEnv();
const manifest = JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as {
  accounts: Array<{ index: number; address: string }>;
};
// Builds only: nothing is signed, so no nonce of this account moves.
const USER_ADDRESS = manifest.accounts.find((a) => a.index === 9)!.address;

/** Inodes of the established TCP connections whose remote end is 127.0.0.1:`port` (Linux /proc). */
function socketInodesTo(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '01') continue; // 01: ESTABLISHED
      if (parseInt(fields[2].split(':')[1], 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** How many of `pid`'s file descriptors are sockets among `inodes`. */
function socketsOf(pid: number, inodes: Set<string>): number {
  let count = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match && inodes.has(match[1])) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

describe('Kafka behind a fault proxy: latency, cut connections and a blackhole on a stack of its own', () => {
  const databaseUrl = privateDatabaseUrl('kproxy', env.databaseUrl);
  let kafka: ProxiedKafkaBroker;
  let proxy: FaultProxy;
  let stack: Stack;
  let client: ApiClient;
  let owner: string;

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    kafka = await startKafkaBrokerBehindProxy();
    proxy = kafka.proxy;
    stack = await startStack({
      env: {
        KAFKA_BROKERS: kafka.broker.brokers,
        DATABASE_URL: databaseUrl,
        // Quotes outlive the faults and the retries after them.
        QUOTE_TTL_MS: '600000',
      },
    });
    owner = `kproxy-${randomBytes(4).toString('hex')}`;
    client = api(stack.gatewayUrl!, await createApiKey(owner, { ...env.env, DATABASE_URL: databaseUrl }));
    expect((await client.get('/chains')).status).toBe(200);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    await kafka?.stop();
    await dropDatabase(databaseUrl);
  }, 180_000);

  afterEach(() => proxy?.reset());

  const freshQuote = (): Promise<QuotedRoute> => freshQuoteOf(client);
  const build = (key: string, quote: QuotedRoute, waitForTxRequestMs: number): Promise<ApiResponse> =>
    buildSwap(client, key, quote, USER_ADDRESS, waitForTxRequestMs);
  const quoteCall = (): Promise<ApiResponse> => client.post('/quote', SMALL_QUOTE, { timeoutMs: 60_000 });

  /** Retries each refused build with its Idempotency-Key, waits for every swap's payload, checks the tables. */
  async function everyBuildReadyOnce(
    builds: Array<{ key: string; quote: QuotedRoute; res: ApiResponse }>,
  ): Promise<void> {
    for (const b of builds) {
      if (b.res.status === 503)
        b.res = await untilAccepted(() => build(b.key, b.quote, 0), `retry of ${b.key}`);
      expect(b.res.body.data.swapId).toBe(swapIdOf(owner, b.key));
    }
    const swapIds = builds.map((b) => swapIdOf(owner, b.key));
    for (const swapId of swapIds) {
      expect((await untilSigningReady(client, swapId)).body.data.signing.step.current).toBe(1);
    }
    // None lost, none twice: one view, one planner swap, one step-1 command, payload and signing request.
    const ledger = await readSwapLedger(databaseUrl, swapIds);
    expect(ledger).toHaveLength(builds.length);
    expect(ledgerAnomalies(ledger)).toEqual([]);
  }

  it('every app reaches Kafka through the proxy only: the broker advertises it and no app holds a direct connection', async () => {
    const direct = socketInodesTo(kafka.broker.port);
    const proxied = socketInodesTo(proxy.port);
    for (const handle of stack.handles) {
      const pid = handle.pid()!;
      expect({ app: handle.app, direct: socketsOf(pid, direct) }).toEqual({ app: handle.app, direct: 0 });
      expect(socketsOf(pid, proxied)).toBeGreaterThan(0);
    }
    const before = proxy.stats();
    await freshQuote();
    const after = proxy.stats();
    expect(after.bytesToTarget).toBeGreaterThan(before.bytesToTarget);
    expect(after.bytesToClient).toBeGreaterThan(before.bytesToClient);
  });

  it('latency on every Kafka connection: quotes and builds succeed, no 5xx, each build ready exactly once', async () => {
    proxy.setLatency({ toTarget: 150, toClient: 250 });
    const quotes = await Promise.all(Array.from({ length: 3 }, () => freshQuote()));
    const keys = quotes.map((_, i) => `kproxy-latency-${i}-${randomUUID()}`);
    const results = await Promise.all(keys.map((key, i) => build(key, quotes[i], 20_000)));
    // Accepted (200 ready, 202 still building); on failure the ApiError is shown.
    for (const res of results)
      expect(res.status === 200 || res.status === 202 ? 'accepted' : res.body).toBe('accepted');
    // Still slow while the payloads are made ready and polled.
    await everyBuildReadyOnce(keys.map((key, i) => ({ key, quote: quotes[i], res: results[i] })));
  }, 420_000);

  it('every Kafka connection cut three times under in-flight builds: 200/202 or 503 ApiErrors, then every build ready once', async () => {
    await stackReady(stack);
    const quotes = await Promise.all(Array.from({ length: 4 }, () => freshQuote()));
    const keys = quotes.map((_, i) => `kproxy-cut-${i}-${randomUUID()}`);
    // Half wait for their payload (the cuts hit the request-reply), half answer 202 at once (the
    // cuts hit the planner → signer → gateway events that make the payload ready).
    const inFlight = Promise.all(keys.map((key, i) => build(key, quotes[i], i % 2 === 0 ? 20_000 : 0)));
    const quotesDuringCuts: Array<Promise<ApiResponse>> = [];
    for (let cut = 0; cut < 3; cut++) {
      const { accepted } = proxy.stats();
      expect(proxy.cutConnections()).toBeGreaterThan(0);
      quotesDuringCuts.push(quoteCall());
      // The next cut hits clients that have reconnected (through the proxy) since this one.
      await waitFor(() => proxy.stats().accepted > accepted && proxy.stats().active > 0, {
        timeoutMs: 60_000,
        intervalMs: 50,
        description: `Kafka clients reconnected after cut ${cut + 1}`,
      });
    }
    const results = await inFlight;
    for (const res of results) expectAcceptedOrUnavailable(res);
    for (const res of await Promise.all(quotesDuringCuts)) expectQuoteOrUpstreamFailed(res);

    await stackReady(stack);
    await everyBuildReadyOnce(keys.map((key, i) => ({ key, quote: quotes[i], res: results[i] })));
    // The stack serves new work too.
    const key = `kproxy-after-cuts-${randomUUID()}`;
    const quote = await freshQuote();
    await everyBuildReadyOnce([{ key, quote, res: await build(key, quote, 0) }]);
  }, 480_000);

  it('blackhole: calls answer 503 ApiErrors within the gateway bound; after it a refused build is accepted and ready once', async () => {
    await stackReady(stack);
    const quote = await freshQuote();
    const key = `kproxy-blackhole-${randomUUID()}`;
    proxy.setBlackhole(true);
    let during: ApiResponse[];
    try {
      during = await Promise.all([quoteCall(), build(key, quote, 5000)]);
    } finally {
      proxy.setBlackhole(false);
    }
    // Nothing reached Kafka in time: the gateway's bounded request-reply wait answers 502
    // QUOTE_UPSTREAM_FAILED for the quote (as the spec says) and 503 for the build.
    expectApiError(during[0], 502);
    expect(during[0].body.error.code).toBe('QUOTE_UPSTREAM_FAILED');
    expectApiError(during[1], 503);

    await stackReady(stack);
    // The held build request may still reach the planner after the blackhole: the retry with the
    // same Idempotency-Key must not make a second swap.
    await everyBuildReadyOnce([{ key, quote, res: during[1] }]);
    expect((await quoteCall()).status).toBe(200);
  }, 420_000);
});
