import { randomUUID } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import {
  CodedError,
  CreateLimitOrderRequest,
  LimitOrderCreated,
  LimitOrderRequestTypes,
  Topics,
} from '@swapgw/contracts';
import { ensureTopics, kafkaMicroserviceOptions, KafkaSettings, RequestReplyClient } from '@swapgw/messaging';
import type { TermsChain } from '@swapgw/chains';
import { prepareDatabase } from '@swapgw/persistence';
import { loadConfig, SystemClock } from '@swapgw/runtime';
import { testEnv } from '@swapgw/testing';
import { AppModule, SERVICE_NAME } from '../src/app.module';
import { LimitOrderServiceConfig } from '../src/config/limit-order-service.config';
import { limitOrderDatabaseOptions } from '../src/database/limit-order-database';
import { CatalogDirectory, TokenInfo } from '../src/upstream/upstream.ports';

/**
 * The real limit-order-service module answering limit-order.requests over the real broker, with
 * its PostgreSQL connections going through a TCP fault proxy: when the database is unreachable a
 * create answers PERSISTENCE_UNAVAILABLE (the gateway's 503) and leaves nothing half-written; once
 * the database is back, the retry with the same key creates exactly one order.
 */
const env = testEnv();

/** A TCP pass-through to PostgreSQL that can refuse and cut connections, as an outage would. */
class DatabaseLink {
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  private server: Server | undefined;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (this.refusing) return client.destroy();
      const upstream = new Socket().connect(this.target.port, this.target.host);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ]) {
        this.sockets.add(a);
        a.pipe(b);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  get address(): string {
    return `127.0.0.1:${(this.server?.address() as { port: number }).port}`;
  }

  setRefusing(refusing: boolean): void {
    this.refusing = refusing;
    if (refusing) for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.setRefusing(true);
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

class StaticCatalog extends CatalogDirectory {
  async chain(id: string): Promise<TermsChain | undefined> {
    return { id, family: 'evm', network: 'testnet' };
  }

  async token(chain: string, symbol: string): Promise<TokenInfo | undefined> {
    return { chain, symbol, decimals: symbol === 'USDC' ? 6 : 18 };
  }
}

describe('limit-order-service when PostgreSQL goes away', () => {
  const run = randomUUID().slice(0, 8);
  const owner = `faults-${run}`;
  const settings: KafkaSettings = {
    brokers: env.brokers,
    clientId: 'limit-order-faults',
    instanceId: `faults-${run}`,
  };
  let proxy: DatabaseLink;
  let app: INestMicroservice;
  let requester: RequestReplyClient;
  let direct: Client;

  beforeAll(async () => {
    await prepareDatabase(limitOrderDatabaseOptions(env.databaseUrl));
    await ensureTopics(settings);
    const target = new URL(env.databaseUrl);
    proxy = await new DatabaseLink({ host: target.hostname, port: Number(target.port || 5432) }).start();
    const proxied = new URL(env.databaseUrl);
    proxied.host = proxy.address;

    // The config, and the Kafka settings of MessagingModule, come from the environment as in main.ts.
    Object.assign(process.env, {
      DATABASE_URL: proxied.toString(),
      KAFKA_BROKERS: env.kafkaBrokers,
      WATCH_INTERVAL_MS: '0',
      LOG_LEVEL: 'error',
    });
    const config = loadConfig(LimitOrderServiceConfig);
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
      .overrideProvider(CatalogDirectory)
      .useValue(new StaticCatalog())
      .compile();
    app = moduleRef.createNestMicroservice(
      kafkaMicroserviceOptions({ ...settings, clientId: SERVICE_NAME }, SERVICE_NAME),
    );
    app.useLogger(['error']);
    await app.listen();

    requester = new RequestReplyClient(settings, [Topics.limitOrderRequests], new SystemClock(), {
      defaultTimeoutMs: 20_000,
    });
    await requester.connect();
    direct = new Client({ connectionString: env.databaseUrl });
    await direct.connect();
  }, 120_000);

  afterAll(async () => {
    await requester?.close();
    await app?.close();
    await proxy?.stop();
    await direct?.end();
  });

  const create = (idempotencyKey: string) => {
    const request: CreateLimitOrderRequest = {
      owner,
      idempotencyKey,
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '2',
      minAmountOut: '7000',
    };
    return requester.request<LimitOrderCreated>(
      Topics.limitOrderRequests,
      LimitOrderRequestTypes.create,
      owner,
      request,
    );
  };
  const ordersOfOwner = async () =>
    (await direct.query(`SELECT id FROM limit_order.limit_orders WHERE owner = $1`, [owner])).rows.map(
      (r) => r.id,
    );

  it('answers over Kafka while the database is up', async () => {
    const created = await create(`up-${run}`);
    expect(created.status).toBe('open');
    expect(await ordersOfOwner()).toEqual([created.limitOrderId]);
  });

  it('answers PERSISTENCE_UNAVAILABLE with the database unreachable, writes nothing, and the retry creates one order', async () => {
    const key = `down-${run}`;
    proxy.setRefusing(true);
    let code: string | undefined;
    try {
      await create(key);
    } catch (error) {
      code = error instanceof CodedError ? error.code : String(error);
    }
    expect(code).toBe('PERSISTENCE_UNAVAILABLE');
    proxy.setRefusing(false);

    expect(await ordersOfOwner()).toHaveLength(1); // only the order of the previous test
    const records = await direct.query(
      `SELECT 1 FROM limit_order.idempotency_records WHERE owner = $1 AND key = $2`,
      [owner, key],
    );
    expect(records.rowCount).toBe(0);

    const retried = await create(key);
    expect(retried.status).toBe('open');
    expect(await ordersOfOwner()).toHaveLength(2);
    expect(await create(key)).toEqual(retried);
    expect(await ordersOfOwner()).toHaveLength(2);
  });
});
