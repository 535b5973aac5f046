import { applySlippage } from '../quote/amounts';
import type { QuoteToken } from './quote-provider';
import { uniswapLeg, uniswapNoRoute } from './uniswap-v2.provider';
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
