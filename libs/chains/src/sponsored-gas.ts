import { SPONSORED_GAS_KINDS, SponsoredGasKind } from '@swapgw/contracts';
import type { ChainFamily } from './chain-descriptor';
import { type BitcoinOutputKind, bitcoinOutputKindOf } from './families/bitcoin/bitcoin-step-psbt';
import {
  cosmosFeeOf,
  type CosmosGasPrice,
  SPONSORED_COSMOS_GAS,
} from './families/cosmos/cosmos-sponsored-gas';

/**
 * Sponsored gas: the service's relayers pay every fee of a swap, the user none. This module is the
 * one table of what each sponsored transaction costs and the pure arithmetic over it, shared by
 * quote-service (the `gasCoverage` of every quoted route) and the signing side (what the relayer
 * budgets for). No I/O here: the price of a unit comes from the caller (a chain's node, or the
 * per-family fallback below).
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

/** Gas units of every EVM transaction a sponsored swap costs the relayer (approximate upper figures). */
export const SPONSORED_EVM_GAS = {
  /** The token's EIP-2612 `permit(owner, Permit2, ...)`, sent by the relayer. */
  permit: 60_000n,
  /** The user's own `approve(Permit2, max)` (tokens without EIP-2612), paid for by a gas top-up. */
  userApprove: 50_000n,
  /** A plain native transfer from the relayer to the user: the gas top-up itself. */
  gasTopUp: 21_000n,
  /**
   * The SwapGatewayRouter's `swapWithIntent` (Permit2 witness transfer + Uniswap V2 swap through
   * Router02's fee-on-transfer function, its output read at the recipient before and after): a
   * one-hop USDC → WETH measured 208,518 on the devnet.
   */
  swapIntent: 240_000n,
  /** The SwapGatewayRouter's `swapV3WithIntent` (Permit2 witness transfer + SwapRouter02 exactInput). */
  swapV3Intent: 260_000n,
  /** The SwapGatewayRouter's `bridgeWithIntent` (Permit2 witness transfer + bridge deposit). */
  bridgeIntent: 150_000n,
  /**
   * The SwapGatewayRouter's `bridgeAndSwapWithIntent` on the source chain (Permit2 witness transfer +
   * bridge deposit carrying the destination swap as its message).
   */
  bridgeSwapIntent: 200_000n,
  /** The SwapGatewayRouter's `acrossWithIntent` (Permit2 witness transfer + SpokePool deposit). */
  acrossIntent: 200_000n,
  /** `acrossAndSwapWithIntent`: as acrossIntent, the deposit carrying the destination swap as its message. */
  acrossSwapIntent: 240_000n,
  /** The user's own transaction of a native-input leg (value carries the input), paid by a top-up. */
  nativeInputUserTx: 150_000n,
  /** The relayer's `release` on the destination of a bridge it relays (new record + token transfer). */
  bridgeRelease: 80_000n,
} as const;

/**
 * What each integrator fee recipient adds to the sponsored transaction that pays it (approximate
 * upper figures; the recipient is taken to be a fresh account, with no balance of the token yet).
 */
export const SPONSORED_FEE_RECIPIENT_COSTS = {
  /**
   * EVM gas of the router's ERC-20 `transfer` to the recipient, its `Transfer` event included: the
   * recipient's cold balance slot written from zero (2,100 + 20,000), the router's own balance, the
   * call and the token's checks (a proxied token such as USDC reads more).
   */
  evmTokenTransfer: 30_000n,
  /**
   * EVM gas of the router's native-coin call to the recipient (native-input leg): a cold account
   * (2,600), a value transfer (9,000) and a new account (25,000).
   */
  evmNativeTransfer: 37_000n,
  /**
   * EVM gas of the router's `IntegratorFeePaid` event (4 topics and 32 bytes of data: 2,131) and of
   * the fee's 64 bytes of calldata.
   */
  evmFeePaidEvent: 3_000n,
  /**
   * EVM gas paid once when an ERC-20 input pays any fee: the router approves the venue again for
   * what is left after the fees (`forceApprove`: a warm allowance write and its `Approval` event;
   * on the devnet the first fee costs about 3,200 gas more than the second).
   */
  evmTokenFeesReapproval: 5_000n,
  /** Solana: token accounts created per recipient of an SPL input (its associated token account). */
  solanaTokenAccounts: 1,
} as const;

