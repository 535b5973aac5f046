import { pairAddress } from '../deploy/deploy-chain';
import { assertRouterMatchesPair, loadUniswapArtifacts } from './uniswap-artifacts';

// The init code hash every Uniswap V2 deployment of the published bytecode shares.
const MAINNET_INIT_CODE_HASH = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f';

describe('Uniswap V2 artifacts', () => {
  it('pairs the published router with the factory it will be deployed with', () => {
    const artifacts = loadUniswapArtifacts();
    expect(artifacts.pairInitCodeHash).toBe(MAINNET_INIT_CODE_HASH);
  });

  it('refuses a router built against another pair bytecode', () => {
    const { UniswapV2Factory, UniswapV2Pair } = loadUniswapArtifacts();
    const otherRouter = '0x6080' + '00'.repeat(64);
    expect(() =>
      assertRouterMatchesPair(
        otherRouter,
        UniswapV2Factory.bytecode,
        UniswapV2Pair.bytecode,
        MAINNET_INIT_CODE_HASH,
      ),
    ).toThrow(expect.objectContaining({ code: 'INIT_CODE_HASH_MISMATCH' }));
  });

  it('computes pair addresses as the router does (mainnet WETH/USDC)', () => {
    const factory = '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f';
    const usdc = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
    const weth = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
    expect(pairAddress(factory, weth, usdc, MAINNET_INIT_CODE_HASH)).toBe(
      '0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc',
    );
    expect(pairAddress(factory, usdc, weth, MAINNET_INIT_CODE_HASH)).toBe(
      '0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc',
    );
  });
});
