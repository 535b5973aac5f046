import { CHAIN_FAMILIES, SPONSORED_GAS_KINDS, SponsoredGasKind } from '@swapgw/contracts';
import type { ChainFamily } from './chain-descriptor';
import { cosmosFeeOf } from './families/cosmos/cosmos-sponsored-gas';
import { EVM_FEE_RECIPIENT_COSTS } from './families/evm/evm-sponsored-gas';
import type {
  SponsoredCostSink,
  SponsoredFamily,
  SponsoredFeeRates,
  SponsoredLegView,
  SponsoredStep,
} from './families/family-traits';
import { familyTraitsOf, findFamilyTraits } from './families/family-traits-table';
import { SOLANA_FEE_RECIPIENT_TOKEN_ACCOUNTS } from './families/solana/solana-sponsored-gas';

/**
 * Sponsored gas: the service's relayers pay every fee of a swap, the user none. This module is the
 * one table of what each sponsored transaction costs and the pure arithmetic over it, shared by
 * quote-service (the `gasCoverage` of every quoted route) and the signing side (what the relayer
 * budgets for). No I/O here: the price of a unit comes from the caller (a chain's node, or the
 * per-family fallback below). Each family's figures and what a leg on it costs are its own
 * (`sponsoredCostsOfLeg`, `bridgeReleaseCosts` and the fallbacks of its traits, with its table in
 * `families/<family>/<family>-sponsored-gas.ts`); here the route's arithmetic over them.
 *
 * What the relayer sends, per leg of a route:
 *  - EVM leg with an ERC-20 input: when the user's Permit2 allowance is short, either the token's
 *    EIP-2612 `permit` (tokens that have one: USDC, DAI; devnet manifest `tokens[].permit`) or, for
 *    tokens without EIP-2612 (WETH9), a gas top-up to the user (a plain transfer) that pays for the
 *    user's own `approve(Permit2)`; then one router call, `swapWithIntent` / `bridgeWithIntent`,
 *    carrying the user's Permit2 witness signature. A quote does not know the user's allowance, so
 *    an estimate always counts the permit / approve step: an upper bound.
 *  - EVM leg with a native input: the user's own transaction, preceded by a gas top-up covering it.
 *  - Solana leg: the user's transaction with the relayer as fee payer (its signature and the
 *    user's, 5,000 lamports each); plus the rent of an associated token account the transaction
 *    may create for the output (SPL output).
 *  - Bitcoin leg: the user's transaction, whose miner fee the service's fee wallet input pays in
 *    full (priced per virtual byte).
 *  - Cosmos leg the wallet signs (one transaction; a swap run on arrival by the IBC transfer before
 *    it, or a leg continuing the previous one, signs nothing): its fee, which the service's fee
 *    granter pays through x/feegrant, preceded by the grant the granter may have to send first
 *    (counted on the route's first signed leg of each Cosmos chain: an upper bound). Priced at the
 *    chain's minimum gas price, each transaction's fee rounded up to a whole base unit.
 *  - A bridge the relayer releases (the devnet bridge): the release on the destination chain. On
 *    Solana the release pays one signature and, when the recipient has no associated token account
 *    for the bridged mint, the rent of the one it creates (counted: an upper bound again). A payout
 *    in BTC is not the service's cost: its miner fee comes out of what it pays (the bridge's
 *    outbound fee, already in the quote's amounts).
 *
 * Integrator fees are paid on the source chain inside the route's first sponsored transaction, one
 * payment per recipient, before the swap or deposit (SPONSORED_FEE_RECIPIENT_COSTS): on EVM the
 * router's ERC-20 `transfer` to each recipient (a native-coin call on a native-input leg) and its
 * `IntegratorFeePaid` event, then, once, its approval of the venue for what is left; on Bitcoin
 * one more output per recipient, sized by its address's kind; on Solana one token transfer
 * instruction per recipient (no signature: no lamports), preceded, for an SPL input, by the
 * creation of the recipient's associated token account when it has none, whose rent the fee payer
 * pays (counted for every recipient: an upper bound again).
 */

// The EVM and Solana tables, which the apps' relayers and fee payers read through @swapgw/chains.
export { evmGasUnitsOf, evmIntegratorFeeGas, SPONSORED_EVM_GAS } from './families/evm/evm-sponsored-gas';
export { SOLANA_SPONSORED_FEES } from './families/solana/solana-sponsored-gas';

/**
 * What each integrator fee recipient adds to the sponsored transaction that pays it, per family
 * (approximate upper figures; the recipient is taken to be a fresh account, with no balance of the
 * token yet): EVM gas, and the token accounts a Solana SPL fee creates.
 */
