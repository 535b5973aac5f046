import { applySlippage } from '../quote/amounts';
import type { QuoteToken } from './quote-provider';
import { amountOutAfterTaxes, taxWarnings, uniswapLeg, uniswapNoRoute } from './uniswap-v2.provider';
import type { PathQuote } from './uniswap-v2-quoter';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const WETH = hex(2);
const usdc: QuoteToken = { chain: 'devnet-a', symbol: 'USDC', address: hex(1), decimals: 6 };
const weth: QuoteToken = { chain: 'devnet-a', symbol: 'WETH', address: WETH, decimals: 18 };
const eth: QuoteToken = { chain: 'devnet-a', symbol: 'ETH', address: null, decimals: 18 };

const path = (priceImpactBps: number, maxReserveShareBps: number): PathQuote => ({
  deployment: { chain: 'devnet-a', factory: hex(3), router: hex(4), initCodeHash: '0x', weth: WETH },
  path: [hex(1), WETH],
  pairs: [hex(9)],
  hops: [],
  amounts: [1_000_000_000n, 10n ** 18n],
  priceImpactBps,
  maxReserveShareBps,
});

describe('uniswapNoRoute: why Uniswap has no path', () => {
  it('is PAIR_NOT_SUPPORTED for the native coin and its wrapped token (a wrap, not a swap)', () => {
    expect(uniswapNoRoute('uniswap-v2', eth, weth, WETH)).toMatchObject({ reason: 'PAIR_NOT_SUPPORTED' });
  });

  it('is NO_LIQUIDITY when no pool connects the tokens with an output', () => {
    expect(uniswapNoRoute('uniswap-v2', usdc, weth, WETH)).toMatchObject({
      reason: 'NO_LIQUIDITY',
      message: 'uniswap-v2: no pool connects USDC and WETH with an output for this amount',
    });
  });
});

describe("uniswapLeg: the leg's slippage", () => {
  it("takes the request's slippage as is", () => {
    const leg = uniswapLeg('devnet-a', true, usdc, weth, path(400, 500), 75);
    expect(leg).toMatchObject({ slippageBps: 75, minAmountOut: applySlippage(10n ** 18n, 75).toString() });
  });

  it('computes it from the price impact and the pool share without one, its minimum at that slippage', () => {
    // max(impact 40, share 120) = 120 → 30 + 60 = 90 bps.
    const leg = uniswapLeg('devnet-a', true, usdc, weth, path(40, 120), undefined);
    expect(leg).toMatchObject({ slippageBps: 90, minAmountOut: applySlippage(10n ** 18n, 90).toString() });
    expect(uniswapLeg('devnet-a', true, usdc, weth, path(0, 0), undefined).slippageBps).toBe(30);
    expect(uniswapLeg('devnet-a', true, usdc, weth, path(5_000, 5_000), undefined).slippageBps).toBe(300);
  });
});

describe('taxed tokens on a Uniswap V2 path', () => {
  const taxed = (buyTaxBps: number, sellTaxBps: number) => ({
    buyTaxBps,
    sellTaxBps,
    transferRestricted: false,
  });
  // One hop: 1,000 in against reserves 100,000 / 100,000.
  const hop = { reserveIn: 100_000n, reserveOut: 100_000n };
  const quote: PathQuote = { ...path(10, 10), hops: [hop], amounts: [1_000n, 987n] };

  it('nets the buy tax of tokenOut out of the output', () => {
    expect(amountOutAfterTaxes(quote, { tokenOut: taxed(300, 900) })).toBe(987n - 29n);
  });

  it('re-prices the pool with what it is paid after the sell tax of tokenIn', () => {
    // 950 arrive: 950 * 997 * 100,000 / (100,000,000 + 947,150) = 938.
    expect(amountOutAfterTaxes(quote, { tokenIn: taxed(900, 500) })).toBe(938n);
    expect(amountOutAfterTaxes(quote, { tokenIn: taxed(900, 500), tokenOut: taxed(300, 0) })).toBe(
      938n - 28n,
    );
  });

  it('puts the taxes on the leg and its amounts net of them', () => {
    const leg = uniswapLeg('devnet-a', true, usdc, weth, quote, 100, {
      tokenIn: taxed(0, 0),
      tokenOut: taxed(300, 500),
    });
    expect(leg).toMatchObject({
      sellTaxBps: 0,
      buyTaxBps: 300,
      expectedAmountOut: '958',
      minAmountOut: applySlippage(958n, 100).toString(),
    });
    expect(uniswapLeg('devnet-a', true, usdc, weth, quote, 100)).not.toHaveProperty('buyTaxBps');
  });

  it('warns of taxes, restrictions and tokens that could not be measured', () => {
    expect(taxWarnings({ tokenIn: taxed(0, 0), tokenOut: taxed(300, 500) }, true)).toEqual(['TOKEN_TAXED']);
    expect(
      taxWarnings({ tokenIn: taxed(0, 0), tokenOut: { ...taxed(0, 0), transferRestricted: true } }, true),
    ).toEqual(['TOKEN_TRANSFER_RESTRICTED']);
    expect(taxWarnings({ tokenIn: taxed(0, 0) }, false)).toEqual(['TOKEN_TAX_UNCHECKED']);
    // A sell tax of tokenOut (or a buy tax of tokenIn) does not touch this route.
    expect(taxWarnings({ tokenIn: taxed(300, 0), tokenOut: taxed(0, 500) }, true)).toEqual([]);
  });
});
