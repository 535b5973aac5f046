import { Injectable } from '@nestjs/common';
import { ChainRegistry, checksumEvmAddress } from '@swapgw/chains';
import { ChainFamilies } from '@swapgw/chains/families';
import { Clock, TtlCache } from '@swapgw/runtime';
import { AbiCoder, getCreate2Address, Interface, keccak256 } from 'ethers';
import { candidatePaths } from './path-search';
import type { QuoteToken } from './quote-provider';
import { callOrNull } from './shared-reads';
import { abortable } from './uniswap-v2-quoter';

export interface UniswapV3Deployment {
  chain: string;
  factory: string;
  quoterV2: string;
  swapRouter02: string;
  poolInitCodeHash: string;
  feeTiers: number[];
  /** Wrapped native coin: stands in for the native coin in paths. */
  weth: string;
}

/** Where Uniswap V3 can be quoted on a chain: its deployments, when the chain has an RPC URL. */
export function uniswapV3Deployment(
  registry: ChainRegistry,
  chainId: string,
): UniswapV3Deployment | undefined {
  if (!registry.find(chainId)?.rpcUrl) return undefined;
  const deployments = registry.deployments(chainId);
  const v3 = deployments?.uniswapV3;
  if (!v3 || !deployments.wrappedNative) return undefined;
  return {
    chain: chainId,
    factory: checksumEvmAddress(v3.factory),
    quoterV2: checksumEvmAddress(v3.quoterV2),
    swapRouter02: checksumEvmAddress(v3.swapRouter02),
    poolInitCodeHash: v3.poolInitCodeHash,
    feeTiers: [...v3.feeTiers],
    weth: checksumEvmAddress(deployments.wrappedNative),
  };
}

/** The pool's reads the quoter makes (UniswapV3Pool). */
export const V3_POOL_INTERFACE = new Interface([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
]);
/** QuoterV2's single-pool quotes: what an input buys, and what an output costs. */
export const QUOTER_V2_INTERFACE = new Interface([
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  'function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
]);
const SLOT0_DATA = V3_POOL_INTERFACE.encodeFunctionData('slot0');
const LIQUIDITY_DATA = V3_POOL_INTERFACE.encodeFunctionData('liquidity');
const Q96 = 2n ** 96n;
const FEE_UNITS = 1_000_000n;

/**
 * How long the quoter remembers that a fee tier has no pool for a pair (no contract at its CREATE2
 * address, the factory's getPool answering the zero address): a burst of quotes asks the chain once,
 * and a pool created since is quoted at most this long after.
 */
export const V3_NO_POOL_TTL_MS = 5_000;
/** Bound on the remembered absent pools (a few per pair quoted in the last V3_NO_POOL_TTL_MS). */
const NO_POOL_MAX_ENTRIES = 10_000;

/** A pool's price and in-range liquidity, as slot0 and liquidity answer them. */
interface PoolState {
  sqrtPriceX96: bigint;
  liquidity: bigint;
}

/** What QuoterV2's quoteExactInputSingle answers. */
interface QuoterAnswer {
  amountOut: bigint;
  initializedTicksCrossed: number;
  gasEstimate: bigint;
}

/** One hop through one pool: what QuoterV2 answered for it. */
export interface V3HopQuote {
  pool: string;
  fee: number;
  amountIn: bigint;
  amountOut: bigint;
  /** The pool's price before the swap, as tokenOut per tokenIn scaled by 1e18 (fee left out). */
  midPriceE18: bigint;
  initializedTicksCrossed: number;
  gasEstimate: bigint;
}

/** One priced path through Uniswap V3 pools. */
export interface V3PathQuote {
  deployment: UniswapV3Deployment;
  /** Token addresses, WETH standing in for the native coin. */
  path: string[];
  /** Fee tier of each hop (`path.length - 1` entries). */
  fees: number[];
  hops: V3HopQuote[];
  amountOut: bigint;
  /** How much worse the output is than at the pools' prices before the swap, the LP fees left out. */
  priceImpactBps: number;
}

/**
 * Prices paths on Uniswap V3 with the chain's QuoterV2: the direct pool of every fee tier, and the
 * two hops through WETH with the best tier of each hop. Pool addresses are computed with CREATE2;
 * a pool without code or without liquidity in range is skipped before asking the quoter, and a
 * quoter revert on a pool reads as "no route there", while an RPC failure propagates.
 *
 * Quotes of the same block share their reads (the chain's BlockScopedEvmProvider): one slot0 +
 * liquidity read per pool, and one QuoterV2 call per pool, direction and amount, at the request's
 * block, so every quote sees the pool as of its own request or later. A tier without a pool is
 * remembered for V3_NO_POOL_TTL_MS.
 */
