import { allTopicSpecs, deadLetterTopicOf, REQUEST_REPLY_TOPICS, replyTopicOf, STREAM_TOPICS } from './topics';

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
});