export const SPONSORED_FEE_RECIPIENT_COSTS = {
  ...EVM_FEE_RECIPIENT_COSTS,
  /** Solana: token accounts created per recipient of an SPL input (its associated token account). */
  solanaTokenAccounts: SOLANA_FEE_RECIPIENT_TOKEN_ACCOUNTS,
} as const;

/**
 * Price of one unit when the chain's node cannot tell it (node unreachable, or no RPC configured:
 * aggregator routes on real networks), per family: its traits' `sponsoredFeeFallback` (EVM: 2 gwei
 * per gas, the order of Ethereum mainnet's recent fees; Solana: the protocol's base fee and the
 * rent of a token account, which do not depend on the moment).
 */
export const SPONSORED_FEE_FALLBACKS = Object.fromEntries(
  CHAIN_FAMILIES.map((family) => [family, familyTraitsOf(family).sponsoredFeeFallback]),
) as Record<SponsoredFamily, SponsoredFeeRates>;

/** The families that carry swaps (those with sponsored fee figures): every family the suite signs on. */
export function swapFamilyOf(family: ChainFamily | undefined): SponsoredFamily | undefined {
  return findFamilyTraits(family) ? family : undefined;
}

/**
 * The fallback price of a unit on a chain of `family` (a chain of no swap family, which no leg is
 * on, is priced as EVM).
 */
export function sponsoredFeeFallbackOf(family: ChainFamily | undefined): SponsoredFeeRates {
  return SPONSORED_FEE_FALLBACKS[swapFamilyOf(family) ?? 'evm'];
}

/** A swap family's native coin, for a chain the registry does not list (never a leg's own chain). */
export const NATIVE_COIN_FALLBACKS = Object.fromEntries(
  CHAIN_FAMILIES.map((family) => [family, familyTraitsOf(family).nativeCoinFallback]),
) as Record<SponsoredFamily, { nativeSymbol: string; nativeDecimals: number }>;

/**
 * The kinds of sponsored cost, one row of the table each (the list is the wire vocabulary of quotes'
 * `gasCoverage`, declared in @swapgw/contracts):
 *  - `permit`: EVM, the relayer sends the token's EIP-2612 permit (60k gas);
 *  - `approve-top-up`: EVM, the relayer's top-up (21k) paying for the user's approve(Permit2) (50k);
 *  - `swap-intent` / `bridge-intent`: EVM, the relayer's router call (200k / 150k);
 *  - `native-input-top-up`: EVM, the user's native-input transaction (150k) and the top-up paying it (21k);
 *  - `bridge-release`: the relayer's release on the destination (EVM 80k gas; Solana 1 signature);
 *  - `solana-transaction`: the user's Solana transaction, relayer as fee payer (2 signatures);
 *  - `solana-ata-rent`: the rent of an associated token account created for the recipient;
 *  - `bitcoin-transaction`: the user's Bitcoin transaction, its miner fee paid by the service's
 *    fee wallet input (virtual bytes);
 *  - `cosmos-fee-grant`: the fee granter's grant of an x/feegrant allowance to the wallet (gas);
 *  - `cosmos-transaction`: the user's Cosmos transaction, its fee paid by the fee granter (gas).
 *
 * A leg's integrator fees are part of the transaction that pays them (SPONSORED_FEE_RECIPIENT_COSTS):
 * the router call (`swap-intent` / `bridge-intent`, 33k gas per recipient and 5k once), the
 * native-input transaction (`native-input-top-up`, 40k per recipient), the Bitcoin transaction (an
 * output's vbytes), and on Solana the recipients' token accounts (`solana-ata-rent`).
 */
export const SPONSORED_STEP_KINDS = SPONSORED_GAS_KINDS;
export type SponsoredStepKind = SponsoredGasKind;
export type { SponsoredFamily, SponsoredFeeRates, SponsoredLegView, SponsoredStep };

/**
 * What the relayer pays for one leg, upper bound (the permit / approve step is always counted, and
 * the rent of every token account that may have to be created), in the order it is sent. A bridge
 * leg's release is a step on the destination chain. The leg's integrator fees are counted in the
 * transaction that pays them (router call, native-input transaction, Bitcoin transaction), and on
 * Solana as the token accounts the transaction may create for their recipients.
 */
export function sponsoredStepsOfLeg(leg: SponsoredLegView, index: number): SponsoredStep[] {
  const steps: SponsoredStep[] = [];
  const pay: SponsoredCostSink = (kind, chain, family, gasUnits, tokenAccounts = 0) =>
    steps.push({ kind, chain, family, leg: index, gasUnits, tokenAccounts });
  familyTraitsOf(leg.family).sponsoredCostsOfLeg(leg, pay);
  const { destinationChain, destinationFamily } = leg;
  if (leg.kind === 'bridge' && leg.releasedByRelayer && destinationChain && destinationFamily)
    findFamilyTraits(destinationFamily)?.bridgeReleaseCosts?.({ ...leg, destinationChain }, pay);
  return steps;
}

