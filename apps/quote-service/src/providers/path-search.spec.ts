import { getAddress } from 'ethers';
import { candidatePaths } from './path-search';
import type { QuoteToken } from './quote-provider';

const WETH = getAddress('0x' + 'ee'.repeat(20));
const USDC = getAddress('0x' + 'a1'.repeat(20));
const DAI = getAddress('0x' + 'b2'.repeat(20));
const token = (address: string | null, symbol: string): QuoteToken => ({
  chain: 'devnet-a',
  symbol,
  address,
  decimals: 18,
});

describe('candidatePaths', () => {
  it('prices the direct pool first, then the hop through WETH', () => {
    expect(candidatePaths(token(USDC, 'USDC'), token(DAI, 'DAI'), WETH)).toEqual([
      [USDC, DAI],
      [USDC, WETH, DAI],
    ]);
  });

  it('checksums lower-case addresses, so the pools found are the same', () => {
    expect(candidatePaths(token(USDC.toLowerCase(), 'USDC'), token(DAI, 'DAI'), WETH)[0]).toEqual([
      USDC,
      DAI,
    ]);
  });

  it('lets WETH stand in for the native coin, with no hop through WETH at a WETH end', () => {
    expect(candidatePaths(token(null, 'ETH'), token(USDC, 'USDC'), WETH)).toEqual([[WETH, USDC]]);
    expect(candidatePaths(token(USDC, 'USDC'), token(WETH, 'WETH'), WETH)).toEqual([[USDC, WETH]]);
  });

  it('finds no path between a token and itself, nor between the native coin and WETH (a wrap)', () => {
    expect(candidatePaths(token(USDC, 'USDC'), token(USDC.toLowerCase(), 'USDC'), WETH)).toEqual([]);
    expect(candidatePaths(token(null, 'ETH'), token(WETH, 'WETH'), WETH)).toEqual([]);
  });
});