/**
 * Virtual bytes of one Bitcoin output (8-byte value, script length, script; no witness) by the kind
 * of address it pays: an integrator fee output's size (estimateBitcoinWeight counts the same).
 */
export const BITCOIN_OUTPUT_VBYTES: Record<BitcoinOutputKind, bigint> = {
  p2wpkh: 31n,
  p2sh: 32n,
  p2pkh: 34n,
  p2wsh: 43n,
  p2tr: 43n,
};

/**
 * Virtual bytes of a sponsored Bitcoin step's transaction, upper figure: two P2WPKH user inputs and
 * the fee wallet's (68 vB each), the payment, an 80-byte OP_RETURN memo and two changes (31 to 43
 * vB each, 91 for the memo) and the 11 vB of version, counts and locktime. Integrator fees add
 * their outputs (BITCOIN_OUTPUT_VBYTES, one per recipient).
 */
export const BITCOIN_SPONSORED_VBYTES = 450n;

/**
 * EVM gas the integrator fees add to the router call (or native-input transaction) that pays them:
 * a transfer and an event per recipient, and for an ERC-20 input the venue's approval again, once.
 */
export function evmIntegratorFeeGas(recipients: number, nativeInput: boolean): bigint {
  if (recipients === 0) return 0n;
  const costs = SPONSORED_FEE_RECIPIENT_COSTS;
  const transfer = nativeInput ? costs.evmNativeTransfer : costs.evmTokenTransfer;
  const once = nativeInput ? 0n : costs.evmTokenFeesReapproval;
  return once + BigInt(recipients) * (transfer + costs.evmFeePaidEvent);
}

/**
 * Virtual bytes the integrator fee outputs add to a Bitcoin transaction, one per recipient sized by
 * its address's kind (an address of no standard kind, which the quote refuses, as the largest).
 */
export function bitcoinIntegratorFeeVbytes(recipients: readonly string[]): bigint {
  return recipients.reduce(
    (sum, recipient) => sum + BITCOIN_OUTPUT_VBYTES[bitcoinOutputKindOf(recipient) ?? 'p2tr'],
    0n,
  );
}

/** Solana fees the relayer pays as fee payer (lamports). */
export const SOLANA_SPONSORED_FEES = {
  /** Base fee per signature of a transaction (no priority fee is added by the relayer). */
  lamportsPerSignature: 5_000n,
  /** Rent-exempt minimum of an SPL token account (165 bytes): what creating an associated token account costs. */
  tokenAccountRent: 2_039_280n,
  /** Size of an SPL token account, for getMinimumBalanceForRentExemption. */
  tokenAccountBytes: 165,
  /** Signatures of a user's transaction paid by the relayer: the relayer's (fee payer) and the user's. */
  userTransactionSignatures: 2n,
  /** Signatures of a release the relayer sends alone. */
  releaseSignatures: 1n,
} as const;

/**
 * Price of one unit when the chain's node cannot tell it (node unreachable, or no RPC configured:
 * aggregator routes on real networks). EVM: 2 gwei per gas, the order of Ethereum mainnet's recent
 * fees (well above an L2's). Solana: the protocol's base fee and the rent of a token account, which
 * do not depend on the moment.
 */
export const SPONSORED_FEE_FALLBACKS: Record<SponsoredFamily, SponsoredFeeRates> = {
  evm: { feePerGas: 2_000_000_000n, tokenAccountRent: 0n },
  solana: {
    feePerGas: SOLANA_SPONSORED_FEES.lamportsPerSignature,
    tokenAccountRent: SOLANA_SPONSORED_FEES.tokenAccountRent,
  },
  // Sat/vB: a busy mempool's next-blocks rate, well above the 1 sat/vB floor.
  bitcoin: { feePerGas: 20n, tokenAccountRent: 0n },
  // One base unit of the fee denom per gas: above every listed chain's minimum (0.005uatom,
  // 0.03uosmo, 0.1uusdc). Only for a Cosmos chain the registry does not describe (its price is its own).
  cosmos: { feePerGas: 1n, tokenAccountRent: 0n },
};

/** The families that carry swaps (those with sponsored fee figures): every family the suite signs on. */
export function swapFamilyOf(family: ChainFamily | undefined): SponsoredFamily | undefined {
  return family !== undefined && family in SPONSORED_FEE_FALLBACKS ? (family as SponsoredFamily) : undefined;
}

