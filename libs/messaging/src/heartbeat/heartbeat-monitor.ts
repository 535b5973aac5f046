import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Consumer, Kafka } from 'kafkajs';
import { ServiceHeartbeat, ServiceHeartbeatTypes, Topics } from '@swapgw/contracts';
import type { Clock } from '@swapgw/runtime';
import { parseEnvelope, parsePayload } from '../envelope/message-validation';
import { CONSUMER_TIMINGS, kafkaClientConfig, KafkaSettings } from '../kafka/kafka-settings';
import { ServiceLiveness, ServiceLivenessTable } from './service-liveness';

export interface HeartbeatMonitorOptions {
  /** The services to report (their heartbeats' `service`); beats of others are ignored. */
  services: readonly string[];
  /** A service is down when none of its instances was heard from for this long. */
  timeoutMs: number;
  /** When a beat was heard, and whether a service or the monitor's own consumer went silent. */
  clock: Clock;
}

/** kafkajs fetches at least every maxWaitTimeInMs (CONSUMER_TIMINGS: 1 s) while its connections live. */
const STALL_AFTER_MS = 20_000;
const WATCHDOG_EVERY_MS = 5_000;

/**
 * Listens to `service.heartbeats` and keeps a ServiceLivenessTable. Every watcher instance must see
 * every beat, so each one reads with a consumer group of its own
 * (`<clientId>.heartbeats.<instanceId>-<random>`, from the end of the topic, no offsets committed:
 * the broker forgets an empty group without offsets). It runs in the background: start() never
 * waits for Kafka. When kafkajs gives up on the consumer, or the consumer stops fetching (dead
 * connections), a new one is started with back-off (1 s doubling to 30 s).
 */
export class HeartbeatMonitor {
  private readonly logger = new Logger(HeartbeatMonitor.name);
  private readonly table: ServiceLivenessTable;
  private readonly clock: Clock;
  private consumer: Consumer | null = null;
  private joined = false;
  private lastFetchMs = 0;
  private stopped = true;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private replacing: Promise<void> | null = null;

  constructor(
    private readonly settings: KafkaSettings,
    options: HeartbeatMonitorOptions,
  ) {
    this.table = new ServiceLivenessTable(options.services, options.timeoutMs);
    this.clock = options.clock;
  }

  get timeoutMs(): number {
    return this.table.timeoutMs;
  }

  /** Each watched service: up, down or unknown (see ServiceLiveness). */
  statuses(): Record<string, ServiceLiveness> {
    return this.table.statuses(this.clock.nowMs());
  }

  /** Whether its consumer is in its group now. */
  listening(): boolean {
    return this.joined;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.watchdog = setInterval(() => this.checkStalled(), WATCHDOG_EVERY_MS);
    this.watchdog.unref();
    void this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.watchdog) clearInterval(this.watchdog);
    this.retryTimer = null;
    this.watchdog = null;
    await this.replacing;
    await this.disconnect();
  }

  /** A heartbeat as it came off the topic; anything that is not one is ignored. */
  receive(value: Buffer | string | null): void {
    if (!value) return;
    let message: unknown;
    try {
      message = JSON.parse(value.toString());
    } catch {
      return;
    }
    const envelope = parseEnvelope(message);
    if (!envelope.ok || envelope.envelope.type !== ServiceHeartbeatTypes.heartbeat) return;
    const beat = parsePayload(envelope.envelope, ServiceHeartbeat);
    if (!beat.ok) {
      this.logger.debug({ msg: 'invalid heartbeat ignored', reason: beat.reason });
      return;
    }
    this.table.heard(beat.envelope.payload.service, this.clock.nowMs(), beat.envelope.occurredAtMs);
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    const kafka = new Kafka(
      kafkaClientConfig({
        ...this.settings,
        clientId: `${this.settings.clientId}-heartbeats-${this.settings.instanceId}`,
      }),
    );
    const groupId = `${this.settings.clientId}.heartbeats.${this.settings.instanceId}-${randomBytes(3).toString('hex')}`;
    const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, ...CONSUMER_TIMINGS });
    this.consumer = consumer;
    this.lastFetchMs = this.clock.nowMs();
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.joined = true;
      this.attempt = 0;
      this.table.listening(this.clock.nowMs());
    });
    const fetched = () => (this.lastFetchMs = this.clock.nowMs());
    consumer.on(consumer.events.FETCH_START, fetched);
    consumer.on(consumer.events.FETCH, fetched);
    const left = () => (this.joined = false);
    consumer.on(consumer.events.REBALANCING, left);
    consumer.on(consumer.events.STOP, left);
    consumer.on(consumer.events.DISCONNECT, left);
    consumer.on(consumer.events.CRASH, (event) => {
      left();
      if (!event.payload.restart) this.replace(consumer, `kafkajs gave up: ${event.payload.error.message}`);
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic: Topics.serviceHeartbeats, fromBeginning: false });
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ message }) => this.receive(message.value),
      });
    } catch (error) {
      this.replace(consumer, (error as Error).message);
    }
  }

  /** No fetch for a while although it should be in its group: its connections are dead. */
  private checkStalled(): void {
    if (this.stopped || !this.consumer || this.replacing || this.retryTimer) return;
    if (this.clock.nowMs() - this.lastFetchMs > STALL_AFTER_MS)
      this.replace(this.consumer, `no fetch for ${STALL_AFTER_MS} ms`);
  }

  /** Drops `consumer` (if still the current one) and starts a new one after the back-off. */
  private replace(consumer: Consumer, reason: string): void {
    if (this.stopped || this.consumer !== consumer || this.replacing) return;
    this.attempt += 1;
    const delayMs = Math.min(30_000, 1000 * 2 ** Math.min(this.attempt - 1, 5));
    this.logger.warn({ msg: 'heartbeat consumer restarting', reason, attempt: this.attempt, delayMs });
    this.replacing = this.disconnect().finally(() => {
      this.replacing = null;
      if (this.stopped) return;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        void this.run();
      }, delayMs);
      this.retryTimer.unref();
    });
  }

  private async disconnect(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    this.joined = false;
    await consumer?.disconnect().catch(() => undefined);
  }
}
