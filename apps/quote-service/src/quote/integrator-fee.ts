import {
  baseUnitsToAmount,
  ChainDescriptor,
  findFamilyTraits,
  validateAddressForChain,
} from '@swapgw/chains';
import { isThorchainAffiliate } from '@swapgw/chains/bitcoin-bridge';
import {
  CodedError,
  ErrorCodes,
  IntegratorFeeCollector,
  IntegratorFeeShare,
  MAX_INTEGRATOR_FEE_BPS,
  RouteIntegratorFee,
  RoutePlanIntegratorFee,
} from '@swapgw/contracts';
import type { IntegratorFeeCharge, QuoteToken } from '../providers/quote-provider';
import { BPS_DENOMINATOR } from './amounts';

/** The quote's integrator fee: what each recipient is paid, and what the providers are asked to swap. */
export interface IntegratorFee {
  charges: IntegratorFeeCharge[];
  /** amountIn minus every fee: what the first leg spends and the providers are quoted for. */
  netAmountIn: bigint;
}

/** Whether a route's first transaction on `chain` can carry the fee transfer (its family says). */
function carriesIntegratorFees(chain: ChainDescriptor): boolean {
  return findFamilyTraits(chain.family)?.carriesIntegratorFees ?? false;
}

/**
 * The least integrator fee a Bitcoin first leg pays, in satoshis: Bitcoin Core's dust threshold of
 * the costliest standard output (P2PKH, 546 sat; P2WPKH 294, P2TR 330). A fee output below its
 * address's threshold would not be relayed, so such a share is refused at quote rather than folded
 * into the deposit or dropped: the recipient would otherwise not get what the quote says.
 */
export const BITCOIN_MIN_INTEGRATOR_FEE_SATS = 546n;

/**
 * The fee of a quote, taken from the input (the spec leaves the side open): each share is
 * floor(amountIn × bps / 10000) of the input token, paid on the source chain to an address of that
 * chain, and the route is quoted for what is left, so its expectedAmountOut and minAmountOut are
 * net of the fee. One rule for every route kind (same-chain, cross-chain, aggregator or not): the
 * amount is known exactly before the swap, so the recipient receives exactly what the quote says.
 * Shares of 0 bps are dropped; together the shares may not exceed MAX_INTEGRATOR_FEE_BPS.
 */
export function integratorFeeOf(
  shares: IntegratorFeeShare[] | undefined,
  amountIn: bigint,
  fromChain: ChainDescriptor,
): IntegratorFee {
  const charged = (shares ?? []).filter((share) => share.bps > 0);
  if (charged.length === 0) return { charges: [], netAmountIn: amountIn };
  const totalBps = charged.reduce((sum, share) => sum + share.bps, 0);
  if (totalBps > MAX_INTEGRATOR_FEE_BPS)
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      `integratorFee adds up to ${totalBps} bps; at most ${MAX_INTEGRATOR_FEE_BPS} bps`,
      { field: 'integratorFee', maxBps: MAX_INTEGRATOR_FEE_BPS },
    );
  if (!carriesIntegratorFees(fromChain))
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      `integratorFee cannot be paid on ${fromChain.id} (the fee is paid on the source chain, in its first transaction)`,
      { field: 'integratorFee', chain: fromChain.id },
    );
  const affiliates = new Set<IntegratorFeeShare>();
  for (const share of charged) {
    const check = validateAddressForChain(fromChain, share.recipient);
    if (check.ok) continue;
    // Not an address of the source chain: a THORChain affiliate, which only THORChain routes pay.
    if (isThorchainAffiliate(share.recipient)) {
      affiliates.add(share);
      continue;
    }
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `integratorFee recipient ${check.reason} (the fee is paid on the source chain, or by THORChain to a THORName or thor1 address)`,
      { field: 'integratorFee.recipient', chain: fromChain.id },
    );
  }
  const charges = charged.map((share) => ({
    recipient: share.recipient,
    bps: share.bps,
    amount: (amountIn * BigInt(share.bps)) / BPS_DENOMINATOR,
    ...(affiliates.has(share) ? { thorchainAffiliate: true as const } : {}),
  }));
  if (fromChain.family === 'bitcoin') {
    // A THORChain affiliate is paid by THORChain, not by an output of the PSBT.
    const dust = charges.find(
      (charge) => !charge.thorchainAffiliate && charge.amount < BITCOIN_MIN_INTEGRATOR_FEE_SATS,
    );
    if (dust)
      throw new CodedError(
        ErrorCodes.VALIDATION_FAILED,
        `integratorFee of ${dust.bps} bps to ${dust.recipient} is ${dust.amount} sat, below the ${BITCOIN_MIN_INTEGRATOR_FEE_SATS} sat a Bitcoin output must carry (dust): raise amountIn or the bps`,
        {
          field: 'integratorFee',
          chain: fromChain.id,
          minAmount: BITCOIN_MIN_INTEGRATOR_FEE_SATS.toString(),
        },
      );
  }
  return { charges, netAmountIn: amountNetOfFees(amountIn, charges) };
}

