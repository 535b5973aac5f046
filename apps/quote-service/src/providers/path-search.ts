import { checksumEvmAddress } from '@swapgw/chains';
import type { QuoteToken } from './quote-provider';

/**
 * The paths a Uniswap quoter (V2 or V3) prices between two tokens, in the order it prices them: the
 * direct pool first, then the two hops through the wrapped native coin unless either end is that
 * coin. Token addresses are checksummed, `weth` standing in for the native coin; no path when both
 * ends are the same token (native ↔ WETH is a wrap, not a swap).
 */
export function candidatePaths(tokenIn: QuoteToken, tokenOut: QuoteToken, weth: string): string[][] {
  const a = tokenIn.address ? checksumEvmAddress(tokenIn.address) : weth;
  const b = tokenOut.address ? checksumEvmAddress(tokenOut.address) : weth;
  if (a === b) return [];
  const candidates: string[][] = [[a, b]];
  if (a !== weth && b !== weth) candidates.push([a, weth, b]);
  return candidates;
}
