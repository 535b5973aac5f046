import { Logger } from '@nestjs/common';
import { Kafka, Message, Partitioners, Producer } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import { PgChannelListener } from '@swapgw/persistence';
import { messagingMetrics } from '@swapgw/runtime';
import { EnvelopeHeaders } from '../envelope/message-headers';
import { kafkaClientConfig, KafkaSettings } from '../kafka/kafka-settings';
import { withSuiteProducers } from '../kafka/traced-producer';
import { outboxChannelOf, schemaOf } from './schema-of';

export interface OutboxRelayOptions {
  /** Rows published per transaction. */
  batchSize?: number;
  /** Fallback sweep when no NOTIFY arrives (lost LISTEN connection, rows written by hand). */
  sweepIntervalMs?: number;
  /**
   * Called after the rows were produced to Kafka and before they are marked published. Tests use it
   * to simulate a relay that dies at the worst moment; production code leaves it unset.
   */
  afterProduceHook?: (eventIds: string[]) => Promise<void> | void;
  /** How often the unpublished rows are counted into `swapgw_outbox_unpublished_messages`. */
  backlogSampleIntervalMs?: number;
}

interface OutboxRow {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  envelope: unknown;
  headers: Record<string, string>;
}

/**
 * Publishes outbox rows to Kafka. Several instances may run at once: each round takes a
 * transaction-scoped advisory lock on its schema's outbox, so one relay publishes at a time and
 * messages of one aggregate keep their order; `FOR UPDATE SKIP LOCKED` keeps rows claimed by that
 * transaction out of anyone else's hands. A crash after produce and before commit publishes the
 * rows again on the next round: consumers drop the duplicate by eventId.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly schema: string;
  private readonly batchSize: number;
  private readonly sweepIntervalMs: number;
  private producer: Producer | null = null;
  private listener: PgChannelListener | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private backlogTimer: NodeJS.Timeout | null = null;
  private running = false;
  private draining: Promise<void> | null = null;
  private wakeAgain = false;
  private lastError: string | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: KafkaSettings,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.schema = schemaOf(dataSource);
    this.batchSize = options.batchSize ?? 100;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1000;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    // Bounded retries (about 20 s): a round holds its rows' locks while producing, so during a
    // Kafka outage it should fail and let the next sweep try again rather than wait for minutes.
    const kafka = withSuiteProducers(
      new Kafka(
        kafkaClientConfig(
          { ...this.settings, clientId: `${this.settings.clientId}-outbox-relay` },
          { retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 5, factor: 0.2, multiplier: 2 } },
        ),
      ),
    );
    // One request in flight keeps each partition in row order. Not kafkajs's idempotent mode: it
    // needs unbounded retries, which would hold this round's row locks through a Kafka outage;
    // a retried send may duplicate a message, and consumers drop duplicates by eventId anyway.
    this.producer = kafka.producer({
      allowAutoTopicCreation: false,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await this.producer.connect();
    // NOTIFY wakes a round at once; the sweep below covers a lost LISTEN connection meanwhile.
    this.listener = new PgChannelListener(this.dataSource, outboxChannelOf(this.schema), {
      purpose: 'outbox-listen',
      retryDelayMs: this.sweepIntervalMs * 5,
      onNotification: () => void this.wake(),
      onResumed: () => void this.wake(),
    });
    await this.listener.start();
    this.sweepTimer = setInterval(() => void this.wake(), this.sweepIntervalMs);
    void this.wake(); // wake() never rejects: a failed round is logged and retried on the next sweep
    this.backlogTimer = setInterval(
      () => void this.sampleBacklog(),
      this.options.backlogSampleIntervalMs ?? 15_000,
    );
    this.backlogTimer.unref();
    void this.sampleBacklog();
  }

  /**
   * Counts the unpublished rows (the partial index on them keeps this cheap). A growing number
   * means the relay cannot publish (Kafka away) or cannot keep up. Never rejects.
   */
  async sampleBacklog(): Promise<void> {
    try {
      const [{ count }] = (await this.dataSource.query(
        `SELECT count(*)::int AS "count" FROM "${this.schema}"."outbox" WHERE "published_at" IS NULL`,
      )) as Array<{ count: number }>;
      messagingMetrics.outboxBacklog(this.schema, count);
    } catch (error) {
      this.logger.debug({
        msg: 'outbox backlog sample failed',
        schema: this.schema,
        error: (error as Error).message,
      });
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    if (this.backlogTimer) clearInterval(this.backlogTimer);
    this.backlogTimer = null;
    await this.draining?.catch(() => undefined);
    await this.listener?.stop();
    this.listener = null;
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = null;
  }

  /** Last publication error, or null when the last round succeeded (for health and logs). */
  get error(): string | null {
    return this.lastError;
  }

  /** Publishes everything pending now; resolves when the outbox is drained (or a round failed). */
  wake(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.draining) {
      this.wakeAgain = true;
      return this.draining;
    }
    this.draining = (async () => {
      try {
        do {
          this.wakeAgain = false;
          while (this.running && (await this.publishBatch()) === this.batchSize) {
            // a full batch: there may be more
          }
        } while (this.running && this.wakeAgain);
        this.lastError = null;
      } catch (error) {
        this.lastError = (error as Error).message;
        this.logger.warn({
          msg: 'outbox relay round failed; retried on the next sweep',
          schema: this.schema,
          error: this.lastError,
        });
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  /** One transaction: claim up to batchSize rows in order, produce them, mark them published. */
  private async publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const [{ locked }] = (await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [
        outboxChannelOf(this.schema),
      ])) as Array<{ locked: boolean }>;
      if (!locked) return 0; // another instance is publishing this outbox right now
      const rows = (await manager.query(
        `SELECT "id", "event_id", "topic", "message_key", "envelope", "headers"
           FROM "${this.schema}"."outbox"
          WHERE "published_at" IS NULL
          ORDER BY "id"
          FOR UPDATE SKIP LOCKED
          LIMIT $1`,
        [this.batchSize],
      )) as OutboxRow[];
      if (rows.length === 0) return 0;
      await this.produce(rows);
      await this.options.afterProduceHook?.(rows.map((r) => r.event_id));
      await manager.query(
        `UPDATE "${this.schema}"."outbox" SET "published_at" = now() WHERE "id" = ANY($1::bigint[])`,
        [rows.map((r) => r.id)],
      );
      return rows.length;
    });
  }

  private async produce(rows: OutboxRow[]): Promise<void> {
    if (!this.producer) throw new Error('OutboxRelay is not started');
    const byTopic = new Map<string, Message[]>();
    for (const row of rows) {
      const envelope = row.envelope as { type?: string };
      const messages = byTopic.get(row.topic) ?? [];
      messages.push({
        key: row.message_key,
        value: JSON.stringify(row.envelope),
        headers: {
          ...row.headers,
          [EnvelopeHeaders.eventId]: row.event_id,
          [EnvelopeHeaders.messageType]: envelope.type ?? '',
        },
      });
      byTopic.set(row.topic, messages);
    }
    // Rows keep their id order inside each topic; acks from all in-sync replicas before marking.
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic.entries()].map(([topic, messages]) => ({ topic, messages })),
    });
    for (const row of rows) messagingMetrics.produced(row.topic, (row.envelope as { type?: string }).type);
  }
}
