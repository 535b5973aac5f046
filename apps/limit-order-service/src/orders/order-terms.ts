import {
  checkTermsChain,
  checkTermsRecipient,
  sameTokenError,
  termsAmountToBaseUnits,
  unknownTokenError,
} from '@swapgw/chains';
import type { LimitOrderTerms } from '@swapgw/contracts';
import { CatalogDirectory, TokenInfo } from '../upstream/upstream.ports';

export interface CheckedOrderTerms {
  tokenIn: TokenInfo;
  tokenOut: TokenInfo;
  amountBase: bigint;
  minAmountOutBase: bigint;
}

/**
 * The terms of a new order (create and replace) checked as POST /quote checks the same terms, in
 * the same order and with the same codes and messages (the shared check of @swapgw/chains):
 * chains in GET /chains and of the requested network, tokens known on their chain, not one token
 * twice, amounts within the tokens' decimals (minAmountOut too), a recipient of the destination
 * chain's family. Chains and tokens come from quote-service's catalog.
 */
export async function checkOrderTerms(
  terms: LimitOrderTerms,
  catalog: CatalogDirectory,
): Promise<CheckedOrderTerms> {
  const [fromChainInfo, toChainInfo] = await Promise.all([
    catalog.chain(terms.fromChain),
    catalog.chain(terms.toChain),
  ]);
  const fromChain = checkTermsChain(fromChainInfo, terms.fromChain, 'fromChain', terms.network);
  const toChain = checkTermsChain(toChainInfo, terms.toChain, 'toChain', terms.network);
  const [tokenIn, tokenOut] = await Promise.all([
    catalog.token(fromChain.id, terms.tokenIn),
    catalog.token(toChain.id, terms.tokenOut),
  ]);
  if (!tokenIn) throw unknownTokenError('tokenIn', terms.tokenIn, fromChain.id);
  if (!tokenOut) throw unknownTokenError('tokenOut', terms.tokenOut, toChain.id);
  if (fromChain.id === toChain.id && tokenIn.symbol.toUpperCase() === tokenOut.symbol.toUpperCase()) {
    throw sameTokenError(tokenIn.symbol, fromChain.id);
  }
  const amountBase = termsAmountToBaseUnits(terms.amount, tokenIn.decimals, 'amount');
  const minAmountOutBase = termsAmountToBaseUnits(terms.minAmountOut, tokenOut.decimals, 'minAmountOut');
  if (terms.recipient !== undefined) checkTermsRecipient(terms.recipient, toChain);
  return { tokenIn, tokenOut, amountBase, minAmountOutBase };
}
