import { maxCostOf, raisedBy, replacementFees } from './fee-bump';

const gwei = (n: number) => BigInt(Math.round(n * 1e9));

describe('raisedBy', () => {
  it('raises by the percentage, rounding up, and by at least 1 wei', () => {
    expect(raisedBy(gwei(2), 25)).toBe(gwei(2.5));
    expect(raisedBy(101n, 10)).toBe(112n); // 111.1 rounds up: a node comparing against +10% must not see 111
    expect(raisedBy(0n, 25)).toBe(1n);
    expect(raisedBy(1n, 10)).toBe(2n);
  });
});

describe('replacementFees', () => {
  it('bumps both fees of the stuck attempt when the node suggests less', () => {
    const fees = replacementFees(
      { maxFeePerGas: gwei(40), maxPriorityFeePerGas: gwei(2) },
      { maxFeePerGas: gwei(30), maxPriorityFeePerGas: gwei(1) },
      25,
    );
    expect(fees).toEqual({ maxFeePerGas: gwei(50), maxPriorityFeePerGas: gwei(2.5) });
  });

  it('follows the node when its suggestion is above the bump (the base fee rose)', () => {
    const fees = replacementFees(
      { maxFeePerGas: gwei(40), maxPriorityFeePerGas: gwei(2) },
      { maxFeePerGas: gwei(90), maxPriorityFeePerGas: gwei(3) },
      25,
    );
    expect(fees).toEqual({ maxFeePerGas: gwei(90), maxPriorityFeePerGas: gwei(3) });
  });

  it('keeps the fee cap at or above the tip', () => {
    const fees = replacementFees(
      { maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(1) },
      { maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(5) },
      10,
    );
    expect(fees.maxFeePerGas).toBeGreaterThanOrEqual(fees.maxPriorityFeePerGas);
    expect(fees).toEqual({ maxFeePerGas: gwei(5), maxPriorityFeePerGas: gwei(5) });
  });

  it('always raises both fees by at least the percentage a node requires', () => {
    for (const [max, tip] of [
      [1n, 0n],
      [7n, 3n],
      [gwei(13.3), gwei(0.7)],
    ] as const) {
      const fees = replacementFees(
        { maxFeePerGas: max, maxPriorityFeePerGas: tip },
        { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n },
        10,
      );
      expect(fees.maxFeePerGas * 100n).toBeGreaterThanOrEqual(max * 110n);
      expect(fees.maxPriorityFeePerGas * 100n).toBeGreaterThanOrEqual(tip * 110n);
      expect(fees.maxFeePerGas).toBeGreaterThan(max);
    }
  });
});

describe('maxCostOf', () => {
  it('is every unit of gas at the cap plus the value', () => {
    expect(maxCostOf(21_000n, gwei(10), 5n)).toBe(21_000n * gwei(10) + 5n);
  });
});
