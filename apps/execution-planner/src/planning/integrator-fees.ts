import { ChainFamily, familyTraitsOf, PermitContracts } from '@swapgw/chains';
import { thorchainAffiliatesTake } from '@swapgw/chains/bitcoin-bridge';
import { type IntegratorFeeTransfer, prebuiltPaysIntegratorFees } from '@swapgw/chains/families';
import { CodedError, ErrorCodes, RouteLeg, RoutePlan } from '@swapgw/contracts';

/** What the check reads of chains: their family, and their permit contracts (the SwapGatewayRouter). */
export interface IntegratorFeeChains {
  familyOf: (chain: string) => ChainFamily;
  permitContractsOf: (chain: string) => PermitContracts | undefined;
}

/**
 * The integrator fees the route's first transaction pays (recipient and amount in base units of the
 * input token), or [] for a plan without a charged fee or one whose fees the first leg's own
 * prebuilt call takes. The fee is paid on chain in the same transaction as the first leg:
 *  - on an EVM chain, by the chain's SwapGatewayRouter, which pays each recipient and spends the
 *    rest through the leg's venue: a swap through a Uniswap venue, of an ERC-20 (swapWithFees /
 *    swapV3WithFees, or the sponsored swap intent, which carries the fees) or of the native coin
 *    (the same entry points sent with the value, the fees paid in the native coin); or a devnet
 *    bridge deposit towards an EVM chain (user-paid depositWithFees, or the sponsored bridge or
 *    bridge-swap intent, which carries the fees) or towards Solana or Bitcoin (user-paid
 *    depositToWithFees, the bridge's depositTo, or the sponsored bridge-to intent, which carries
 *    the fees); or an Across deposit, the wallet being the depositor (user-paid acrossWithFees, or
 *    the sponsored Across intent, or Across-swap intent when the fill swaps on the destination,
 *    which carries the fees);
 *  - on Solana, in the bridge deposit's transaction the signer builds, a token transfer per
 *    recipient before the deposit (solanaIntegratorFeeInstructions);
 *  - on Bitcoin, in the bridge deposit's PSBT the signer builds, an output per recipient beside the
 *    deposit (buildBitcoinStepPsbt), user-paid or sponsored alike (the fee wallet pays the miner);
 *  - fees `collectedBy: 'aggregator'` are taken by the first leg's own prebuilt transaction (0x
 *    swapFeeBps, LI.FI fee, Jupiter's platform fee): the quote asked the aggregator for them and
 *    checked its answer. The gateway adds nothing to it (a transfer would charge the fee twice); see
 *    takenByPrebuiltLeg. A THORChain deposit whose memo names the recipients as affiliates
 *    (THORNames, thor1 addresses) is such a leg: THORChain takes the fees out of the deposit, which
 *    carries the leg's amountIn plus the fees. A mix with fees the gateway pays is refused.
 * Every sponsored intent carries the fees, so who pays the gas does not matter here; nor do a taxed
 * token's taxes (the router's Router02 swaps are the fee-on-transfer ones). Any other first leg (a
 * prebuilt call without the fee) is refused with 400
 * VALIDATION_FAILED, field integratorFee: a build that left the fee out would hand the integrator's
 * share back to the user while the quote said it was paid. Pure: the builder calls it before
 * reading any chain.
 */
export function integratorFeeTransfersOf(
  plan: RoutePlan,
  chains: IntegratorFeeChains,
): IntegratorFeeTransfer[] {
  const charged = (plan.integratorFees ?? []).filter((fee) => BigInt(fee.amount) > 0n);
  if (charged.length === 0) return [];
  const transfers = charged.map((fee) => ({ recipient: fee.recipient, amount: BigInt(fee.amount) }));
  const leg = plan.legs[0];
  const wrongToken = charged.find(
    (fee) => fee.token.address?.toLowerCase() !== leg.tokenIn.address?.toLowerCase(),
  );
  const taken = charged.every((fee) => fee.collectedBy === 'aggregator')
    ? takenByPrebuiltLeg(leg, transfers)
    : undefined;
  const problem = charged.some((fee) => fee.collectedBy === 'aggregator')
    ? taken
      ? null
      : 'its fee was quoted inside an aggregator transaction the first leg does not carry as quoted'
    : feeLegProblem(leg, chains);
  const refusal = problem ?? (wrongToken === undefined ? null : `the fee is not in ${leg.tokenIn.symbol}`);
  if (refusal === null) return taken ?? transfers;
  throw new CodedError(
    ErrorCodes.VALIDATION_FAILED,
    `Routes with an integrator fee are built when their first leg goes through the SwapGatewayRouter of an EVM chain (a Uniswap swap or a bridge deposit) or deposits into the Solana or Bitcoin bridge; this one cannot (${refusal}): quote with integratorFee [] to build`,
    { field: 'integratorFee', recipients: charged.length, chain: leg.chain },
  );
}

/**
 * Why the first leg cannot pay the fees in its own transaction, or null when it can: its family's
 * answer (its traits' integratorFeeLegProblem), a family without one not carrying the transfer.
 */
function feeLegProblem(leg: RouteLeg, chains: IntegratorFeeChains): string | null {
  const traits = familyTraitsOf(chains.familyOf(leg.chain));
  if (!traits.integratorFeeLegProblem) return `the fee transfer is not part of ${leg.chain}'s steps yet`;
  return traits.integratorFeeLegProblem(leg, chains);
}

/**
 * What the build passes on for fees the first leg's prebuilt transaction takes itself, or undefined
 * when the leg carries no such transaction (the aggregator's answer was quoted into one, so the
 * build is refused). The fees go on to its step, which adds nothing to the transaction: an EVM call
 * (0x, LI.FI) is sent as built, its approve covering the leg's amountIn and the fees (evmStepOf); a
 * Solana transaction (Jupiter) records the fee it pays (RouteSolanaTransaction integratorFee), which
 * must be these fees (prebuiltPaysIntegratorFees), checked again before it is handed out (solanaStepOf);
 * a THORChain deposit names them as its memo's affiliates and deposits the gross amount.
 */
function takenByPrebuiltLeg(
  leg: RouteLeg,
  fees: IntegratorFeeTransfer[],
): IntegratorFeeTransfer[] | undefined {
  if (leg.call) return fees;
  if (leg.solanaTransaction && prebuiltPaysIntegratorFees(leg, fees)) return fees;
  if (leg.thorchain && thorchainAffiliatesTake(leg.thorchain, fees)) return fees;
  return undefined;
}
