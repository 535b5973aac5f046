import { ChainFamily, PermitContracts, permitLegProblem } from '@swapgw/chains';
import { type IntegratorFeeTransfer, isTaxedLeg, prebuiltPaysIntegratorFees } from '@swapgw/chains/families';
import { CodedError, ErrorCodes, RoutePlan } from '@swapgw/contracts';

/** What the check reads of chains: their family, and their permit contracts (the SwapGatewayRouter). */
export interface IntegratorFeeChains {
  familyOf: (chain: string) => ChainFamily;
  permitContractsOf: (chain: string) => PermitContracts | undefined;
}

/**
 * The integrator fees the route's first transaction pays (recipient and amount in base units of the
 * input token), or [] for a plan without a charged fee. The fee is paid on chain in the same
 * transaction as the swap: the first leg must be an EVM swap of an ERC-20 through a Uniswap venue
 * the chain's SwapGatewayRouter calls (its swapWithFees / swapV3WithFees, or the sponsored swap
 * intent, which carries the fees), or a Solana bridge deposit, whose transaction the signer builds
 * with a token transfer per recipient before the deposit (solanaIntegratorFeeInstructions), or a
 * Jupiter transaction built with the fee as its platform fee (prebuiltPaysIntegratorFees). Any other
 * first leg (an EVM bridge, native coin in, an aggregator's prebuilt call or Solana transaction
 * without the fee) is refused with 400 VALIDATION_FAILED, field integratorFee:
 * a build that left the fee out would hand the integrator's share back to the user while the quote
 * said it was paid. Pure: the builder calls it before reading any chain.
 *
 * Fees `collectedBy: 'aggregator'` are inside the first leg's prebuilt call (0x swapFeeBps, LI.FI
 * fee): the quote asked the aggregator for them and checked its answer, the leg spends the whole
 * input. Nothing is added (no transfer: it would charge the fee twice), so [] is returned, provided
 * every fee is of that kind and the first leg is such a call; a mix is refused as above.
 */
export function integratorFeeTransfersOf(
  plan: RoutePlan,
  chains: IntegratorFeeChains,
): IntegratorFeeTransfer[] {
  const charged = (plan.integratorFees ?? []).filter((fee) => BigInt(fee.amount) > 0n);
  if (charged.length === 0) return [];
  const transfers = charged.map((fee) => ({ recipient: fee.recipient, amount: BigInt(fee.amount) }));
  const leg = plan.legs[0];
  if (charged.every((fee) => fee.collectedBy === 'aggregator') && aggregatorTakesFee(leg)) return [];
  const family = chains.familyOf(leg.chain);
  const problem = charged.some((fee) => fee.collectedBy === 'aggregator')
    ? 'its fee was quoted inside an aggregator call the first leg does not carry'
    : family === 'solana'
      ? solanaFeeLegProblem(leg, transfers)
      : family !== 'evm'
        ? `the fee transfer is not part of ${leg.chain}'s steps yet`
        : leg.kind !== 'swap'
          ? 'the route starts with a bridge, which cannot carry the fee transfer yet'
          : isTaxedLeg(leg)
            ? 'the first leg moves a taxed token, which the SwapGatewayRouter cannot swap'
            : permitLegProblem(leg, chains.permitContractsOf(leg.chain));
  const wrongToken = charged.find(
    (fee) => fee.token.address?.toLowerCase() !== leg.tokenIn.address?.toLowerCase(),
  );
  if (problem === null && wrongToken === undefined) return transfers;
  throw new CodedError(
    ErrorCodes.VALIDATION_FAILED,
    `Routes with an integrator fee are built when their first leg swaps an ERC-20 through the SwapGatewayRouter of an EVM chain or deposits into the Solana bridge; this one cannot (${problem ?? `the fee is not in ${leg.tokenIn.symbol}`}): quote with integratorFee [] to build`,
    { field: 'integratorFee', recipients: charged.length, chain: leg.chain },
  );
}

/** The first leg is an aggregator's prebuilt transaction, the only place an aggregator's fee can be. */
function aggregatorTakesFee(leg: RoutePlan['legs'][number]): boolean {
  return leg.call !== undefined && AGGREGATORS_TAKING_FEES.has(leg.provider);
}

/** The providers whose calls take the integrator fee themselves (quote-service's 0x and LI.FI). */
const AGGREGATORS_TAKING_FEES = new Set(['0x', 'lifi']);

/**
 * What keeps a Solana first leg from carrying the fee, or null: the signer builds a bridge deposit
 * itself and adds the transfers; an aggregator's prebuilt transaction (Jupiter) is signed as built.
 */
function solanaFeeLegProblem(leg: RoutePlan['legs'][number], fees: IntegratorFeeTransfer[]): string | null {
  if (leg.kind === 'bridge' || prebuiltPaysIntegratorFees(leg, fees)) return null;
  return `the ${leg.provider} transaction on ${leg.chain} is signed as the aggregator built it, without these fees`;
}
