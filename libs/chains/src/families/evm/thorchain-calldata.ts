import { Interface, ZeroAddress } from 'ethers';
import type { RouteLeg } from '@swapgw/contracts';
import { thorchainLegMemo } from '../bitcoin/thorchain-memo';
import type { EncodedCall } from '../step-parts';

/** The provider name of THORChain legs (quote-service's ProviderNames.thorchain). */
export const THORCHAIN_PROVIDER = 'thorchain';

/** THORChain_Router's deposit, as THORChain documents it for EVM inbounds. */
const thorchainRouter = new Interface([
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
]);

/**
 * The deposit of a `thorchain` leg out of an EVM chain, as THORChain documents it: the wallet's
 * `depositWithExpiry(vault, asset, amount, memo, expiry)` on the router (the leg's `spender`, which
 * the approve step granted; native coin as the call's value with asset 0), crediting the quote's
 * vault (`thorchain.inboundAddress`) with the leg's swap memo. The expiry is the quote's, when the
 * vault may rotate, or the swap's deadline if sooner: the router reverts a deposit mined after it.
 */
export function thorchainRouterDeposit(
  leg: RouteLeg,
  spend: bigint,
  minOut: bigint,
  recipient: string,
  deadline: bigint,
): EncodedCall {
  const thorchain = leg.thorchain;
  if (!thorchain?.inboundAddress)
    throw new Error(`The thorchain leg on ${leg.chain} names no vault for the router to credit`);
  const memo = thorchainLegMemo({ thorchain, tokenOut: leg.tokenOut }, recipient, minOut);
  const expiry = BigInt(thorchain.expiry) < deadline ? BigInt(thorchain.expiry) : deadline;
  const native = leg.tokenIn.address === null;
  const data = thorchainRouter.encodeFunctionData('depositWithExpiry', [
    thorchain.inboundAddress,
    native ? ZeroAddress : leg.tokenIn.address,
    spend,
    memo,
    expiry,
  ]);
  return { to: leg.spender, data, value: native ? spend.toString() : '0' };
}
