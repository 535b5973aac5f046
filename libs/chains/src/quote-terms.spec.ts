import { CodedError } from '@swapgw/contracts';
import {
  amountLooksLikeBaseUnits,
  baseUnitsToAmount,
  checkTermsChain,
  checkTermsRecipient,
  sameTokenError,
  termsAmountToBaseUnits,
  unknownTokenError,
} from './quote-terms';

const refusal = (
  run: () => unknown,
): { code: string; message: string; details?: Record<string, unknown> } => {
  try {
    run();
  } catch (error) {
    if (error instanceof CodedError)
      return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('checkTermsChain', () => {
  const devnetA = { id: 'devnet-a', family: 'evm', network: 'testnet' } as const;

  it('answers the chain when it is listed and of the requested network (or none was asked)', () => {
    expect(checkTermsChain(devnetA, 'devnet-a', 'fromChain', 'testnet')).toBe(devnetA);
    expect(checkTermsChain(devnetA, 'devnet-a', 'toChain', undefined)).toBe(devnetA);
  });

  it('refuses a chain not in GET /chains', () => {
    expect(refusal(() => checkTermsChain(undefined, 'nochain', 'toChain', undefined))).toEqual({
      code: 'UNKNOWN_CHAIN',
      message: 'toChain nochain is not in GET /chains',
      details: { field: 'toChain', chain: 'nochain' },
    });
  });

  it('refuses a devnet chain asked for as mainnet', () => {
    expect(refusal(() => checkTermsChain(devnetA, 'devnet-a', 'fromChain', 'mainnet'))).toEqual({
      code: 'UNKNOWN_CHAIN',
      message: 'fromChain devnet-a is a testnet chain, not mainnet',
      details: { field: 'fromChain', chain: 'devnet-a', network: 'mainnet' },
    });
  });
});

describe('token and recipient refusals', () => {
  it('names the field, the symbol and the chain', () => {
    expect(unknownTokenError('tokenOut', 'NOPE', 'devnet-a')).toMatchObject({
      code: 'UNKNOWN_TOKEN',
      message: 'tokenOut NOPE is not a known token on devnet-a',
    });
    expect(sameTokenError('WETH', 'devnet-a')).toMatchObject({
      code: 'SAME_TOKEN',
      message: 'tokenIn and tokenOut are the same token (WETH) on devnet-a',
    });
  });

  it('wants a recipient of the destination chain family', () => {
    expect(() =>
      checkTermsRecipient('0x70997970c51812dc3a010c7d01b50e0d17dc79c8', { id: 'devnet-a', family: 'evm' }),
    ).not.toThrow();
    expect(
      refusal(() =>
        checkTermsRecipient('0x70997970c51812dc3a010c7d01b50e0d17dc79c8', {
          id: 'solana-devnet',
          family: 'solana',
        }),
      ),
    ).toMatchObject({
      code: 'INVALID_ADDRESS',
      details: { field: 'recipient', chain: 'solana-devnet' },
    });
  });
});

describe('termsAmountToBaseUnits', () => {
  it.each([
    ['1.5', 6, 1_500_000n],
    ['0.000001', 6, 1n],
    ['10', 18, 10n * 10n ** 18n],
    ['1.10', 6, 1_100_000n],
    ['10', 0, 10n],
  ])('converts %s with %d decimals', (human, decimals, expected) => {
    expect(termsAmountToBaseUnits(human, decimals)).toBe(expected);
  });

  it.each([['0'], ['0.0'], ['-1'], ['1e6'], ['1.'], ['.5'], ['01'], ['abc']])(
    'refuses %p as INVALID_AMOUNT',
    (human) => {
      expect(refusal(() => termsAmountToBaseUnits(human, 6)).code).toBe('INVALID_AMOUNT');
    },
  );

  it('refuses more fractional digits than the token has, naming the field', () => {
    expect(refusal(() => termsAmountToBaseUnits('1.0000001', 6, 'minAmountOut'))).toEqual({
      code: 'INVALID_AMOUNT',
      message: 'minAmountOut "1.0000001" has 7 decimals; the token has 6',
      details: { field: 'minAmountOut', decimals: 6 },
    });
    expect(refusal(() => termsAmountToBaseUnits('1.0000001', 6)).message).toBe(
      'amount "1.0000001" has 7 decimals; the token has 6',
    );
  });
});

describe('amounts in human units and base units', () => {
  it('round-trips tokens of 6, 9 and 18 decimals exactly, shortest form out', () => {
    const cases: Array<[string, number, bigint, string]> = [
      ['1.5', 6, 1_500_000n, '1.5'],
      ['2.000000', 6, 2_000_000n, '2'],
      ['0.000001', 6, 1n, '0.000001'],
      ['12.345678901', 9, 12_345_678_901n, '12.345678901'],
      ['0.1', 9, 100_000_000n, '0.1'],
      ['0.000000000000000001', 18, 1n, '0.000000000000000001'],
      [
        '123456789.123456789123456789',
        18,
        123_456_789_123_456_789_123_456_789n,
        '123456789.123456789123456789',
      ],
    ];
    for (const [human, decimals, units, shortest] of cases) {
      expect(termsAmountToBaseUnits(human, decimals)).toBe(units);
      expect(baseUnitsToAmount(units, decimals)).toBe(shortest);
      expect(baseUnitsToAmount(units.toString(), decimals)).toBe(shortest);
    }
    expect(baseUnitsToAmount(0n, 18)).toBe('0');
  });

  it('tells an amount that looks like base units: a whole number worth at least one token in base units', () => {
    expect(amountLooksLikeBaseUnits('25000000', 6)).toBe(true); // 25 USDC in base units
    expect(amountLooksLikeBaseUnits('1000000000000000000', 18)).toBe(true);
    expect(amountLooksLikeBaseUnits('5000000000', 9)).toBe(true);
    expect(amountLooksLikeBaseUnits('999999', 6)).toBe(false);
    expect(amountLooksLikeBaseUnits('25000000.5', 6)).toBe(false); // a fraction: human units
    expect(amountLooksLikeBaseUnits('100', 18)).toBe(false);
    expect(amountLooksLikeBaseUnits('100000', 2)).toBe(false); // too few decimals to tell
  });
});
