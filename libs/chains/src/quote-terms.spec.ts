import { CodedError } from '@swapgw/contracts';
import {
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
