import { checksumEvmAddress } from '@swapgw/chains';
import type { QuoteContext, QuoteToken } from './quote-provider';
import { NoRouteError } from './no-route.error';
import { TokenTaxProbe } from './token-tax-probe';
import { UniswapV2Quoter } from './uniswap-v2-quoter';

/**
 * For venues that cannot swap a fee-on-transfer token (Uniswap V3: its pools check the amount
 * they were paid): finds a taxed token among the request's two, measuring each one not vouched
 * for through its Uniswap V2 pool with the other token, else with WETH. A token without such a
 * pool cannot be measured and passes.
 */
export class TaxedTokenGuard {
  constructor(
    private readonly v2: UniswapV2Quoter,
    private readonly probe: TokenTaxProbe,
  ) {}

  /** Throws NoRouteError TOKEN_NOT_SUPPORTED naming `venue` when a token of the request is taxed. */
  async refuseTaxed(venue: string, context: QuoteContext, signal: AbortSignal): Promise<void> {
    const taxed = await this.taxedToken(context, signal);
    if (taxed)
      throw new NoRouteError(
        'TOKEN_NOT_SUPPORTED',
        `${venue}: ${taxed.symbol} takes a tax on transfers (fee-on-transfer), which ${venue} cannot swap`,
      );
  }

  async taxedToken(context: QuoteContext, signal: AbortSignal): Promise<QuoteToken | undefined> {
    const chain = context.fromChain.id;
    const deployment = this.v2.deployment(chain);
    if (!deployment) return undefined;
    const ends: [QuoteToken, QuoteToken][] = [
      [context.tokenIn, context.tokenOut],
      [context.tokenOut, context.tokenIn],
    ];
    for (const [token, other] of ends) {
      if (token.address === null || this.probe.vouchedFor(chain, token.address)) continue;
      const address = checksumEvmAddress(token.address);
      const bases = [
        ...new Set([other.address ? checksumEvmAddress(other.address) : deployment.weth, deployment.weth]),
      ];
      for (const base of bases.filter((candidate) => candidate !== address)) {
        const taxes = await this.probe.measure(
          {
            deployment,
            token: address,
            pair: this.v2.pairAddress(deployment, address, base),
            base,
            recipient: context.recipient,
          },
          signal,
        );
        if (!taxes) continue;
        if (taxes.buyTaxBps > 0 || taxes.sellTaxBps > 0) return token;
        break;
      }
    }
    return undefined;
  }
}
