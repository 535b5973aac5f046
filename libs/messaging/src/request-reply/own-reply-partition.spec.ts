import { ownReplyPartitionIndex } from './own-reply-partition';

describe('ownReplyPartitionIndex', () => {
  it('is stable for an instance id and within the partitions', () => {
    expect(ownReplyPartitionIndex('gateway-1', 8)).toBe(ownReplyPartitionIndex('gateway-1', 8));
    for (let i = 0; i < 50; i++) {
      const index = ownReplyPartitionIndex(`gateway-${i}`, 8);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(8);
    }
  });

  it('spreads instances over the partitions', () => {
    const used = new Set(
      Array.from({ length: 64 }, (_, i) => ownReplyPartitionIndex(`host-${i}-${i * 7919}`, 8)),
    );
    expect(used.size).toBeGreaterThanOrEqual(6);
  });
});
