import {
  readInboundAddresses,
  readPools,
  readQuoteSwap,
  type ThornodeInboundAddress,
  type ThornodePool,
  type ThornodeQuoteSwap,
} from '@swapgw/chains/bitcoin-bridge';
import { NoRouteError, NoRouteReason } from '../no-route.error';

/** GET /thorchain/quote/swap's parameters, as THORNode names them (amount in 1e8 units). */
export interface ThornodeQuoteSwapRequest {
  from_asset: string;
  to_asset: string;
  amount: bigint;
  destination?: string;
  streaming_interval?: number;
  streaming_quantity?: number;
  /** One affiliate, or several separated by `/` (THORChain's multiple affiliates). */
  affiliate?: string;
  /** The affiliates' bps: one for all, or one per affiliate separated by `/`. */
  affiliate_bps?: string;
}

/**
 * THORNode's error answers (`{"error": "..."}`, HTTP 400 or 500 as THORNode sends them) that mean
 * "no route for this request", and the reason each gives. Anything else is THORNode failing.
 */
const NO_ROUTE_ERRORS: [RegExp, NoRouteReason][] = [
  // An affiliate THORChain does not accept (an unknown THORName, too many, a bad bps).
  [/affiliate|thorname/i, 'INTEGRATOR_FEE_NOT_SUPPORTED'],
  // The memo THORChain would need does not fit the source chain (80 bytes out of Bitcoin).
  [/memo too long/i, 'PAIR_NOT_SUPPORTED'],
  [
    /dust threshold|not enough .*(fee|to pay)|amount .*(too small|less than)|recommended min/i,
    'AMOUNT_TOO_LOW',
  ],
  [/less than price limit|emit asset .* less than/i, 'SLIPPAGE_TOO_LOW'],
  [
    /pool .*(does not exist|not available|is not)|unknown (asset|chain)|bad (from|to)_asset|invalid (asset|symbol)|halt|paused|not supported/i,
    'PAIR_NOT_SUPPORTED',
  ],
  [/(bad|invalid) destination|destination address/i, 'PAIR_NOT_SUPPORTED'],
];

/**
 * The THORNode REST API quote-service reads: inbound addresses and swap quotes (the THORChain
 * adapter), the pools (the catalog's THORChain pairs).
 */
export class ThornodeClient {
  constructor(private readonly baseUrl: string) {}

  async inboundAddresses(signal: AbortSignal): Promise<ThornodeInboundAddress[]> {
    return readInboundAddresses(await this.get('/thorchain/inbound_addresses', signal));
  }

  /** Every pool THORChain has, whatever its status (`Available` ones swap). */
  async pools(signal: AbortSignal): Promise<ThornodePool[]> {
    return readPools(await this.get('/thorchain/pools', signal));
  }

  /** A swap quote; a NoRouteError when THORNode answers an error that means no route. */
  async quoteSwap(request: ThornodeQuoteSwapRequest, signal: AbortSignal): Promise<ThornodeQuoteSwap> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request))
      if (value !== undefined) query.set(name, String(value));
    return readQuoteSwap(await this.get(`/thorchain/quote/swap?${query}`, signal));
  }

  private async get(path: string, signal: AbortSignal): Promise<unknown> {
    const response = await fetch(`${this.baseUrl.replace(/\/$/, '')}${path}`, {
      headers: { accept: 'application/json' },
      signal,
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`THORNode answered HTTP ${response.status} with no JSON: ${text.slice(0, 200)}`);
    }
    const error = errorOf(body);
    if (error !== undefined) {
      const reason = NO_ROUTE_ERRORS.find(([pattern]) => pattern.test(error))?.[1];
      // THORNode answers a quote it cannot make with 400 or 500 alike: the text tells which it is.
      if (reason) throw new NoRouteError(reason, `THORChain: ${error}`);
      throw new Error(`THORNode answered HTTP ${response.status}: ${error}`);
    }
    if (!response.ok) throw new Error(`THORNode answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    return body;
  }
}

/**
 * THORNode's error text: `{"error": "…"}`, or the gRPC gateway's `{"code": 3, "message": "…",
 * "details": []}` that newer THORNodes answer.
 */
function errorOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { error, code, message } = body as { error?: unknown; code?: unknown; message?: unknown };
  if (typeof error === 'string') return error;
  return typeof code === 'number' && code !== 0 && typeof message === 'string' ? message : undefined;
}
