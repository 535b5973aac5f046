import type { ChainDescriptor } from '@swapgw/chains';
import { NoRouteError } from './no-route.error';
import type { QuoteContext, QuoteToken } from './quote-provider';
import { TaxedTokenGuard } from './taxed-token-guard';
import type { TaxProbeTarget, TokenTaxes, TokenTaxProbe } from './token-tax-probe';
import { UniswapV2Quoter } from './uniswap-v2-quoter';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const WETH = hex(2);
const USDC = hex(1);
const TAX = hex(7);
const token = (symbol: string, address: string | null): QuoteToken => ({
  chain: 'devnet-a',
  symbol,
  address,
  decimals: 18,
});
const chain = { id: 'devnet-a' } as ChainDescriptor;
const context = (tokenIn: QuoteToken, tokenOut: QuoteToken): QuoteContext => ({
  fromChain: chain,
  toChain: chain,
  tokenIn,
  tokenOut,
  amountIn: 10n ** 18n,
});

function guardWith(taxes: Record<string, TokenTaxes | undefined>) {
  const measured: TaxProbeTarget[] = [];
  const probe = {
    vouchedFor: (_chain: string, address: string | null) =>
      address === null || address === USDC || address === WETH,
    measure: async (target: TaxProbeTarget) => {
      measured.push(target);
      return taxes[`${target.token}/${target.base}`];
    },
  } as unknown as TokenTaxProbe;
  const v2 = {
    deployment: () => ({
      chain: 'devnet-a',
      factory: hex(3),
      router: hex(4),
      initCodeHash: '0x',
      weth: WETH,
    }),
    pairAddress: (_d: unknown, x: string, y: string) => `pair:${x}/${y}`,
  } as unknown as UniswapV2Quoter;
  return { guard: new TaxedTokenGuard(v2, probe), measured };
}

describe('TaxedTokenGuard: venues that cannot swap taxed tokens', () => {
  const signal = new AbortController().signal;

  it('refuses a taxed token with TOKEN_NOT_SUPPORTED, measured through its pool with the other token', async () => {
    const { guard, measured } = guardWith({
      [`${TAX}/${USDC}`]: { buyTaxBps: 300, sellTaxBps: 500, transferRestricted: false },
    });
    const refusal = guard.refuseTaxed('uniswap-v3', context(token('USDC', USDC), token('TAX', TAX)), signal);
    await expect(refusal).rejects.toBeInstanceOf(NoRouteError);
    await expect(refusal).rejects.toMatchObject({ reason: 'TOKEN_NOT_SUPPORTED' });
    expect(measured.map((t) => t.pair)).toEqual([`pair:${TAX}/${USDC}`]);
  });

  it('falls back to the WETH pool when the pool with the other token cannot be probed', async () => {
    const { guard, measured } = guardWith({
      [`${TAX}/${WETH}`]: { buyTaxBps: 0, sellTaxBps: 200, transferRestricted: false },
    });
    await expect(
      guard.taxedToken(context(token('TAX', TAX), token('USDC', USDC)), signal),
    ).resolves.toMatchObject({
      symbol: 'TAX',
    });
    expect(measured.map((t) => t.base)).toEqual([USDC, WETH]);
  });

  it('lets untaxed, unmeasurable and vouched-for tokens through without probing the vouched ones', async () => {
    const untaxed = guardWith({
      [`${TAX}/${USDC}`]: { buyTaxBps: 0, sellTaxBps: 0, transferRestricted: false },
    });
    await expect(
      untaxed.guard.refuseTaxed('uniswap-v3', context(token('USDC', USDC), token('TAX', TAX)), signal),
    ).resolves.toBeUndefined();
    const unknown = guardWith({});
    await expect(
      unknown.guard.taxedToken(context(token('TAX', TAX), token('USDC', USDC)), signal),
    ).resolves.toBeUndefined();
    const vouched = guardWith({});
    await vouched.guard.taxedToken(context(token('ETH', null), token('USDC', USDC)), signal);
    expect(vouched.measured).toEqual([]);
  });
});