/**
 * What is left of `gross` once `charges` are paid out of it: a first leg's amountIn (RouteLeg
 * amountIn is always net of the integrator fees, whoever collects them).
 */
export function amountNetOfFees(gross: bigint, charges: readonly { amount: bigint }[] = []): bigint {
  return charges.reduce((left, charge) => left - charge.amount, gross);
}

/**
 * The shares a quote charges: the request's own when it has any (even `[]`, which means none), else
 * the API key's default restricted to the recipients that are addresses of the source chain (an
 * operator may name one recipient per chain family). A default never makes a quote fail: from
 * Bitcoin, a default share that `amountIn` makes worth less than BITCOIN_MIN_INTEGRATOR_FEE_SATS
 * (an output no node relays) is left out of that quote, where a request's own share is refused.
 */
export function requestedIntegratorFee(
  own: IntegratorFeeShare[] | undefined,
  keyDefault: IntegratorFeeShare[] | undefined,
  fromChain: ChainDescriptor,
  amountIn: bigint,
): IntegratorFeeShare[] {
  if (own !== undefined) return own;
  if (!keyDefault || !carriesIntegratorFees(fromChain)) return [];
  return keyDefault.filter(
    (share) =>
      validateAddressForChain(fromChain, share.recipient).ok &&
      (fromChain.family !== 'bitcoin' ||
        (amountIn * BigInt(share.bps)) / BPS_DENOMINATOR >= BITCOIN_MIN_INTEGRATOR_FEE_SATS),
  );
}

/** The route's `integratorFee` as POST /quote shows it: amounts in human units of the input token. */
export function routeIntegratorFeeOf(fee: IntegratorFee, tokenIn: QuoteToken): RouteIntegratorFee[] {
  return fee.charges.map((charge) => ({
    bps: charge.bps,
    amount: baseUnitsToAmount(charge.amount, tokenIn.decimals),
    token: tokenIn.symbol,
    chain: tokenIn.chain,
    recipient: charge.recipient,
  }));
}

/**
 * The fee as the route plan carries it to the planner (base units); `collectedBy: 'aggregator'`
 * when the first leg's own call takes it (the planner then adds no transfer).
 */
export function planIntegratorFeesOf(
  fee: IntegratorFee,
  tokenIn: RoutePlanIntegratorFee['token'],
  collectedBy: IntegratorFeeCollector = 'gateway',
): RoutePlanIntegratorFee[] {
  return fee.charges.map((charge) => ({
    token: tokenIn,
    recipient: charge.recipient,
    bps: charge.bps,
    amount: charge.amount.toString(),
    ...(collectedBy === 'aggregator' ? { collectedBy } : {}),
  }));
}

/**
 * The fee of one route: the quote's, or, when the route's aggregator takes the fee in its own
 * transaction, the amounts it reported (its transaction spends the whole input; netAmountIn, what is
 * left after those amounts, is its leg's amountIn).
 */
export function routeFeeOf(
  quoteFee: IntegratorFee,
  amountIn: bigint,
  takenByAggregator: IntegratorFeeCharge[] | undefined,
): IntegratorFee {
  if (!takenByAggregator) return quoteFee;
  return { charges: takenByAggregator, netAmountIn: amountNetOfFees(amountIn, takenByAggregator) };
}

/**
 * Whether the fee an aggregator reports is the one asked: the same share of the input, give or
 * take 1 base unit for its own rounding. Anything else (no fee, another amount) refuses the route,
 * since the quote would state a fee the transaction does not pay.
 */
export function reportedFeeMatches(asked: IntegratorFeeCharge, reportedAmount: bigint): boolean {
  const difference = reportedAmount - asked.amount;
  return difference >= -1n && difference <= 1n;
}
