import { feeCeilingOf, maxCostOf, nextAttemptUnderCeiling, raisedBy, replacementFees } from './fee-bump';

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

describe('feeCeilingOf', () => {
  it('is the percentage of the first fee cap, under the chain cap and what the budget allows one transaction', () => {
    const limits = { gasLimit: 100_000n, value: 0n };
    expect(feeCeilingOf(gwei(10), { percentOfFirst: 300 }, limits)).toBe(gwei(30));
    expect(feeCeilingOf(gwei(10), { percentOfFirst: 300, chainMaxFeePerGas: gwei(20) }, limits)).toBe(
      gwei(20),
    );
    // 0.0025 ETH for the day, 0.0005 of it moved as value: 0.002 ETH / 100,000 gas = 20 gwei.
    expect(
      feeCeilingOf(
        gwei(10),
        { percentOfFirst: 300 },
        { gasLimit: 100_000n, value: 5n * 10n ** 14n, maxCostWei: 25n * 10n ** 14n },
      ),
    ).toBe(gwei(20));
    // Never under the fee it was admitted at.
    expect(feeCeilingOf(gwei(10), { percentOfFirst: 300, chainMaxFeePerGas: gwei(5) }, limits)).toBe(
      gwei(10),
    );
  });
});

describe('nextAttemptUnderCeiling', () => {
  const suggested = { maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(0.1) };
  const at = (maxFee: number, tip: number, cancel = false) => ({
    maxFeePerGas: gwei(maxFee),
    maxPriorityFeePerGas: gwei(tip),
    cancel,
  });

  it('raises the call while the raise fits under its share of the ceiling (ceiling × 100 / (100 + bump))', () => {
    expect(nextAttemptUnderCeiling(at(10, 1), suggested, 25, gwei(30))).toEqual({
      kind: 'replace',
      fees: { maxFeePerGas: gwei(12.5), maxPriorityFeePerGas: gwei(1.25) },
    });
    // The node suggests far more (a base fee spike): capped at the share, 24 gwei of 30.
    expect(
      nextAttemptUnderCeiling(
        at(10, 1),
        { maxFeePerGas: gwei(500), maxPriorityFeePerGas: gwei(2) },
        25,
        gwei(30),
      ),
    ).toEqual({ kind: 'replace', fees: { maxFeePerGas: gwei(24), maxPriorityFeePerGas: gwei(2) } });
  });

  it('cancels at the ceiling once the call cannot be raised by the node price bump under its share', () => {
    expect(nextAttemptUnderCeiling(at(24, 2), suggested, 25, gwei(30))).toEqual({
      kind: 'cancel',
      fees: { maxFeePerGas: gwei(30), maxPriorityFeePerGas: gwei(2.5) },
    });
  });

  it('holds once the cancel is out, or when even a cancel cannot outbid the current attempt', () => {
    expect(nextAttemptUnderCeiling(at(30, 2.5, true), suggested, 25, gwei(30))).toEqual({ kind: 'hold' });
    expect(nextAttemptUnderCeiling(at(29, 2), suggested, 25, gwei(30))).toEqual({ kind: 'hold' });
  });

  it('never bids above the ceiling, whatever the suggestion, over a run of stuck checks', () => {
    let current = at(10, 1);
    const ceiling = gwei(30);
    for (let i = 0; i < 20; i++) {
      const next = nextAttemptUnderCeiling(
        current,
        { maxFeePerGas: gwei(1_000), maxPriorityFeePerGas: gwei(50) },
        25,
        ceiling,
      );
      if (next.kind === 'hold') break;
      expect(next.fees.maxFeePerGas).toBeLessThanOrEqual(ceiling);
      expect(next.fees.maxPriorityFeePerGas).toBeLessThanOrEqual(next.fees.maxFeePerGas);
      current = { ...next.fees, cancel: next.kind === 'cancel' };
    }
    expect(current.cancel).toBe(true);
  });
});
