import { FeeData, type Provider } from 'ethers';
import { ManualClock } from '@swapgw/runtime';
import { FEE_DATA_MAX_AGE_MS, recentFeeData } from './recent-fee-data';

/** A provider whose fee suggestions are numbered by how often it was asked. */
function countingProvider(fail = false): { provider: Provider; reads: () => number } {
  let reads = 0;
  const provider = {
    getFeeData: async () => {
      reads += 1;
      if (fail) throw new Error('node away');
      return new FeeData(null, BigInt(reads) * 100n, BigInt(reads));
    },
  } as unknown as Provider;
  return { provider, reads: () => reads };
}

describe('recentFeeData', () => {
  it('answers every payload of the same second from one read, concurrent ones included', async () => {
    const { provider, reads } = countingProvider();
    const answers = await Promise.all([
      recentFeeData(provider, 1_000),
      recentFeeData(provider, 1_200),
      recentFeeData(provider, 1_999),
    ]);
    expect(reads()).toBe(1);
    expect(answers.map((f) => f.maxFeePerGas)).toEqual([100n, 100n, 100n]);
  });

  it("reads again once the suggestion is a second old by the caller's clock, whatever the machine's says", async () => {
    const { provider, reads } = countingProvider();
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    await recentFeeData(provider, clock.nowMs());
    clock.atMs += FEE_DATA_MAX_AGE_MS - 1;
    expect((await recentFeeData(provider, clock.nowMs())).maxFeePerGas).toBe(100n);
    clock.atMs += 1;
    const later = await recentFeeData(provider, clock.nowMs());
    expect(reads()).toBe(2);
    expect(later.maxFeePerGas).toBe(200n);
  });

  it('keeps chains apart', async () => {
    const a = countingProvider();
    const b = countingProvider();
    await recentFeeData(a.provider, 1_000);
    await recentFeeData(b.provider, 1_000);
    expect([a.reads(), b.reads()]).toEqual([1, 1]);
  });

  it('does not keep a failed read: the next payload asks the node again', async () => {
    const { provider, reads } = countingProvider(true);
    await expect(recentFeeData(provider, 1_000)).rejects.toThrow('node away');
    await expect(recentFeeData(provider, 1_001)).rejects.toThrow('node away');
    expect(reads()).toBe(2);
  });
});
