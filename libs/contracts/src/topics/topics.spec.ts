import {
  allTopicSpecs,
  deadLetterTopicOf,
  REQUEST_REPLY_TOPICS,
  replyTopicOf,
  STREAM_TOPICS,
  Topics,
} from './topics';

describe('topic declarations', () => {
  const specs = allTopicSpecs();
  const names = specs.map((s) => s.name);

  it('declares each topic once', () => {
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every request topic a reply twin with room for several requesters', () => {
    for (const topic of REQUEST_REPLY_TOPICS) {
      const reply = specs.find((s) => s.name === replyTopicOf(topic));
      expect(reply?.partitions).toBeGreaterThanOrEqual(4);
    }
  });

  it('gives every consumed topic a dead-letter twin', () => {
    for (const topic of [...STREAM_TOPICS, ...REQUEST_REPLY_TOPICS]) {
      expect(names).toContain(deadLetterTopicOf(topic));
    }
  });

  it('declares the heartbeat topic: one partition, short retention, no dead-letter twin (nothing consumes it as a stream)', () => {
    expect(specs.find((s) => s.name === Topics.serviceHeartbeats)).toEqual({
      name: 'service.heartbeats',
      partitions: 1,
      config: { 'retention.ms': '3600000' },
    });
    expect(names).not.toContain(deadLetterTopicOf(Topics.serviceHeartbeats));
  });
});