@Injectable()
export class UniswapV3Quoter {
  private readonly poolAddresses = new Map<string, string>();
  private readonly noPool: TtlCache<true>;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly families: ChainFamilies,
    clock: Clock,
  ) {
    this.noPool = new TtlCache({ ttlMs: V3_NO_POOL_TTL_MS, maxEntries: NO_POOL_MAX_ENTRIES, clock });
  }

  deployment(chainId: string): UniswapV3Deployment | undefined {
    return uniswapV3Deployment(this.registry, chainId);
  }

  /** Every viable path, best output first; [] when no pools connect the tokens. */
  async quotePaths(
    chainId: string,
    tokenIn: QuoteToken,
    tokenOut: QuoteToken,
    amountIn: bigint,
    signal: AbortSignal,
  ): Promise<V3PathQuote[]> {
    const deployment = this.deployment(chainId);
    if (!deployment) return [];

    const quotes: V3PathQuote[] = [];
    for (const path of candidatePaths(tokenIn, tokenOut, deployment.weth)) {
      if (path.length === 2) {
        // The direct pool: every fee tier is a path of its own.
        const direct = await this.quoteHops(deployment, path[0], path[1], amountIn, signal);
        for (const hop of direct) quotes.push(pathQuote(deployment, path, [hop]));
        continue;
      }
      const hops = await this.bestTierHops(deployment, path, amountIn, signal);
      if (hops) quotes.push(pathQuote(deployment, path, hops));
    }
    return quotes.sort((x, y) => (x.amountOut > y.amountOut ? -1 : x.amountOut < y.amountOut ? 1 : 0));
  }

  /**
   * The least input (base units of tokenIn) that buys one base unit of tokenOut through the live
   * pools that connect the tokens, as QuoterV2's quoteExactOutputSingle prices each hop from the
   * last one back (the cheapest tier of each); undefined when no path has live pools. What a quote
   * whose output rounds to zero tells the wallet to send at least.
   */
  async smallestQuotableAmount(
    chainId: string,
    tokenIn: QuoteToken,
    tokenOut: QuoteToken,
    signal: AbortSignal,
  ): Promise<bigint | undefined> {
    const deployment = this.deployment(chainId);
    if (!deployment) return undefined;
    let smallest: bigint | undefined;
    for (const path of candidatePaths(tokenIn, tokenOut, deployment.weth)) {
      let needed: bigint | undefined = 1n;
      for (let i = path.length - 1; i > 0 && needed !== undefined; i--)
        needed = await this.leastInput(deployment, path[i - 1], path[i], needed, signal);
      if (needed !== undefined && (smallest === undefined || needed < smallest)) smallest = needed;
    }
    return smallest;
  }

  /** The least x that buys `amountOut` of y through a live pool of any tier; undefined when none. */
  private async leastInput(
    deployment: UniswapV3Deployment,
    x: string,
    y: string,
    amountOut: bigint,
    signal: AbortSignal,
  ): Promise<bigint | undefined> {
    const inputs = await Promise.all(
      deployment.feeTiers.map((fee) =>
        abortable(this.exactOutputInput(deployment, x, y, fee, amountOut), signal),
      ),
    );
    let least: bigint | undefined;
    for (const input of inputs) if (input !== null && (least === undefined || input < least)) least = input;
    return least;
  }

  private async exactOutputInput(
    deployment: UniswapV3Deployment,
    x: string,
    y: string,
    fee: number,
    amountOut: bigint,
  ): Promise<bigint | null> {
    if (!(await this.livePool(deployment, x, y, fee))) return null;
    return this.askQuoter(
      deployment,
      'quoteExactOutputSingle',
      [x, y, amountOut, fee, 0n],
      (data) =>
        (QUOTER_V2_INTERFACE.decodeFunctionResult('quoteExactOutputSingle', data) as unknown as [bigint])[0],
    );
  }

  /** The pool of x and y in this tier and its state, when it is deployed and has liquidity in range. */
  private async livePool(
    deployment: UniswapV3Deployment,
    x: string,
    y: string,
    fee: number,
  ): Promise<{ pool: string; state: PoolState } | null> {
    const pool = this.poolAddress(deployment, x, y, fee);
    const state = await this.poolState(deployment.chain, pool);
    return state && state.sqrtPriceX96 !== 0n && state.liquidity !== 0n ? { pool, state } : null;
  }

  /** QuoterV2's answer to one of its single-pool quotes, decoded; null when it reverts. */
  private askQuoter<T>(
    deployment: UniswapV3Deployment,
    quote: 'quoteExactInputSingle' | 'quoteExactOutputSingle',
    params: unknown[],
    decode: (data: string) => T,
  ): Promise<T | null> {
    return callOrNull(
      () =>
        this.families.evmProvider(deployment.chain).call({
          to: deployment.quoterV2,
          data: QUOTER_V2_INTERFACE.encodeFunctionData(quote, [params]),
        }),
      decode,
    );
  }

  /** The pool's CREATE2 address (computed once per pool and tier). */
  poolAddress(deployment: UniswapV3Deployment, x: string, y: string, fee: number): string {
    const [token0, token1] = x.toLowerCase() < y.toLowerCase() ? [x, y] : [y, x];
    const key = `${deployment.factory}:${token0}:${token1}:${fee}`;
    let address = this.poolAddresses.get(key);
    if (!address) {
      const salt = keccak256(
        AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [token0, token1, fee]),
      );
      address = getCreate2Address(deployment.factory, salt, deployment.poolInitCodeHash);
      this.poolAddresses.set(key, address);
    }
    return address;
  }

  /** A multi-hop path through the best fee tier of each hop in turn; undefined where a hop has no pool. */
  private async bestTierHops(
    deployment: UniswapV3Deployment,
    path: string[],
    amountIn: bigint,
    signal: AbortSignal,
  ): Promise<V3HopQuote[] | undefined> {
    const hops: V3HopQuote[] = [];
    let amount = amountIn;
    for (let i = 1; i < path.length; i++) {
      const [best] = await this.quoteHops(deployment, path[i - 1], path[i], amount, signal);
      if (!best) return undefined;
      hops.push(best);
      amount = best.amountOut;
    }
    return hops;
  }

  /** x → y through each fee tier that has a live pool, best output first. */
  private async quoteHops(
    deployment: UniswapV3Deployment,
    x: string,
    y: string,
    amountIn: bigint,
    signal: AbortSignal,
  ): Promise<V3HopQuote[]> {
    const hops = await Promise.all(
      deployment.feeTiers.map((fee) => abortable(this.quoteHop(deployment, x, y, fee, amountIn), signal)),
    );
    return hops
      .filter((hop): hop is V3HopQuote => hop !== null && hop.amountOut > 0n)
      .sort((p, q) => (p.amountOut > q.amountOut ? -1 : p.amountOut < q.amountOut ? 1 : 0));
  }

  private async quoteHop(
    deployment: UniswapV3Deployment,
    x: string,
    y: string,
    fee: number,
    amountIn: bigint,
  ): Promise<V3HopQuote | null> {
    const live = await this.livePool(deployment, x, y, fee);
    if (!live) return null;
    const { pool, state } = live;
    const answer = await this.askQuoter(
      deployment,
      'quoteExactInputSingle',
      [x, y, amountIn, fee, 0n],
      decodeQuoterAnswer,
    );
    if (answer === null) return null;
    const price0In1E18 = (state.sqrtPriceX96 * state.sqrtPriceX96 * 10n ** 18n) / (Q96 * Q96);
    const xIsToken0 = x.toLowerCase() < y.toLowerCase();
    const midPriceE18 = xIsToken0 ? price0In1E18 : price0In1E18 === 0n ? 0n : 10n ** 36n / price0In1E18;
    return { pool, fee, amountIn, midPriceE18, ...answer };
  }

  /**
   * The pool's slot0 price and in-range liquidity, null when no pool is deployed there (remembered
   * for V3_NO_POOL_TTL_MS: a deployed pool's slot0 and liquidity never revert, so an empty or
   * reverted answer means no pool).
   */
  private async poolState(chain: string, pool: string): Promise<PoolState | null> {
    const key = `${chain}:${pool}`;
    if (this.noPool.peek(key)) return null;
    const provider = this.families.evmProvider(chain);
    const [sqrtPriceX96, liquidity] = await Promise.all([
      callOrNull(
        () => provider.call({ to: pool, data: SLOT0_DATA }),
        (data) => (V3_POOL_INTERFACE.decodeFunctionResult('slot0', data) as unknown as [bigint])[0],
      ),
      callOrNull(
        () => provider.call({ to: pool, data: LIQUIDITY_DATA }),
        (data) => (V3_POOL_INTERFACE.decodeFunctionResult('liquidity', data) as unknown as [bigint])[0],
      ),
    ]);
    if (sqrtPriceX96 === null || liquidity === null) {
      this.noPool.set(key, true);
      return null;
    }
    return { sqrtPriceX96, liquidity };
  }
}

