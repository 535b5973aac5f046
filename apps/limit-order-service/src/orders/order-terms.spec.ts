import type { TermsChain } from '@swapgw/chains';
import { CodedError, LimitOrderTerms } from '@swapgw/contracts';
import { CatalogDirectory, TokenInfo } from '../upstream/upstream.ports';
import { checkOrderTerms } from './order-terms';

/** The devnet as quote-service's catalog lists it: two EVM testnets and their tokens. */
class DevnetCatalog extends CatalogDirectory {
  private readonly decimals: Record<string, number> = { WETH: 18, USDC: 6 };
  async chain(id: string): Promise<TermsChain | undefined> {
    return ['devnet-a', 'devnet-b'].includes(id) ? { id, family: 'evm', network: 'testnet' } : undefined;
  }
  async token(chain: string, symbol: string): Promise<TokenInfo | undefined> {
    const decimals = this.decimals[symbol.toUpperCase()];
    return decimals === undefined ? undefined : { chain, symbol: symbol.toUpperCase(), decimals };
  }
}

const terms = (overrides: Partial<LimitOrderTerms> = {}): LimitOrderTerms => ({
  owner: 'alice',
  idempotencyKey: 'k-1',
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: 'WETH',
  tokenOut: 'USDC',
  amount: '1.5',
  minAmountOut: '4500',
  ...overrides,
});

const refusalOf = async (overrides: Partial<LimitOrderTerms>) => {
  try {
    await checkOrderTerms(terms(overrides), new DevnetCatalog());
  } catch (error) {
    if (error instanceof CodedError) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
};

describe('checkOrderTerms', () => {
  it('answers the catalog tokens and both amounts in base units', async () => {
    const checked = await checkOrderTerms(terms({ tokenIn: 'weth' }), new DevnetCatalog());
    expect(checked).toEqual({
      tokenIn: { chain: 'devnet-a', symbol: 'WETH', decimals: 18 },
      tokenOut: { chain: 'devnet-a', symbol: 'USDC', decimals: 6 },
      amountBase: 1_500_000_000_000_000_000n,
      minAmountOutBase: 4_500_000_000n,
    });
  });

  it.each([
    [{ network: 'mainnet' as const }, 'UNKNOWN_CHAIN', 'fromChain devnet-a is a testnet chain, not mainnet'],
    [{ toChain: 'nochain' }, 'UNKNOWN_CHAIN', 'toChain nochain is not in GET /chains'],
    [{ tokenIn: 'NOPE' }, 'UNKNOWN_TOKEN', 'tokenIn NOPE is not a known token on devnet-a'],
    [{ tokenOut: 'WETH' }, 'SAME_TOKEN', 'tokenIn and tokenOut are the same token (WETH) on devnet-a'],
    [
      { tokenIn: 'USDC', tokenOut: 'WETH', amount: '1.1234567' },
      'INVALID_AMOUNT',
      'amount "1.1234567" has 7 decimals; the token has 6',
    ],
    [
      { minAmountOut: '1.0000001' },
      'INVALID_AMOUNT',
      'minAmountOut "1.0000001" has 7 decimals; the token has 6',
    ],
  ])('refuses %p as POST /quote does: %s', async (overrides, code, message) => {
    expect(await refusalOf(overrides)).toEqual({ code, message });
  });

  it('refuses a recipient of another chain family', async () => {
    expect((await refusalOf({ recipient: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' }))?.code).toBe(
      'INVALID_ADDRESS',
    );
  });
});
