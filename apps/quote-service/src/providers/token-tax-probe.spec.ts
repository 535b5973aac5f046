import { loadEvmArtifacts } from '@swapgw/evm-contracts';
import { AbiCoder } from 'ethers';
import { TOKEN_TAX_PROBE_RUNTIME_CODE } from './token-tax-probe-code';
import { afterTax, decodeProbeOutcome, ProbeOutcome, taxBpsOf, taxesOfOutcome } from './token-tax-probe';

const outcome = (overrides: Partial<ProbeOutcome> = {}): ProbeOutcome => ({
  bought: true,
  buyExpected: 1_000_000n,
  buyReceived: 970_000n,
  transferred: true,
  sold: true,
  sellSent: 873_000n,
  sellArrived: 829_350n,
  ...overrides,
});

describe('token tax arithmetic', () => {
  it('taxBpsOf is the share that did not arrive, rounded to the nearest bps', () => {
    expect(taxBpsOf(1_000_000n, 970_000n)).toBe(300);
    expect(taxBpsOf(1_000_000n, 1_000_000n)).toBe(0);
    // 299 of 10,000 taken at 3% rounds down to 8; 8/299 = 267.6 bps → 268.
    expect(taxBpsOf(299n, 291n)).toBe(268);
    expect(taxBpsOf(0n, 0n)).toBe(0);
    // More arriving than expected (a rebasing token) is no tax.
    expect(taxBpsOf(100n, 101n)).toBe(0);
  });

  it('afterTax takes the tax rounded down, as the token does', () => {
    expect(afterTax(1_000n, 300)).toBe(970n);
    expect(afterTax(999n, 500)).toBe(950n); // the tax is 49.95 → 49
    expect(afterTax(1_000n, 0)).toBe(1_000n);
  });
});

describe('reading the probe', () => {
  it('gives both taxes of a taxed token that moves freely', () => {
    expect(taxesOfOutcome(outcome())).toEqual({ buyTaxBps: 300, sellTaxBps: 500, transferRestricted: false });
  });

  it('reads a failed buy, transfer or sell as restricted', () => {
    expect(taxesOfOutcome(outcome({ bought: false, buyReceived: 0n, sellSent: 0n }))).toEqual({
      buyTaxBps: 0,
      sellTaxBps: 0,
      transferRestricted: true,
    });
    expect(taxesOfOutcome(outcome({ transferred: false })).transferRestricted).toBe(true);
    expect(taxesOfOutcome(outcome({ sold: false }))).toMatchObject({
      sellTaxBps: 500,
      transferRestricted: true,
    });
  });

  it("decodes the contract's returned tuple", () => {
    const data = AbiCoder.defaultAbiCoder().encode(
      ['(bool,uint256,uint256,bool,bool,uint256,uint256)'],
      [[true, 1_000n, 970n, false, true, 900n, 855n]],
    );
    expect(decodeProbeOutcome(data)).toEqual({
      bought: true,
      buyExpected: 1_000n,
      buyReceived: 970n,
      transferred: false,
      sold: true,
      sellSent: 900n,
      sellArrived: 855n,
    });
  });

  it('runs the code TokenTaxProbe.sol compiles to (refresh token-tax-probe-code.ts when the .sol changes)', () => {
    expect(TOKEN_TAX_PROBE_RUNTIME_CODE).toBe(loadEvmArtifacts().TokenTaxProbe.deployedBytecode);
  });
});
