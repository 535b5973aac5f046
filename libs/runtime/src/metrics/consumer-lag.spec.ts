import { consumerLagOf } from './consumer-lag';

describe('consumerLagOf', () => {
  const offsets = new Map([
    [
      'swap.commands',
      [
        { partition: 0, low: '0', high: '120' },
        { partition: 1, low: '40', high: '50' },
        { partition: 2, low: '0', high: '0' },
      ],
    ],
  ]);

  it('is the high watermark minus the committed offset per partition', () => {
    const lags = consumerLagOf(
      [
        { topic: 'swap.commands', partition: 0, offset: '100' },
        { topic: 'swap.commands', partition: 1, offset: '50' },
        { topic: 'swap.commands', partition: 2, offset: '-1' },
      ],
      offsets,
    );
    expect(lags).toEqual([
      { topic: 'swap.commands', partition: 0, lag: 20 },
      { topic: 'swap.commands', partition: 1, lag: 0 },
      { topic: 'swap.commands', partition: 2, lag: 0 },
    ]);
  });

  it('counts a partition without a commit from its earliest retained message', () => {
    const lags = consumerLagOf([{ topic: 'swap.commands', partition: 1, offset: '-1' }], offsets);
    expect(lags.find((l) => l.partition === 1)?.lag).toBe(10);
    expect(lags.find((l) => l.partition === 0)?.lag).toBe(120);
  });

  it('never reports a negative lag when the commit is ahead of a stale high watermark', () => {
    const lags = consumerLagOf([{ topic: 'swap.commands', partition: 0, offset: '125' }], offsets);
    expect(lags.find((l) => l.partition === 0)?.lag).toBe(0);
  });
});
