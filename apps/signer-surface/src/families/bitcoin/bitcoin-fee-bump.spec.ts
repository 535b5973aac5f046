import { cpfpChildFee, CpfpFeeInput } from './bitcoin-fee-bump';

// A step's transaction of 141 vB paying 141 sats (1 sat/vB), its fee wallet's change 50,000 sats;
// the child (one P2WPKH input, one P2WPKH output) is 110 vB: the package is 251 vB.
const stuck = (over: Partial<CpfpFeeInput> = {}): CpfpFeeInput => ({
  parentFeeSats: 141n,
  parentVsize: 141,
  childVsize: 110,
  changeSats: 50_000n,
  dustSats: 294n,
  estimate: 10,
  policy: { maxFeeRate: 200, marginPercent: 10 },
  ...over,
});

describe('cpfpChildFee', () => {
  it('aims the package at the estimate plus the margin: the child pays ceil(rate × package vsize) − the parent fee', () => {
    // 10 sat/vB + 10% = 11; ceil(11 × 251) = 2,761; less the parent's 141.
    expect(cpfpChildFee(stuck())).toEqual({
      kind: 'bump',
      childFeeSats: 2_620n,
      packageRate: 11,
      ceilingFeeSats: 200n * 251n - 141n,
    });
    // A fractional estimate rounds the package fee up.
    expect(
      cpfpChildFee(stuck({ estimate: 2.5, policy: { maxFeeRate: 200, marginPercent: 0 } })),
    ).toMatchObject({
      childFeeSats: BigInt(Math.ceil(2.5 * 251)) - 141n,
    });
  });

  it('is not needed when the transaction (or the package with its child) already pays the estimate', () => {
    expect(cpfpChildFee(stuck({ parentFeeSats: 1_410n }))).toEqual({ kind: 'not-needed', packageRate: 10 });
    expect(cpfpChildFee(stuck({ currentChildFeeSats: 2_620n }))).toEqual({
      kind: 'not-needed',
      packageRate: 11,
    });
  });

  it('replaces its child by one paying the new aim, and at least the old fee plus 1 sat/vB of the child (BIP125)', () => {
    // The estimate doubled: aimed at 22 sat/vB.
    expect(cpfpChildFee(stuck({ estimate: 20, currentChildFeeSats: 2_620n }))).toMatchObject({
      kind: 'bump',
      childFeeSats: 22n * 251n - 141n,
    });
    // The estimate barely moved: the incremental relay fee decides (2,620 + 110).
    expect(
      cpfpChildFee(
        stuck({
          estimate: 11.05,
          currentChildFeeSats: 2_620n,
          policy: { maxFeeRate: 200, marginPercent: 0 },
        }),
      ),
    ).toMatchObject({ kind: 'bump', childFeeSats: 2_730n });
  });

  it('caps the package at BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE, then holds', () => {
    const policy = { maxFeeRate: 12, marginPercent: 10 };
    const first = cpfpChildFee(stuck({ estimate: 20, policy }));
    expect(first).toMatchObject({ kind: 'bump', childFeeSats: 12n * 251n - 141n, packageRate: 12 });
    // At the ceiling: a replacement would have to pay 110 sats more than that.
    expect(
      cpfpChildFee(stuck({ estimate: 20, policy, currentChildFeeSats: 12n * 251n - 141n })),
    ).toMatchObject({ kind: 'held', reason: expect.stringMatching(/ceiling.*12 sat\/vB/) });
  });

  it('holds when the change cannot pay the fee and keep its output above dust', () => {
    expect(cpfpChildFee(stuck({ changeSats: 2_800n }))).toMatchObject({
      kind: 'held',
      reason: expect.stringMatching(/change of 2800 sats cannot pay a child fee of 2620 sats/),
    });
    expect(cpfpChildFee(stuck({ changeSats: 2_620n + 294n }))).toMatchObject({ kind: 'bump' });
  });
});