function decodeQuoterAnswer(data: string): QuoterAnswer {
  const [amountOut, , initializedTicksCrossed, gasEstimate] = QUOTER_V2_INTERFACE.decodeFunctionResult(
    'quoteExactInputSingle',
    data,
  ) as unknown as [bigint, bigint, bigint, bigint];
  return { amountOut, initializedTicksCrossed: Number(initializedTicksCrossed), gasEstimate };
}

function pathQuote(deployment: UniswapV3Deployment, path: string[], hops: V3HopQuote[]): V3PathQuote {
  const amountOut = hops[hops.length - 1].amountOut;
  return {
    deployment,
    path,
    fees: hops.map((hop) => hop.fee),
    hops,
    amountOut,
    priceImpactBps: v3PriceImpactBps(hops[0].amountIn, hops, amountOut),
  };
}

/**
 * Price impact in basis points against the pools' prices before the swap, each hop's LP fee left
 * out (a fee is a known cost, not an impact).
 */
export function v3PriceImpactBps(
  amountIn: bigint,
  hops: readonly Pick<V3HopQuote, 'fee' | 'midPriceE18'>[],
  amountOut: bigint,
): number {
  let midOut = amountIn * 10n ** 18n;
  for (const hop of hops)
    midOut = (midOut * hop.midPriceE18 * (FEE_UNITS - BigInt(hop.fee))) / (10n ** 18n * FEE_UNITS);
  if (midOut === 0n) return 10_000;
  const actual = amountOut * 10n ** 18n;
  if (actual >= midOut) return 0;
  return Number(((midOut - actual) * 10_000n) / midOut);
}
