import { DEFAULT_CONSUMER_CONCURRENCY, resolveConsumerConcurrency } from './consumer-concurrency';

describe('resolveConsumerConcurrency', () => {
  it('defaults to 4 partitions at once, 16 messages per partition and 64 per process', () => {
    expect(resolveConsumerConcurrency({}, {})).toEqual({ partitions: 4, perPartition: 16, perProcess: 64 });
    expect(DEFAULT_CONSUMER_CONCURRENCY.partitions * DEFAULT_CONSUMER_CONCURRENCY.perPartition).toBe(
      DEFAULT_CONSUMER_CONCURRENCY.perProcess,
    );
  });

  it('takes the environment over the defaults, and the code over the environment', () => {
    const env = {
      KAFKA_CONSUMER_MAX_IN_FLIGHT: '128',
      KAFKA_CONSUMER_MAX_IN_FLIGHT_PER_PARTITION: '8',
      KAFKA_CONSUMER_PARTITIONS_CONCURRENTLY: '6',
    };
    expect(resolveConsumerConcurrency({}, env)).toEqual({ partitions: 6, perPartition: 8, perProcess: 128 });
    expect(resolveConsumerConcurrency({ partitions: 12 }, env)).toEqual({
      partitions: 12,
      perPartition: 8,
      perProcess: 128,
    });
  });

  it('refuses a cap that is not a positive integer, naming where it came from', () => {
    expect(() => resolveConsumerConcurrency({}, { KAFKA_CONSUMER_MAX_IN_FLIGHT: 'lots' })).toThrow(
      /KAFKA_CONSUMER_MAX_IN_FLIGHT must be a positive integer/,
    );
    expect(() => resolveConsumerConcurrency({ perPartition: 0 }, {})).toThrow(
      /perPartition must be a positive integer/,
    );
  });
});
