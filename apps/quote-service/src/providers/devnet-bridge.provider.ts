import { ChainRegistry } from '@swapgw/chains';
import type { RouteLeg } from '@swapgw/contracts';
import { getAddress } from 'ethers';
import { afterFeeBps, applySlippage } from '../quote/amounts';
import { ProviderNames } from '../catalog/support-policy';
import { CandidateRoute, QuoteContext, QuoteProvider, QuoteToken, RouteWarningThresholds } from './quote-provider';
import { pathDebug, pathWarnings, uniswapLeg } from './uniswap-v2.provider';
import { UniswapV2Quoter } from './uniswap-v2-quoter';

/**
 * Cross-chain between devnet chains through the devnet USDC bridge: an optional Uniswap V2 swap
 * into USDC on the source chain, the bridge transfer (fee kept on deposit, as the contract does),
 * and an optional swap out of USDC on the destination chain.
 */
export class DevnetBridgeProvider implements QuoteProvider {
  readonly name = ProviderNames.devnetBridge;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly quoter: UniswapV2Quoter,
    private readonly thresholds: RouteWarningThresholds,
  ) {}

  applies(context: QuoteContext): boolean {
    if (context.fromChain.id === context.toChain.id) return false;
    const from = this.registry.devnetChain(context.fromChain.id);
    const to = this.registry.devnetChain(context.toChain.id);
    return Boolean(from?.bridge && to?.bridge && from.bridge.token === to.bridge.token && this.registry.manifest?.bridge);
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const manifest = this.registry.manifest;
    const from = this.registry.devnetChain(context.fromChain.id);
    const to = this.registry.devnetChain(context.toChain.id);
    if (!manifest || !from || !to) return [];
    const symbol = from.bridge.token;
    const sourceToken = from.tokens[symbol];
    const destinationToken = to.tokens[symbol];
    if (!sourceToken || !destinationToken) return [];
    const bridgedIn: QuoteToken = { chain: from.id, symbol, address: getAddress(sourceToken.address), decimals: sourceToken.decimals };
    const bridgedOut: QuoteToken = { chain: to.id, symbol, address: getAddress(destinationToken.address), decimals: destinationToken.decimals };

    const legs: RouteLeg[] = [];
    const warnings = new Set<string>();
    const debug: Record<string, unknown>[] = [];
    let amount = context.amountIn;

    if (!sameAsset(context.tokenIn, bridgedIn)) {
      const [best] = await this.quoter.quotePaths(from.id, context.tokenIn, bridgedIn, amount, signal);
      if (!best) return [];
      legs.push(uniswapLeg(from.id, true, context.tokenIn, bridgedIn, best, context.slippageBps));
      pathWarnings(best, this.thresholds).forEach((w) => warnings.add(w));
      debug.push({ leg: 'source-swap', ...pathDebug(best) });
      amount = best.amounts[best.amounts.length - 1];
    }

    const bridged = afterFeeBps(amount, manifest.bridge.feeBps);
    if (bridged <= 0n) return []; // the bridge reverts deposits that the fee would eat
    legs.push({
      kind: 'bridge',
      chain: from.id,
      provider: manifest.bridge.provider,
      tokenIn: bridgedIn,
      tokenOut: bridgedOut,
      amountIn: amount.toString(),
      expectedAmountOut: bridged.toString(),
      // The bridge releases exactly the announced amount: no price risk on this leg.
      minAmountOut: bridged.toString(),
      spender: getAddress(from.bridge.address),
      destinationChain: to.id,
      estimatedDurationSeconds: manifest.bridge.estimatedDurationSeconds,
    });
    debug.push({ leg: 'bridge', feeBps: manifest.bridge.feeBps, amountIn: amount.toString(), amountOut: bridged.toString() });
    amount = bridged;

    if (!sameAsset(context.tokenOut, bridgedOut)) {
      const [best] = await this.quoter.quotePaths(to.id, bridgedOut, context.tokenOut, amount, signal);
      if (!best) return [];
      legs.push(uniswapLeg(to.id, true, bridgedOut, context.tokenOut, best, context.slippageBps));
      pathWarnings(best, this.thresholds).forEach((w) => warnings.add(w));
      debug.push({ leg: 'destination-swap', ...pathDebug(best) });
      amount = best.amounts[best.amounts.length - 1];
    }

    return [
      {
        providers: legs.map((leg) => leg.provider),
        bridgeProvider: manifest.bridge.provider,
        legs,
        expectedAmountOut: amount,
        estimatedDurationSeconds: legs.reduce((sum, leg) => sum + leg.estimatedDurationSeconds, 0),
        warnings: [...warnings],
        debug: { legs: debug, minAmountOutOfRoute: applySlippage(amount, context.slippageBps).toString() },
      },
    ];
  }
}

function sameAsset(a: QuoteToken, b: QuoteToken): boolean {
  return a.chain === b.chain && (a.address ?? '').toLowerCase() === (b.address ?? '').toLowerCase();
}
