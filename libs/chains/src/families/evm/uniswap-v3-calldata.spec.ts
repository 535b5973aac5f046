import { getAddress } from 'ethers';
import { encodeUniswapV3Path, encodeUniswapV3Swap, uniswapV3SwapRouter02Interface } from './evm-calldata';

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);
const [USDC, WETH, DAI, ROUTER, USER] = [1, 2, 3, 4, 5].map((n) => address(0xa0 + n));

function decodeMulticall(data: string): { deadline: bigint; calls: ReturnType<typeof decodeCall>[] } {
  const [deadline, calls] = uniswapV3SwapRouter02Interface.decodeFunctionData(
    'multicall(uint256,bytes[])',
    data,
  );
  return { deadline, calls: (calls as string[]).map(decodeCall) };
}
function decodeCall(data: string) {
  const call = uniswapV3SwapRouter02Interface.parseTransaction({ data })!;
  return { name: call.name, args: call.args.toArray(true) as unknown[] };
}

describe('Uniswap V3 calldata (SwapRouter02)', () => {
  it('packs a path as token, uint24 fee, token, … exactly as the router reads it', () => {
    const path = encodeUniswapV3Path([USDC, WETH, DAI], [500, 3000]);
    expect((path.length - 2) / 2).toBe(20 + 3 + 20 + 3 + 20);
    expect(path.slice(2 + 40, 2 + 46)).toBe('0001f4');
    expect(path.slice(2 + 86, 2 + 92)).toBe('000bb8');
    expect(() => encodeUniswapV3Path([USDC, WETH], [500, 3000])).toThrow(/needs 1 fee tiers/);
  });

  it('swaps tokens with exactInput to the wallet inside multicall(deadline)', () => {
    const call = encodeUniswapV3Swap({
      router: ROUTER,
      nativeIn: false,
      nativeOut: false,
      amountIn: 100_000_000n,
      amountOutMin: 32_000_000_000_000_000n,
      path: [USDC, WETH],
      fees: [500],
      to: USER,
      deadline: 1_900_000_000n,
    });
    expect(call).toMatchObject({ to: ROUTER, value: '0' });
    const { deadline, calls } = decodeMulticall(call.data);
    expect(deadline).toBe(1_900_000_000n);
    expect(calls).toEqual([
      {
        name: 'exactInput',
        args: [[encodeUniswapV3Path([USDC, WETH], [500]), USER, 100_000_000n, 32_000_000_000_000_000n]],
      },
    ]);
  });

  it('pays native ETH out by swapping to the router and unwrapping to the wallet, and takes native ETH in as value', () => {
    const out = encodeUniswapV3Swap({
      router: ROUTER,
      nativeIn: false,
      nativeOut: true,
      amountIn: 3_000_000_000n,
      amountOutMin: 990_000_000_000_000_000n,
      path: [USDC, WETH],
      fees: [3000],
      to: USER,
      deadline: 1n,
    });
    expect(decodeMulticall(out.data).calls.map((c) => [c.name, c.args])).toEqual([
      [
        'exactInput',
        [[encodeUniswapV3Path([USDC, WETH], [3000]), ROUTER, 3_000_000_000n, 990_000_000_000_000_000n]],
      ],
      ['unwrapWETH9', [990_000_000_000_000_000n, USER]],
    ]);
    const into = encodeUniswapV3Swap({
      router: ROUTER,
      nativeIn: true,
      nativeOut: false,
      amountIn: 10n ** 18n,
      amountOutMin: 1n,
      path: [WETH, USDC],
      fees: [500],
      to: USER,
      deadline: 1n,
    });
    expect(into.value).toBe(String(10n ** 18n));
  });
});
