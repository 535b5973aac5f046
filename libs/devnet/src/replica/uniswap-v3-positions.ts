import { AbiCoder, getCreate2Address, keccak256 } from 'ethers';

const Q96 = 2n ** 96n;
/** Uniswap V3's TickMath bounds. */
const MIN_TICK = -887272;
const MAX_TICK = 887272;

/** Uniswap V3 pool address: CREATE2 by the factory, salt keccak(abi.encode(token0, token1, fee)). */
export function uniswapV3PoolAddress(
  factory: string,
  tokenA: string,
  tokenB: string,
  fee: number,
  poolInitCodeHash: string,
): string {
  const [token0, token1] = sortTokens(tokenA, tokenB);
  const salt = keccak256(
    AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [token0, token1, fee]),
  );
  return getCreate2Address(factory, salt, poolInitCodeHash);
}

export function sortTokens(tokenA: string, tokenB: string): [string, string] {
  return BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA];
}

/**
 * The pool price at which `amount0` of token0 is worth `amount1` of token1 (raw units), as
 * `initialize` takes it: sqrt(amount1 / amount0) in Q64.96.
 */
export function sqrtPriceX96Of(amount0: bigint, amount1: bigint): bigint {
  return integerSqrt((amount1 * Q96 * Q96) / amount0);
}

export interface V3PositionPlan {
  sqrtPriceX96: bigint;
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
  /** What the pool will ask for (rounded up): fund the payer with at least this. */
  amount0: bigint;
  amount1: bigint;
}

/**
 * A position around the current price, from `current / rangeFactor` to `current * rangeFactor`
 * (widened to the tick spacing), holding `depth` of token `depthIn` (0 or 1) in range: the liquidity
 * a busy mainnet pool concentrates near the price. Floating point suffices here: the pool computes
 * exactly what it is owed, and the plan's amounts only size the payer's funding (with a margin).
 */
export function planV3Position(input: {
  sqrtPriceX96: bigint;
  tickSpacing: number;
  rangeFactor: number;
  depthIn: 0 | 1;
  depth: bigint;
}): V3PositionPlan {
  const sqrtPrice = Number(input.sqrtPriceX96) / Number(Q96);
  const tick = Math.floor(Math.log(sqrtPrice * sqrtPrice) / Math.log(1.0001));
  const width = Math.ceil(Math.log(input.rangeFactor) / Math.log(1.0001));
  const spacing = input.tickSpacing;
  const tickLower = Math.max(
    Math.floor((tick - width) / spacing) * spacing,
    Math.ceil(MIN_TICK / spacing) * spacing,
  );
  const tickUpper = Math.min(
    Math.ceil((tick + width) / spacing) * spacing,
    Math.floor(MAX_TICK / spacing) * spacing,
  );
  const sqrtLower = Math.pow(1.0001, tickLower / 2);
  const sqrtUpper = Math.pow(1.0001, tickUpper / 2);
  const perLiquidity0 = 1 / sqrtPrice - 1 / sqrtUpper;
  const perLiquidity1 = sqrtPrice - sqrtLower;
  const liquidity = Number(input.depth) / (input.depthIn === 0 ? perLiquidity0 : perLiquidity1);
  return {
    sqrtPriceX96: input.sqrtPriceX96,
    tickLower,
    tickUpper,
    liquidity: BigInt(Math.floor(liquidity)),
    amount0: BigInt(Math.ceil(liquidity * perLiquidity0)),
    amount1: BigInt(Math.ceil(liquidity * perLiquidity1)),
  };
}

/** floor(sqrt(value)), Newton's method from above. */
function integerSqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) >> 1n;
  while (y < x) {
    x = y;
    y = (x + value / x) >> 1n;
  }
  return x;
}
