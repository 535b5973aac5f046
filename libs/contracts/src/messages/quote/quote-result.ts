/** What a quote answers: the routes as the public API shows them (QuoteRouteSummary) and the reply (QuoteResult). */
import { SIGNING_PAYLOAD_TYPES } from '../signing/signing-payload';
import type { RouteIssue } from './route-issues';
import type { RouteFamily } from './quote-formats';
import type { RouteGasCoverage } from './route-gas-coverage';
import type { UnavailableRoute } from './unavailable-routes';
import type { RoutePlan } from './route-plan';

/**
 * What a wallet signs to build this route with `permitType` eip2612 or permit2 (no approval step).
 * Present when the first leg is an EVM ERC-20 leg that the chain's SwapGatewayRouter can perform.
 */
export interface RoutePermitInfo {
  chain: string;
  /** EVM chain id: `chainId` of both EIP-712 domains. */
  chainId: number;
  /** The input token (EIP-2612 domain verifyingContract; Permit2 `permitted.token`). */
  token: string;
  /** EIP-2612 `value` and Permit2 `permitted.amount`: base units, as the typed data takes them. */
  amountBaseUnits: string;
  /** The SwapGatewayRouter: `spender` of both kinds of permit, and the `to` of the swap step. */
  spender: string;
  /** Permit2: `verifyingContract` of its domain {name: "Permit2", chainId}; approve it once per token. */
  permit2: string;
  /** The token's EIP-712 domain name and version, when it implements EIP-2612 `permit`. */
  eip2612?: { name: string; version: string };
}

/** What the wallet signs at one step: the payload `type` of GET /swap/{swapId}/signing. */
export const SIGNATURE_PAYLOAD_TYPES = SIGNING_PAYLOAD_TYPES;
export type SignaturePayloadType = (typeof SIGNATURE_PAYLOAD_TYPES)[number];

/**
 * One signature the wallet gives for a route built with the default gas payment (sponsored), in
 * signing order: the steps of the build (`signing.step.total` counts them all). An `approve` with
 * `mayBeSkipped` is never offered when the wallet's allowance is already there (the list is an upper
 * bound: the step is then `skipped`, and the build still counts it).
 */
export interface RouteSignature {
  /** API chain id (GET /chains) the payload is signed for. */
  chain: string;
  kind: 'approve' | 'swap' | 'bridge';
  payloadType: SignaturePayloadType;
  mayBeSkipped: boolean;
}

/**
 * Where a route's slippage comes from: the request's `slippageBps`, or computed per swap leg from
 * its price impact and pool depth when the request has none (`auto`).
 */
export const SLIPPAGE_SOURCES = ['request', 'auto'] as const;
export type SlippageSource = (typeof SLIPPAGE_SOURCES)[number];

/**
 * One recipient's integrator fee on a route: `bps` of the route's amountIn, `amount` of it in human
 * units of `token` (the input token's symbol) on `chain` (the source chain), paid to `recipient` in
 * the route's first transaction on the source chain. The fee is taken from the input: the providers
 * are quoted for amountIn minus every fee, so expectedAmountOut and minAmountOut are net of it.
 */
export interface RouteIntegratorFee {
  bps: number;
  amount: string;
  token: string;
  chain: string;
  recipient: string;
}

/** One route of a quote as the public API shows it (spec: QuoteRouteSummary). */
export interface QuoteRouteSummary {
  routeId: string;
  provider?: string;
  providers: string[];
  bridgeProvider?: string;
  family?: RouteFamily;
  stepCount: number;
  /**
   * Amounts in human units of their token (decimal strings, "0.0333"), as every amount of the public
   * API: what goes in, what the route expects out, and the least the build accepts out after the
   * quote's slippage (what the last leg's minimum enforces on chain).
   */
  amountIn: string;
  expectedAmountOut: string;
  minAmountOut: string;
  /**
   * How far below expectedAmountOut minAmountOut may be, in basis points: the slippage of each swap
   * leg compounded (a bridge with a fixed output adds none), rounded up.
   */
  slippageBps: number;
  slippageSource: SlippageSource;
  /** The tokens' decimals, to turn the amounts into base units where a wallet needs them. */
  tokenInDecimals: number;
  tokenOutDecimals: number;
  estimatedDurationSeconds: number;
  warnings?: string[];
  /**
   * Ours: the taxes measured on chain (bps) of buying tokenOut and of selling tokenIn on the
   * route's swaps (0: none); expectedAmountOut and minAmountOut are net of them. Absent when not
   * measured (a route with no Uniswap V2 swap of that token, or a probe that could not run).
   */
  buyTaxBps?: number;
  sellTaxBps?: number;
  /** Ours: present when the route can be built with a permit instead of an approval. */
  permit?: RoutePermitInfo;
  /** Ours: the gas the service expects to pay for the route, per chain (the user pays none). */
  gasCoverage: RouteGasCoverage;
  /** Ours: the signatures a default (sponsored) build of the route asks of the wallet, in order (see RouteSignature). */
  signatures: RouteSignature[];
  /**
   * Ours: the preflight against the request's `userAddress` (RouteIssue). Absent when the quote named
   * no userAddress (nothing was checked); `[]` when everything was checked and nothing was found.
   */
  issues?: RouteIssue[];
  /** The integrator's fee, one entry per recipient (empty without a fee); see RouteIntegratorFee. */
  integratorFee: RouteIntegratorFee[];
}

export interface QuoteResult {
  quoteId: string;
  expiresAtMs: number;
  routes: QuoteRouteSummary[];
  /**
   * Every route's executable plan, in the order of `routes`: for the services (the gateway keeps
   * them with the quotes it served and sends the chosen one in the build command), never shown to
   * API clients.
   */
  routePlans: RoutePlan[];
  /** The providers asked that give no route, and why (empty when every provider asked has one). */
  unavailableRoutes: UnavailableRoute[];
  /** Only with `debug`: per-provider outcome (ok, no route, failed, timed out) and timings. */
  debug?: Record<string, unknown>;
}