/**
 * The fallback price of a unit on a chain of `family` (a chain of no swap family, which no leg is
 * on, is priced as EVM).
 */
export function sponsoredFeeFallbackOf(family: ChainFamily | undefined): SponsoredFeeRates {
  return SPONSORED_FEE_FALLBACKS[swapFamilyOf(family) ?? 'evm'];
}

/** A swap family's native coin, for a chain the registry does not list (never a leg's own chain). */
export const NATIVE_COIN_FALLBACKS: Record<
  SponsoredFamily,
  { nativeSymbol: string; nativeDecimals: number }
> = {
  evm: { nativeSymbol: 'ETH', nativeDecimals: 18 },
  solana: { nativeSymbol: 'SOL', nativeDecimals: 9 },
  bitcoin: { nativeSymbol: 'BTC', nativeDecimals: 8 },
  cosmos: { nativeSymbol: 'ATOM', nativeDecimals: 6 },
};

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

/**
 * One sponsored cost on one chain. `gasUnits` are EVM gas, on Solana the signatures paid for
 * (priced per signature), on Bitcoin virtual bytes (priced per vbyte); `tokenAccounts` counts token
 * accounts whose rent is paid.
 */
export interface SponsoredStep {
  kind: SponsoredStepKind;
  chain: string;
  family: SponsoredFamily;
  /** Index of the route leg the step belongs to. */
  leg: number;
  gasUnits: bigint;
  tokenAccounts: number;
}

/** The families a swap leg can be on: every family, Cosmos's fees paid by its fee granter (x/feegrant). */
export type SponsoredFamily = ChainFamily;

/** The parts of a route leg that decide what the relayer pays for it. */
export interface SponsoredLegView {
  kind: 'swap' | 'bridge';
  chain: string;
  family: SponsoredFamily;
  /** null = the chain's native coin. */
  tokenIn: { address: string | null };
  tokenOut: { address: string | null };
  /**
   * EVM ERC-20 input: the token implements EIP-2612 `permit` (devnet manifest `tokens[].permit`).
   * Unknown (real networks) counts as false: approve + top-up, the dearer of the two.
   */
  inputHasEip2612?: boolean;
  /** Bridge legs: the chain the bridge delivers to, and its family. */
  destinationChain?: string;
  destinationFamily?: SponsoredFamily;
  /** Bridge legs: an Across deposit (acrossWithIntent, dearer than the devnet bridge's deposit). */
  across?: boolean;
  /**
   * Bridge legs: the service's relayer sends the release on the destination (the devnet bridge).
   * False for a bridge that delivers by itself (an aggregator's): nothing is paid there by us.
   */
  releasedByRelayer?: boolean;
  /**
   * The integrator fee recipients this leg's transaction pays (addresses of the leg's chain), one
   * payment each: the route's first leg carries the quote's fees, the others none.
   */
  integratorFeeRecipients?: readonly string[];
  /** Cosmos legs: the wallet signs a transaction for this leg (not a swap run on arrival). */
  cosmosSigned?: boolean;
  /** Cosmos legs: the first signed leg on its chain, whose fee the granter may have to grant first. */
  cosmosFeeGrant?: boolean;
}

/** Gas units of one EVM step kind (the table above); 0 for Solana-only kinds. */
export function evmGasUnitsOf(kind: SponsoredStepKind): bigint {
  switch (kind) {
    case 'permit':
      return SPONSORED_EVM_GAS.permit;
    case 'approve-top-up':
      return SPONSORED_EVM_GAS.userApprove + SPONSORED_EVM_GAS.gasTopUp;
    case 'swap-intent':
      return SPONSORED_EVM_GAS.swapIntent;
    case 'bridge-intent':
      return SPONSORED_EVM_GAS.bridgeIntent;
    case 'native-input-top-up':
      return SPONSORED_EVM_GAS.nativeInputUserTx + SPONSORED_EVM_GAS.gasTopUp;
    case 'bridge-release':
      return SPONSORED_EVM_GAS.bridgeRelease;
    case 'solana-transaction':
    case 'solana-ata-rent':
    case 'bitcoin-transaction':
    case 'cosmos-fee-grant':
    case 'cosmos-transaction':
      return 0n;
  }
}

