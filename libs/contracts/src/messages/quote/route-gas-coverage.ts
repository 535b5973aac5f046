/** The gas the service sponsors on a route (QuoteRouteSummary `gasCoverage`). */
import { CHAIN_FAMILIES, type ChainFamily } from '../chain-formats';
import { FAMILY_SPONSORSHIP } from '../signing/signing-sponsorship';

/** Where the price of a gas unit came from: the chain's node (read within the last 10 s) or the documented per-family fallback. */
export const GAS_FEE_SOURCES = ['node', 'fallback'] as const;
export type GasFeeSource = (typeof GAS_FEE_SOURCES)[number];

/**
 * The kinds of sponsored cost, each family's listed with its sponsorship modes (FAMILY_SPONSORSHIP;
 * gas units per kind: the table of @swapgw/chains sponsored-gas):
 *  - `permit`: EVM, the relayer sends the token's EIP-2612 permit;
 *  - `approve-top-up`: EVM, a gas top-up to the user paying for the user's own approve(Permit2)
 *    (tokens without EIP-2612, e.g. WETH9);
 *  - `swap-intent` / `bridge-intent`: EVM, the relayer's router call (`swapWithIntent` /
 *    `bridgeWithIntent`) carrying the user's Permit2 witness signature;
 *  - `native-input-top-up`: EVM, the user's own native-input transaction and the top-up paying it;
 *  - `bridge-release`: the relayer's release on a bridge's destination (devnet bridge);
 *  - `solana-transaction`: a Solana transaction of the user with the relayer as fee payer;
 *  - `solana-ata-rent`: the rent of an associated token account created for the recipient;
 *  - `bitcoin-transaction`: a Bitcoin transaction whose miner fee a service fee wallet's input pays;
 *  - `cosmos-fee-grant`: the service's fee granter grants the wallet an x/feegrant allowance;
 *  - `cosmos-transaction`: a Cosmos transaction of the user whose fee the fee granter pays.
 */
export const SPONSORED_GAS_KINDS: readonly SponsoredGasKind[] = CHAIN_FAMILIES.flatMap(
  (family) => FAMILY_SPONSORSHIP[family].gasKinds,
);
export type SponsoredGasKind = (typeof FAMILY_SPONSORSHIP)[ChainFamily]['gasKinds'][number];

/** One sponsored transaction (or rent) of a route on one chain. */
export interface RouteGasCoverageItem {
  kind: SponsoredGasKind;
  /** Index of the route leg (plan order) the item belongs to. */
  leg: number;
  /** Decimal string: EVM and Cosmos gas units; Solana signatures paid; Bitcoin virtual bytes; "0" for rent. */
  estimatedGasUnits: string;
  /** Decimal string, base units of the chain's native coin (wei / lamports / sats / uatom...). */
  estimatedCostBaseUnits: string;
}

/** What the service expects to pay on one chain of a route. */
export interface RouteGasCoverageChain {
  chain: string;
  nativeSymbol: string;
  nativeDecimals: number;
  /** Decimal string: EVM and Cosmos gas units of every sponsored transaction on the chain; Solana: signatures paid. */
  estimatedGasUnits: string;
  /**
   * Decimal string (an integer): the price used per unit, wei per gas (EVM), lamports per signature
   * (Solana), sats per vbyte (Bitcoin); on Cosmos chains the minimum gas price rounded up to a whole
   * base unit (the exact, fractional price is `gasPrice`).
   */
  feePerGasBaseUnits: string;
  /**
   * Cosmos chains only: the exact price the fees are computed at, in Cosmos notation (amount per gas
   * and fee denom, `0.005uatom`: what cosmjs `GasPrice.fromString` reads).
   */
  gasPrice?: string;
  feeSource: GasFeeSource;
  /**
   * Decimal string in base units of the native coin (wei / lamports / sats): units ×
   * feePerGasBaseUnits, plus rent; on Cosmos chains the sum of each transaction's gas × gasPrice,
   * rounded up to a whole base unit (what the chain charges).
   */
  estimatedCostBaseUnits: string;
  /** estimatedCostBaseUnits in whole native units, 3 significant digits (e.g. "0.000412"). */
  estimatedCostFormatted: string;
  /** The items that make up estimatedCostBaseUnits, in the order they are sent. */
  breakdown: RouteGasCoverageItem[];
}

/**
 * Gas of the route as the service covers it: the service's relayers pay every fee, the user none
 * (`userPays` is always "0"). The figures are an upper bound: the permit or approve step is counted
 * on every ERC-20 leg (the quote does not know the user's Permit2 allowance), and so is the rent of
 * every token account that may have to be created.
 */
export interface RouteGasCoverage {
  paidBy: 'service';
  userPays: '0';
  /** One entry per chain the route's legs touch (a leg's chain, a bridge's destination), first touched first. */
  chains: RouteGasCoverageChain[];
}
