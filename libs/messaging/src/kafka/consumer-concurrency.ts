/**
 * How much a consumer of the suite works on at once. Messages with the same Kafka key are always
 * handled one after the other, in offset order; these caps bound everything else.
 */
export interface ConsumerConcurrency {
  /** Partitions whose batches are worked on at the same time (kafkajs partitionsConsumedConcurrently). */
  partitions: number;
  /** Messages of one partition handled at once (different keys only). */
  perPartition: number;
  /** Messages handled at once by the whole consumer, over all its partitions. */
  perProcess: number;
}

/**
 * 4 partitions x 16 messages fill the 64 process slots: enough to keep a handful of database
 * connections and the responders' producer busy, small enough that a redelivery after a crash or a
 * rebalance stays short. Apps whose handlers are cheap reads raise `partitions` (quote-service).
 */
export const DEFAULT_CONSUMER_CONCURRENCY: ConsumerConcurrency = {
  partitions: 4,
  perPartition: 16,
  perProcess: 64,
};

const ENV_NAMES: Record<keyof ConsumerConcurrency, string> = {
  partitions: 'KAFKA_CONSUMER_PARTITIONS_CONCURRENTLY',
  perPartition: 'KAFKA_CONSUMER_MAX_IN_FLIGHT_PER_PARTITION',
  perProcess: 'KAFKA_CONSUMER_MAX_IN_FLIGHT',
};

/**
 * The caps for one consumer: what the app's code asks for, else the variables (the app's config
 * passes its KAFKA_CONSUMER_* through `requested`; tools and tests may give raw ones), else the
 * defaults. An invalid value fails the start.
 */
export function resolveConsumerConcurrency(
  requested: Partial<ConsumerConcurrency> = {},
  env: Record<string, string | undefined> = {},
): ConsumerConcurrency {
  const resolved = {} as ConsumerConcurrency;
  for (const name of Object.keys(ENV_NAMES) as Array<keyof ConsumerConcurrency>) {
    const fromEnv = env[ENV_NAMES[name]];
    const value = requested[name] ?? (fromEnv ? Number(fromEnv) : DEFAULT_CONSUMER_CONCURRENCY[name]);
    if (!Number.isInteger(value) || value < 1) {
      const source = requested[name] !== undefined ? name : ENV_NAMES[name];
      throw new Error(`${source} must be a positive integer, got ${requested[name] ?? fromEnv}`);
    }
    resolved[name] = value;
  }
  return resolved;
}