/**
 * What the relayer pays for one leg, upper bound (the permit / approve step is always counted, and
 * the rent of every token account that may have to be created), in the order it is sent. A bridge
 * leg's release is a step on the destination chain. The leg's integrator fees are counted in the
 * transaction that pays them (router call, native-input transaction, Bitcoin transaction), and on
 * Solana as the token accounts the transaction may create for their recipients.
 */
export function sponsoredStepsOfLeg(leg: SponsoredLegView, index: number): SponsoredStep[] {
  const steps: SponsoredStep[] = [];
  const on = (
    kind: SponsoredStepKind,
    chain: string,
    family: SponsoredFamily,
    gasUnits: bigint,
    tokenAccounts = 0,
  ) => steps.push({ kind, chain, family, leg: index, gasUnits, tokenAccounts });

  const feeRecipients = leg.integratorFeeRecipients ?? [];
  if (leg.family === 'evm') {
    const fees = evmIntegratorFeeGas(feeRecipients.length, leg.tokenIn.address === null);
    if (leg.tokenIn.address === null) {
      on('native-input-top-up', leg.chain, 'evm', evmGasUnitsOf('native-input-top-up') + fees);
    } else {
      const allowance: SponsoredStepKind = leg.inputHasEip2612 ? 'permit' : 'approve-top-up';
      on(allowance, leg.chain, 'evm', evmGasUnitsOf(allowance));
      const intent: SponsoredStepKind = leg.kind === 'bridge' ? 'bridge-intent' : 'swap-intent';
      // An Across deposit may carry the destination swap: counted at the dearer of its two calls.
      const gasUnits = leg.across ? SPONSORED_EVM_GAS.acrossSwapIntent : evmGasUnitsOf(intent);
      on(intent, leg.chain, 'evm', gasUnits + fees);
    }
  } else if (leg.family === 'bitcoin') {
    const vbytes = BITCOIN_SPONSORED_VBYTES + bitcoinIntegratorFeeVbytes(feeRecipients);
    on('bitcoin-transaction', leg.chain, 'bitcoin', vbytes);
  } else if (leg.family === 'cosmos') {
    if (leg.cosmosSigned && leg.cosmosFeeGrant)
      on('cosmos-fee-grant', leg.chain, 'cosmos', SPONSORED_COSMOS_GAS.feeGrant);
    if (leg.cosmosSigned) on('cosmos-transaction', leg.chain, 'cosmos', SPONSORED_COSMOS_GAS.transaction);
  } else {
    on('solana-transaction', leg.chain, 'solana', SOLANA_SPONSORED_FEES.userTransactionSignatures);
    // An SPL fee creates each recipient's associated token account it lacks, at the fee payer's rent.
    if (leg.tokenIn.address !== null && feeRecipients.length > 0) {
      const accounts = feeRecipients.length * SPONSORED_FEE_RECIPIENT_COSTS.solanaTokenAccounts;
      on('solana-ata-rent', leg.chain, 'solana', 0n, accounts);
    }
    // A swap into an SPL token may create the recipient's associated token account for it.
    if (leg.kind === 'swap' && leg.tokenOut.address !== null)
      on('solana-ata-rent', leg.chain, 'solana', 0n, 1);
  }

  if (leg.kind === 'bridge' && leg.releasedByRelayer && leg.destinationChain && leg.destinationFamily) {
    if (leg.destinationFamily === 'evm') {
      on('bridge-release', leg.destinationChain, 'evm', evmGasUnitsOf('bridge-release'));
    } else if (leg.destinationFamily === 'solana') {
      on('bridge-release', leg.destinationChain, 'solana', SOLANA_SPONSORED_FEES.releaseSignatures);
      if (leg.tokenOut.address !== null) on('solana-ata-rent', leg.destinationChain, 'solana', 0n, 1);
    }
  }
  return steps;
}

/**
 * The price of a unit on one chain: wei per gas (EVM), lamports per signature (Solana), sats per
 * vbyte (Bitcoin), base units of the fee denom per gas (Cosmos), and rent.
 */
export interface SponsoredFeeRates {
  /** EVM: wei per gas. Solana: lamports per signature. Cosmos: `gasPrice` rounded up. */
  feePerGas: bigint;
  /** Solana: lamports of rent of one token account; 0 on EVM. */
  tokenAccountRent: bigint;
  /** Cosmos: the chain's minimum gas price, exact (a fraction of a base unit per gas, e.g. 0.005uatom). */
  gasPrice?: CosmosGasPrice;
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