/**
 * Cost of one step in the chain's base units (wei / lamports / sats / the Cosmos fee denom's). A
 * Cosmos transaction's fee is its gas at the exact price, rounded up to a whole base unit.
 */
export function sponsoredStepCost(
  step: Pick<SponsoredStep, 'gasUnits' | 'tokenAccounts'>,
  rates: SponsoredFeeRates,
): bigint {
  const gas = rates.gasPrice ? cosmosFeeOf(step.gasUnits, rates.gasPrice) : step.gasUnits * rates.feePerGas;
  return gas + BigInt(step.tokenAccounts) * rates.tokenAccountRent;
}

/** One chain's total of a route's sponsored steps. */
export interface SponsoredChainTotal {
  chain: string;
  family: SponsoredFamily;
  gasUnits: bigint;
  cost: bigint;
  steps: Array<SponsoredStep & { cost: bigint }>;
}

/**
 * The steps of every leg of a route, totalled per chain in the order the chains are first touched
 * (a leg's chain, then its bridge's destination). Every chain a leg touches is listed, with 0 when
 * the relayer pays nothing there (an aggregator's bridge delivering by itself).
 */
export function sponsoredTotalsOfRoute(
  legs: readonly SponsoredLegView[],
  ratesOf: (chain: string) => SponsoredFeeRates,
): SponsoredChainTotal[] {
  const totals = new Map<string, SponsoredChainTotal>();
  const touch = (chain: string, family: SponsoredFamily): SponsoredChainTotal => {
    let total = totals.get(chain);
    if (!total) {
      total = { chain, family, gasUnits: 0n, cost: 0n, steps: [] };
      totals.set(chain, total);
    }
    return total;
  };
  legs.forEach((leg, index) => {
    touch(leg.chain, leg.family);
    if (leg.kind === 'bridge' && leg.destinationChain && leg.destinationFamily)
      touch(leg.destinationChain, leg.destinationFamily);
    for (const step of sponsoredStepsOfLeg(leg, index)) {
      const total = touch(step.chain, step.family);
      const cost = sponsoredStepCost(step, ratesOf(step.chain));
      total.gasUnits += step.gasUnits;
      total.cost += cost;
      total.steps.push({ ...step, cost });
    }
  });
  return [...totals.values()];
}

/**
 * A base-unit amount in whole native units, rounded half up to `significantDigits` significant
 * digits (the integer part is always kept whole), trailing zeros dropped: 412345678901234 wei at
 * 18 decimals → "0.000412". A positive amount never reads "0".
 */
export function formatNativeAmount(amount: bigint, decimals: number, significantDigits = 3): string {
  if (amount < 0n) throw new RangeError('amount must not be negative');
  if (!Number.isInteger(decimals) || decimals < 0)
    throw new RangeError('decimals must be a non-negative integer');
  if (!Number.isInteger(significantDigits) || significantDigits < 1)
    throw new RangeError('significantDigits must be a positive integer');
  if (amount === 0n) return '0';
  // Keep the digits down to the `significantDigits`-th significant one (at least the units digit).
  const digits = amount.toString().length;
  const keepFrom = Math.max(digits - significantDigits, 0);
  const dropped = Math.min(keepFrom, decimals);
  let kept = amount;
  if (dropped > 0) {
    const unit = 10n ** BigInt(dropped);
    kept = (amount + unit / 2n) / unit;
  }
  const fractionDigits = decimals - dropped;
  const text = kept.toString().padStart(fractionDigits + 1, '0');
  const whole = text.slice(0, text.length - fractionDigits);
  const fraction = text.slice(text.length - fractionDigits).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * The gas limit of a transaction a relayer sends: the node's estimate with `percent` head room
 * (GAS_LIMIT_PERCENT), plus `extra` gas (RELAYER_GAS_EXTRA). An estimate is exact for the pending
 * block only, and state written in between can cost more than any percentage of a small call: a
 * Uniswap V2 pair's price accumulators, already written in the block the estimate saw, are written
 * again in the next one (on a fresh pair two zero-to-nonzero SSTOREs, about 44,000 gas). The
 * relayer pays for the gas used, not the limit, so the extra costs nothing when unused.
 */
export function relayedGasLimit(estimate: bigint, headroom: { percent: number; extra: number }): bigint {
  return (estimate * BigInt(Math.round(headroom.percent))) / 100n + BigInt(headroom.extra);
}

/** RELAYER_GAS_EXTRA's default: above the two accumulator writes of a fresh Uniswap V2 pair. */
export const DEFAULT_RELAYER_GAS_EXTRA = 50_000;
