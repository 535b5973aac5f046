import { Injectable } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { ChainFamilies } from '@swapgw/chains/families';
import { getCreate2Address, Interface, keccak256, solidityPacked } from 'ethers';
import { getAmountsOut, HopReserves, leastAmountsIn, priceImpactBps } from './uniswap-v2-math';
import { uniswapV2Deployment, UniswapV2Deployment } from './uniswap-v2-deployments';
import { candidatePaths } from './path-search';
import type { QuoteToken } from './quote-provider';
import { callOrNull } from './shared-reads';

const PAIR_INTERFACE = new Interface([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
]);
const GET_RESERVES_DATA = PAIR_INTERFACE.encodeFunctionData('getReserves');

/** One priced path through Uniswap V2 pools. */
export interface PathQuote {
  deployment: UniswapV2Deployment;
  /** Token addresses, WETH standing in for the native coin. */
  path: string[];
  pairs: string[];
  hops: HopReserves[];
  /** router.getAmountsOut(amountIn, path). */
  amounts: bigint[];
  priceImpactBps: number;
  /** Largest share (bps) of a pool's output reserve that one hop takes. */
  maxReserveShareBps: number;
}

/**
 * Prices paths on Uniswap V2 from pool reserves read on chain: the direct pool and the two-hop
 * path through WETH. Pair addresses are computed with CREATE2 (no factory round trip); a pair with
 * no code reads as "no pool", while an RPC failure propagates (the provider failed).
 */
@Injectable()
export class UniswapV2Quoter {
  private readonly pairAddresses = new Map<string, string>();

  constructor(
    private readonly registry: ChainRegistry,
    /** Pool reserves are read over the chain's bounded provider (RPC_TIMEOUT_MS). */
    private readonly families: ChainFamilies,
  ) {}

  deployment(chainId: string): UniswapV2Deployment | undefined {
    return uniswapV2Deployment(this.registry, chainId);
  }

  /** Every viable path, best output first; [] when no pools connect the tokens. */
  async quotePaths(
    chainId: string,
    tokenIn: QuoteToken,
    tokenOut: QuoteToken,
    amountIn: bigint,
    signal: AbortSignal,
  ): Promise<PathQuote[]> {
    const quotes: PathQuote[] = [];
    for (const live of await this.livePaths(chainId, tokenIn, tokenOut, signal)) {
      const amounts = getAmountsOut(amountIn, live.hops);
      const out = amounts[amounts.length - 1];
      if (out === 0n) continue;
      quotes.push({
        ...live,
        amounts,
        priceImpactBps: priceImpactBps(amountIn, live.hops, out),
        maxReserveShareBps: Math.max(
          ...live.hops.map((hop, i) => Number((amounts[i + 1] * 10_000n) / hop.reserveOut)),
        ),
      });
    }
    return quotes.sort((x, y) =>
      x.amounts[x.amounts.length - 1] > y.amounts[y.amounts.length - 1] ? -1 : 1,
    );
  }

  /**
   * The least input (base units of tokenIn) that buys `amountOut` (one base unit unless given) of
   * tokenOut through the pools that connect the tokens, as router.getAmountsIn computes it;
   * undefined when none can (no pool, an empty one, or too little in it). What a quote whose output
   * rounds to zero tells the wallet to send at least.
   */
  async smallestQuotableAmount(
    chainId: string,
    tokenIn: QuoteToken,
    tokenOut: QuoteToken,
    signal: AbortSignal,
    amountOut = 1n,
  ): Promise<bigint | undefined> {
    let smallest: bigint | undefined;
    for (const live of await this.livePaths(chainId, tokenIn, tokenOut, signal)) {
      // Each hop must hold more than it is asked to pay out, from the last hop back.
      const amounts = leastAmountsIn(amountOut, live.hops);
      if (!amounts) continue;
      const [amountIn] = amounts;
      if (smallest === undefined || amountIn < smallest) smallest = amountIn;
    }
    return smallest;
  }

  /** The direct pool and the hop through WETH, where every pool of the path exists and holds both tokens. */
  private async livePaths(
    chainId: string,
    tokenIn: QuoteToken,
    tokenOut: QuoteToken,
    signal: AbortSignal,
  ): Promise<Array<Pick<PathQuote, 'deployment' | 'path' | 'pairs' | 'hops'>>> {
    const deployment = this.deployment(chainId);
    if (!deployment) return [];
    const candidates = candidatePaths(tokenIn, tokenOut, deployment.weth);

    const reserves = new Map<string, Promise<{ pair: string; hop: HopReserves } | null>>();
    const hopOf = (x: string, y: string) => {
      const key = `${x}>${y}`;
      let hop = reserves.get(key);
      if (!hop) {
        hop = this.readHop(deployment, x, y, signal);
        reserves.set(key, hop);
      }
      return hop;
    };
    const live: Array<Pick<PathQuote, 'deployment' | 'path' | 'pairs' | 'hops'>> = [];
    for (const path of candidates) {
      const hops = await Promise.all(path.slice(1).map((to, i) => hopOf(path[i], to)));
      if (hops.some((h) => h === null || h.hop.reserveIn === 0n || h.hop.reserveOut === 0n)) continue;
      const present = hops as { pair: string; hop: HopReserves }[];
      live.push({ deployment, path, pairs: present.map((h) => h.pair), hops: present.map((h) => h.hop) });
    }
    return live;
  }

  /** The pair's CREATE2 address (computed once per pair: a keccak per hop per quote adds up in a burst). */
  pairAddress(deployment: UniswapV2Deployment, x: string, y: string): string {
    const [token0, token1] = x.toLowerCase() < y.toLowerCase() ? [x, y] : [y, x];
    const key = `${deployment.factory}:${token0}:${token1}`;
    let address = this.pairAddresses.get(key);
    if (!address) {
      address = getCreate2Address(
        deployment.factory,
        keccak256(solidityPacked(['address', 'address'], [token0, token1])),
        deployment.initCodeHash,
      );
      this.pairAddresses.set(key, address);
    }
    return address;
  }

  private async readHop(
    deployment: UniswapV2Deployment,
    x: string,
    y: string,
    signal: AbortSignal,
  ): Promise<{ pair: string; hop: HopReserves } | null> {
    const pair = this.pairAddress(deployment, x, y);
    const reserves = await abortable(this.readReserves(deployment.chain, pair), signal);
    if (!reserves) return null;
    const [reserve0, reserve1] = reserves;
    const xIsToken0 = x.toLowerCase() < y.toLowerCase();
    return {
      pair,
      hop: xIsToken0
        ? { reserveIn: reserve0, reserveOut: reserve1 }
        : { reserveIn: reserve1, reserveOut: reserve0 },
    };
  }

  /**
   * A pair's reserves, null when no pool is deployed there. Read at the request's block: quotes of
   * one pool in the same block share one `getReserves` call (the chain's BlockScopedEvmProvider),
   * and none sees reserves older than the head when it was asked.
   */
  private readReserves(chain: string, pair: string): Promise<readonly [bigint, bigint] | null> {
    // No contract at the computed address (empty return data): the pool does not exist.
    return callOrNull(
      () => this.families.evmProvider(chain).call({ to: pair, data: GET_RESERVES_DATA }),
      (data) => {
        const [reserve0, reserve1] = PAIR_INTERFACE.decodeFunctionResult('getReserves', data) as unknown as [
          bigint,
          bigint,
          bigint,
        ];
        return [reserve0, reserve1] as const;
      },
    );
  }
}

/** Rejects as soon as `signal` aborts (ethers calls take no AbortSignal). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
