import { Logger } from '@nestjs/common';
import { Admin, Kafka } from 'kafkajs';
import { consumerLagOf, messagingMetrics, PartitionOffsets } from '@swapgw/runtime';
import { kafkaClientConfig, KafkaSettings } from '../kafka/kafka-settings';

export const DEFAULT_CONSUMER_LAG_INTERVAL_MS = 15_000;

/**
 * Samples the lag of an app's consumer groups (its main group and its lanes' groups) into
 * `swapgw_kafka_consumer_lag_messages`: each group's committed offsets (one OffsetFetch) against
 * the high watermarks of the topics it has offsets for (one ListOffsets per topic), every
 * `intervalMs`. Bounded by the groups' own topics, on one admin connection, and never more than
 * one sample in flight. A failed sample is logged at debug and leaves the last values: lag is a
 * dashboard number, not something to crash or spam about.
 */
export class ConsumerLagSampler {
  private readonly logger = new Logger(ConsumerLagSampler.name);
  private admin: Admin | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sampling: Promise<void> | null = null;

  constructor(
    private readonly settings: KafkaSettings,
    readonly groupIds: readonly string[],
    private readonly intervalMs = DEFAULT_CONSUMER_LAG_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
    void this.sample();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sampling;
    const admin = this.admin;
    this.admin = null;
    await admin?.disconnect().catch(() => undefined);
  }

  /** One sample now (also what the interval runs); resolves when it is recorded or has failed. */
  sample(): Promise<void> {
    if (!this.sampling) {
      this.sampling = this.sampleOnce()
        .catch((error: Error) =>
          this.logger.debug({
            msg: 'consumer lag sample failed',
            groupIds: this.groupIds,
            error: error.message,
          }),
        )
        .finally(() => (this.sampling = null));
    }
    return this.sampling;
  }

  private async sampleOnce(): Promise<void> {
    const admin = await this.connectedAdmin();
    for (const groupId of this.groupIds) {
      const committed = await admin.fetchOffsets({ groupId });
      const topicOffsets = new Map<string, PartitionOffsets[]>();
      for (const { topic } of committed) {
        const offsets = await admin.fetchTopicOffsets(topic);
        topicOffsets.set(
          topic,
          offsets.map((o) => ({ partition: o.partition, low: o.low, high: o.high })),
        );
      }
      const flat = committed.flatMap(({ topic, partitions }) =>
        partitions.map((p) => ({ topic, partition: p.partition, offset: p.offset })),
      );
      messagingMetrics.consumerLag(groupId, consumerLagOf(flat, topicOffsets));
    }
  }

  private async connectedAdmin(): Promise<Admin> {
    if (this.admin) return this.admin;
    // Few retries: the next interval is the retry.
    const kafka = new Kafka(
      kafkaClientConfig(
        { ...this.settings, clientId: `${this.settings.clientId}-lag-sampler` },
        { retry: { retries: 1 } },
      ),
    );
    const admin = kafka.admin();
    await admin.connect();
    this.admin = admin;
    return admin;
  }
}
