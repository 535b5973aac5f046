import { parseEther, parseUnits } from 'ethers';
import { planV3Position, sqrtPriceX96Of, uniswapV3PoolAddress } from './uniswap-v3-positions';

const Q192 = 2n ** 192n;
const MAINNET_V3_FACTORY = '0x1F98431c8aD98523631AE4a59f267346ea31F984';
const POOL_INIT_CODE_HASH = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';
const MAINNET_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const MAINNET_WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';

describe('uniswapV3PoolAddress', () => {
  it.each([
    [500, '0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640'],
    [3000, '0x8ad599c3A0ff1De082011EFDDc58f1908eb6e6D8'],
  ])('finds the mainnet USDC/WETH %d pool, whichever token comes first', (fee, pool) => {
    expect(
      uniswapV3PoolAddress(MAINNET_V3_FACTORY, MAINNET_USDC, MAINNET_WETH, fee, POOL_INIT_CODE_HASH),
    ).toBe(pool);
    expect(
      uniswapV3PoolAddress(MAINNET_V3_FACTORY, MAINNET_WETH, MAINNET_USDC, fee, POOL_INIT_CODE_HASH),
    ).toBe(pool);
  });
});

describe('sqrtPriceX96Of', () => {
  it('prices 1 WETH at 3000 USDC with either token first', () => {
    const wethFirst = sqrtPriceX96Of(parseEther('1'), parseUnits('3000', 6));
    // price = token1 per token0 = sqrtPrice² / 2^192: 3000e6 / 1e18 USDC units per wei.
    expect((wethFirst * wethFirst * parseEther('1')) / Q192).toBe(parseUnits('3000', 6) - 1n);
    const usdcFirst = sqrtPriceX96Of(parseUnits('3000', 6), parseEther('1'));
    const weiPerUsdcUnit = (usdcFirst * usdcFirst) / Q192;
    expect(weiPerUsdcUnit).toBe(parseEther('1') / parseUnits('3000', 6));
  });
});

describe('planV3Position', () => {
  it.each([
    ['WETH is token0', 0 as const, sqrtPriceX96Of(parseEther('1'), parseUnits('3000', 6))],
    ['WETH is token1', 1 as const, sqrtPriceX96Of(parseUnits('3000', 6), parseEther('1'))],
  ])(
    '%s: a range around the price on the tick spacing, holding the asked depth of WETH',
    (_, wethIs, sqrtPriceX96) => {
      const plan = planV3Position({
        sqrtPriceX96,
        tickSpacing: 10,
        rangeFactor: 1.2,
        depthIn: wethIs,
        depth: parseEther('5000'),
      });
      const price = (Number(sqrtPriceX96) / 2 ** 96) ** 2;
      const tick = Math.log(price) / Math.log(1.0001);
      expect(Math.abs(plan.tickLower % 10)).toBe(0);
      expect(Math.abs(plan.tickUpper % 10)).toBe(0);
      expect(plan.tickLower).toBeLessThan(tick);
      expect(plan.tickUpper).toBeGreaterThan(tick);
      // ±20% around the price: about 1823 ticks each side.
      expect(tick - plan.tickLower).toBeGreaterThan(1823);
      expect(tick - plan.tickLower).toBeLessThan(1823 + 10 + 1);

      const [weth, usdc] = wethIs === 0 ? [plan.amount0, plan.amount1] : [plan.amount1, plan.amount0];
      expect(Number(weth) / 1e18).toBeCloseTo(5000, 3);
      // A range symmetric around the price holds equal values of both tokens: 5000 WETH ≈ 15M USDC.
      expect(Number(usdc) / 1e6 / 15_000_000).toBeCloseTo(1, 2);
      expect(plan.liquidity).toBeGreaterThan(0n);
    },
  );
});
