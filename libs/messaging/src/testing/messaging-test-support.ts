// Helpers for the integration specs of this library (not exported from the package index).
// Polling waits come from @swapgw/testing (`waitFor`), like everywhere else.
import { randomBytes } from 'node:crypto';
import { Kafka, KafkaMessage, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { KafkaSettings, parseBrokers } from '../kafka/kafka-settings';

export const DEV_KAFKA_BROKERS = '127.0.0.1:19092';
export const DEV_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/swapgw_dev_messaging';

export const testDatabaseUrl = (): string => process.env.DATABASE_URL || DEV_DATABASE_URL;

/** A short random suffix so topics, groups and schemas of parallel runs never collide. */
export const uniqueSuffix = (): string => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

export function testKafkaSettings(clientId: string, instanceId = uniqueSuffix()): KafkaSettings {
  return { brokers: parseBrokers(process.env.KAFKA_BROKERS || DEV_KAFKA_BROKERS), clientId, instanceId };
}

/** A DataSource on a fresh schema of the test database, migrated with `migrations`. */
export async function createTestDataSource(
  schema: string,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[],
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[],
  /** Connect through this URL (a proxy) instead; migrations still run on the direct one. */
  connectUrl?: string,
): Promise<DataSource> {
  const options = {
    url: testDatabaseUrl(),
    schema,
    entities,
    migrations,
    applicationName: `messaging-it-${schema}`,
  };
  await prepareDatabase(options);
  const dataSource = new DataSource(
    serviceDataSourceOptions({ ...options, url: connectUrl ?? options.url, poolSize: 5 }),
  );
  return dataSource.initialize();
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export interface ReadMessage {
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

/** Reads a topic from the beginning with a throw-away group, collecting every message. */
export class TopicReader {
  readonly messages: ReadMessage[] = [];
  private readonly kafka: Kafka;
  private consumer: ReturnType<Kafka['consumer']> | null = null;

  constructor(
    private readonly settings: KafkaSettings,
    private readonly topic: string,
  ) {
    this.kafka = new Kafka({
      clientId: `${settings.clientId}-reader`,
      brokers: settings.brokers,
      logLevel: logLevel.NOTHING,
    });
  }

  async start(): Promise<this> {
    this.consumer = this.kafka.consumer({
      groupId: `it-reader-${uniqueSuffix()}`,
      allowAutoTopicCreation: false,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ partition, message }) => {
        this.messages.push(toReadMessage(partition, message));
      },
    });
    return this;
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    this.consumer = null;
  }
}

function toReadMessage(partition: number, message: KafkaMessage): ReadMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v !== undefined) headers[name] = v.toString();
  }
  return {
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? null,
    value: message.value?.toString() ?? null,
    headers,
  };
}

/** Produces raw messages (hand-written, possibly invalid) the way a foreign producer would. */
export async function produceRaw(
  settings: KafkaSettings,
  topic: string,
  messages: Array<{ key?: string; value: string; headers?: Record<string, string>; partition?: number }>,
): Promise<void> {
  const kafka = new Kafka({
    clientId: `${settings.clientId}-raw`,
    brokers: settings.brokers,
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

/** True once `groupId` has committed offsets at the end of every partition of `topic`. */
export async function groupCaughtUp(
  settings: KafkaSettings,
  groupId: string,
  topic: string,
): Promise<boolean> {
  const kafka = new Kafka({
    clientId: `${settings.clientId}-lag`,
    brokers: settings.brokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
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

/**
 * A TCP proxy in front of PostgreSQL that can refuse and cut connections, to make the database
 * really unreachable for one DataSource while the test keeps its own direct connection.
 */
export class RefusingProxy {
  private server: import('node:net').Server | null = null;
  private readonly sockets = new Set<import('node:net').Socket>();
  private refusing = false;
  /** Connections refused while refusing: each is one attempt of the client behind the proxy. */
  refused = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    const net = await import('node:net');
    this.server = net.createServer((client) => {
      if (this.refusing) {
        this.refused += 1;
        client.destroy();
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return (server.address() as { port: number }).port;
  }

  setRefusing(refusing: boolean): void {
    this.refusing = refusing;
    if (refusing) for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.setRefusing(true);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** `url` with its host and port replaced (to route a DataSource through a proxy). */
export function withHostPort(url: string, host: string, port: number): string {
  const u = new URL(url);
  u.hostname = host;
  u.port = String(port);
  return u.toString();
}
