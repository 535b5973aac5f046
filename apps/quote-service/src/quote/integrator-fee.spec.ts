import type { ChainDescriptor } from '@swapgw/chains';
import { CodedError } from '@swapgw/contracts';
import {
  integratorFeeOf,
  planIntegratorFeesOf,
  reportedFeeMatches,
  requestedIntegratorFee,
  routeFeeOf,
  routeIntegratorFeeOf,
} from './integrator-fee';

const evm = { id: 'devnet-a', family: 'evm', network: 'testnet' } as ChainDescriptor;
const solana = { id: 'solana-devnet', family: 'solana', network: 'testnet' } as ChainDescriptor;
const bitcoin = {
  id: 'bitcoin-devnet',
  family: 'bitcoin',
  network: 'testnet',
  bitcoinNetwork: 'regtest',
} as ChainDescriptor;
const BTC_REGTEST = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
const BTC_MAINNET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const EVM_A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const EVM_B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SOLANA = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const usdc = { chain: 'devnet-a', symbol: 'USDC', address: EVM_B, decimals: 6 };

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as CodedError).code;
  }
  throw new Error('expected a CodedError');
}

describe('integrator fee', () => {
  it('takes each share from the input, rounded down, and quotes what is left', () => {
    const fee = integratorFeeOf(
      [
        { bps: 50, recipient: EVM_A },
        { bps: 25, recipient: EVM_B },
      ],
      25_000_001n,
      evm,
    );
    expect(fee.charges).toEqual([
      { recipient: EVM_A, bps: 50, amount: 125_000n },
      { recipient: EVM_B, bps: 25, amount: 62_500n },
    ]);
    expect(fee.netAmountIn).toBe(25_000_001n - 187_500n);
    expect(routeIntegratorFeeOf(fee, usdc)).toEqual([
      { bps: 50, amount: '0.125', token: 'USDC', chain: 'devnet-a', recipient: EVM_A },
      { bps: 25, amount: '0.0625', token: 'USDC', chain: 'devnet-a', recipient: EVM_B },
    ]);
    expect(planIntegratorFeesOf(fee, usdc)).toEqual([
      { token: usdc, recipient: EVM_A, bps: 50, amount: '125000' },
      { token: usdc, recipient: EVM_B, bps: 25, amount: '62500' },
    ]);
  });

  it('charges nothing without shares or with 0 bps', () => {
    expect(integratorFeeOf(undefined, 1000n, evm)).toEqual({ charges: [], netAmountIn: 1000n });
    expect(integratorFeeOf([{ bps: 0, recipient: 'anything' }], 1000n, evm)).toEqual({
      charges: [],
      netAmountIn: 1000n,
    });
  });

  it('refuses shares over 300 bps together (VALIDATION_FAILED)', () => {
    const shares = [
      { bps: 200, recipient: EVM_A },
      { bps: 101, recipient: EVM_B },
    ];
    expect(codeOf(() => integratorFeeOf(shares, 1000n, evm))).toBe('VALIDATION_FAILED');
    expect(integratorFeeOf([{ bps: 300, recipient: EVM_A }], 1000n, evm).netAmountIn).toBe(970n);
  });

  it('refuses a recipient that is not an address of the source chain (INVALID_ADDRESS)', () => {
    expect(codeOf(() => integratorFeeOf([{ bps: 10, recipient: SOLANA }], 1000n, evm))).toBe(
      'INVALID_ADDRESS',
    );
    expect(codeOf(() => integratorFeeOf([{ bps: 10, recipient: EVM_A }], 1000n, solana))).toBe(
      'INVALID_ADDRESS',
    );
    expect(integratorFeeOf([{ bps: 10, recipient: SOLANA }], 1000n, solana).charges).toHaveLength(1);
  });

  it("takes a fee paid from Bitcoin to an address of the chain's network, of at least 546 sat", () => {
    const fee = integratorFeeOf(
      [
        { bps: 30, recipient: BTC_REGTEST },
        { bps: 20, recipient: BTC_REGTEST },
      ],
      1_000_000n,
      bitcoin,
    );
    expect(fee.charges.map((charge) => charge.amount)).toEqual([3_000n, 2_000n]);
    expect(fee.netAmountIn).toBe(995_000n);
    expect(codeOf(() => integratorFeeOf([{ bps: 10, recipient: EVM_A }], 1_000_000n, bitcoin))).toBe(
      'INVALID_ADDRESS',
    );
    expect(codeOf(() => integratorFeeOf([{ bps: 10, recipient: BTC_MAINNET }], 1_000_000n, bitcoin))).toBe(
      'INVALID_ADDRESS',
    );
    expect(integratorFeeOf([{ bps: 10, recipient: BTC_REGTEST }], 546_000n, bitcoin).charges[0].amount).toBe(
      546n,
    );
    expect(() => integratorFeeOf([{ bps: 10, recipient: BTC_REGTEST }], 545_999n, bitcoin)).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/545 sat, below the 546 sat/),
      }),
    );
  });

  it('takes a THORName or thor1 recipient as a THORChain affiliate (paid by THORChain, so no Bitcoin dust floor); anything else stays INVALID_ADDRESS', () => {
    const thor = 'thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq';
    const fee = integratorFeeOf(
      [
        { bps: 30, recipient: 'wallet' },
        { bps: 1, recipient: thor },
      ],
      100_000n,
      bitcoin,
    );
    expect(fee.charges).toEqual([
      { recipient: 'wallet', bps: 30, amount: 300n, thorchainAffiliate: true },
      { recipient: thor, bps: 1, amount: 10n, thorchainAffiliate: true },
    ]);
    expect(fee.netAmountIn).toBe(99_690n);
    expect(integratorFeeOf([{ bps: 30, recipient: 'wallet' }], 1_000_000n, evm).charges[0]).toMatchObject({
      thorchainAffiliate: true,
    });
    expect(
      integratorFeeOf([{ bps: 30, recipient: EVM_A }], 1_000_000n, evm).charges[0].thorchainAffiliate,
    ).toBeUndefined();
    expect(codeOf(() => integratorFeeOf([{ bps: 10, recipient: '0x1234' }], 1_000_000n, evm))).toBe(
      'INVALID_ADDRESS',
    );
  });

  it("uses the request's own fee, even empty, else the key default's recipients of the source chain", () => {
    const keyDefault = [
      { bps: 40, recipient: EVM_A },
      { bps: 30, recipient: SOLANA },
    ];
    const own = [{ bps: 5, recipient: EVM_B }];
    expect(requestedIntegratorFee(own, keyDefault, evm, 100_000_000n)).toBe(own);
    expect(requestedIntegratorFee([], keyDefault, evm, 100_000_000n)).toEqual([]);
    expect(requestedIntegratorFee(undefined, keyDefault, evm, 100_000_000n)).toEqual([keyDefault[0]]);
    expect(requestedIntegratorFee(undefined, keyDefault, solana, 100_000_000n)).toEqual([keyDefault[1]]);
    expect(requestedIntegratorFee(undefined, keyDefault, bitcoin, 100_000_000n)).toEqual([]);
    expect(
      requestedIntegratorFee(
        undefined,
        [...keyDefault, { bps: 20, recipient: BTC_REGTEST }],
        bitcoin,
        100_000_000n,
      ),
    ).toEqual([{ bps: 20, recipient: BTC_REGTEST }]);
    expect(requestedIntegratorFee(undefined, undefined, evm, 100_000_000n)).toEqual([]);
  });

  it("leaves out of a quote from Bitcoin a default share worth less than a relayable output, where the request's own is kept (and refused)", () => {
    const keyDefault = [{ bps: 20, recipient: BTC_REGTEST }];
    // 20 bps of 273,000 sat is 546 sat, the least an output carries; of 272,999 sat, 545.
    expect(requestedIntegratorFee(undefined, keyDefault, bitcoin, 273_000n)).toEqual(keyDefault);
    expect(requestedIntegratorFee(undefined, keyDefault, bitcoin, 272_999n)).toEqual([]);
    expect(requestedIntegratorFee(keyDefault, undefined, bitcoin, 272_999n)).toEqual(keyDefault);
    expect(() => integratorFeeOf(keyDefault, 272_999n, bitcoin)).toThrow(/dust/);
  });
});

describe('integrator fee taken by an aggregator', () => {
  const asked = { recipient: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', bps: 50, amount: 5_000_000n };

  it('accepts the amount asked give or take 1 base unit of rounding, nothing else', () => {
    expect(reportedFeeMatches(asked, 5_000_000n)).toBe(true);
    expect(reportedFeeMatches(asked, 4_999_999n)).toBe(true);
    expect(reportedFeeMatches(asked, 5_000_001n)).toBe(true);
    expect(reportedFeeMatches(asked, 4_999_998n)).toBe(false);
    expect(reportedFeeMatches(asked, 0n)).toBe(false);
  });

  it("is the route's fee in place of the quote's when the aggregator reports one", () => {
    const quoteFee = { charges: [asked], netAmountIn: 995_000_000n };
    expect(routeFeeOf(quoteFee, 1_000_000_000n, undefined)).toBe(quoteFee);
    expect(routeFeeOf(quoteFee, 1_000_000_000n, [{ ...asked, amount: 4_999_999n }])).toEqual({
      charges: [{ ...asked, amount: 4_999_999n }],
      netAmountIn: 995_000_001n,
    });
  });
});
