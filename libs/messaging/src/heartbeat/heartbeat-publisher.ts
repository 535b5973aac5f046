import { Logger } from '@nestjs/common';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import {
  HEARTBEAT_INTERVAL_BOUNDS,
  heartbeatKeyOf,
  ServiceHeartbeat,
  ServiceHeartbeatTypes,
  Topics,
} from '@swapgw/contracts';
import { createEnvelope } from '../envelope/create-envelope';
import { kafkaClientConfig, KafkaSettings } from '../kafka/kafka-settings';

/** One heartbeat as it goes to Kafka: key `<service>/<instanceId>`, value the JSON envelope. */
export interface HeartbeatRecord {
  key: string;
  value: string;
}

export interface HeartbeatPublisherOptions {
  /** Time between two beats (default HEARTBEAT_INTERVAL_BOUNDS.default, 5 s). */
  intervalMs?: number;
  /** A beat is sent only when this answers true: "alive" means able to do the service's work. */
  isReady?: () => boolean | Promise<boolean>;
  /** Where beats go; defaults to a producer of its own on `service.heartbeats` (tests pass a fake). */
  send?: (record: HeartbeatRecord) => Promise<void>;
}

/**
 * Publishes `service.heartbeat` on `service.heartbeats` every interval while the instance is ready
 * (for the four Kafka services: consumer in its group, database answering), so that whoever watches
 * (the gateway's GET /health) learns over Kafka alone which services are alive. Nothing is sent
 * while the instance is not ready: silence is what a watcher reads as down. Beats are best-effort:
 * one at a time, a failed one is logged once per streak and the next interval is the retry.
 */
export class HeartbeatPublisher {
  private readonly logger = new Logger(HeartbeatPublisher.name);
  readonly intervalMs: number;
  private readonly isReady: () => boolean | Promise<boolean>;
  private readonly sendRecord: (record: HeartbeatRecord) => Promise<void>;
  private producer: Producer | null = null;
  private connecting: Promise<void> | null = null;
  private readonly loop: PeriodicWork;
  private beating: Promise<void> | null = null;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly settings: KafkaSettings,
    readonly service: string,
    /** Stamps the beats' envelopes. */
    private readonly clock: Clock,
    options: HeartbeatPublisherOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_BOUNDS.default;
    this.isReady = options.isReady ?? (() => true);
    this.sendRecord = options.send ?? ((record) => this.produce(record));
    this.loop = new PeriodicWork({ name: 'heartbeat', intervalMs: this.intervalMs, run: () => this.beat() });
  }

  /** Beats now, then an interval after each beat (PeriodicWork: the timer does not keep the process alive). */
  start(): void {
    this.loop.start(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
    await this.beating;
    const producer = this.producer;
    this.producer = null;
    this.connecting = null;
    await producer?.disconnect().catch(() => undefined);
  }

  /** One beat now if the instance is ready (what the interval runs); never more than one in flight, none once stopped. */
  beat(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.beating ??= this.beatOnce().finally(() => (this.beating = null));
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    let ready: boolean;
    try {
      ready = await this.isReady();
    } catch {
      ready = false;
    }
    if (!ready) return;
    const payload: ServiceHeartbeat = {
      service: this.service,
      instanceId: this.settings.instanceId,
      intervalMs: this.intervalMs,
    };
    const key = heartbeatKeyOf(this.service, this.settings.instanceId);
    const envelope = createEnvelope(ServiceHeartbeatTypes.heartbeat, key, payload, this.clock);
    try {
      await this.sendRecord({ key, value: JSON.stringify(envelope) });
      if (this.failing)
        this.logger.log({ msg: 'heartbeats are sent again', topic: Topics.serviceHeartbeats });
      this.failing = false;
    } catch (error) {
      if (!this.failing) {
        this.logger.warn({
          msg: 'heartbeat not sent; watchers will see this instance as down until one is',
          topic: Topics.serviceHeartbeats,
          error: (error as Error).message,
        });
      }
      this.failing = true;
    }
  }

  private async produce(record: HeartbeatRecord): Promise<void> {
    if (!this.producer) {
      // Few retries: the next interval is the retry, and a beat that is late is worth nothing.
      // Not traced (withSuiteProducers): a beat belongs to no request, and a root trace per beat
      // and instance would bury the swaps' traces in the collector.
      const kafka = new Kafka(
        kafkaClientConfig(
          { ...this.settings, clientId: `${this.settings.clientId}-heartbeat-${this.settings.instanceId}` },
          { retry: { initialRetryTime: 200, maxRetryTime: 1000, retries: 2, factor: 0.2, multiplier: 2 } },
        ),
      );
      this.producer = kafka.producer({
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
    }
    const producer = this.producer;
    this.connecting ??= producer.connect().catch((error: Error) => {
      this.connecting = null;
      throw error;
    });
    await this.connecting;
    // One replica is enough: a lost beat is replaced by the next one.
    await producer.send({ topic: Topics.serviceHeartbeats, acks: 1, messages: [record] });
  }
}
