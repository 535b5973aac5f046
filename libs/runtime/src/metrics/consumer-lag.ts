/** Committed offset of a consumer group on one partition, as Kafka admin reports it ('-1': none). */
export interface CommittedOffset {
  topic: string;
  partition: number;
  offset: string;
}

/** Offsets of one partition of a topic: low (earliest retained) and high (next to be written). */
export interface PartitionOffsets {
  partition: number;
  low: string;
  high: string;
}

export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

/**
 * Messages the group has yet to consume, per partition: high watermark minus committed offset.
 * A partition without a committed offset counts from its earliest retained message, where a new
 * group of ours starts (fromBeginning). Never negative (offsets fetched a moment apart).
 */
export function consumerLagOf(
  committed: CommittedOffset[],
  topicOffsets: Map<string, PartitionOffsets[]>,
): PartitionLag[] {
  const lags: PartitionLag[] = [];
  for (const [topic, partitions] of topicOffsets) {
    for (const p of partitions) {
      const commit = committed.find((c) => c.topic === topic && c.partition === p.partition);
      const high = BigInt(p.high);
      const from = commit && BigInt(commit.offset) >= 0n ? BigInt(commit.offset) : BigInt(p.low);
      const lag = high > from ? high - from : 0n;
      lags.push({ topic, partition: p.partition, lag: Number(lag) });
    }
  }
  return lags.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
}
