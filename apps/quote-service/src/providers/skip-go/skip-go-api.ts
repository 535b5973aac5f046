import { NoRouteError } from '../no-route.error';

/**
 * The Skip Go API as this gateway speaks it (docs.skip.build, "API reference"): POST
 * /v2/fungible/route (a quote), POST /v2/fungible/msgs (the messages of a route for the wallet's
 * addresses) and GET /v2/tx/status (where a submitted transaction's transfers stand). Bodies are
 * snake_case JSON; amounts are decimal strings of base units. Only the fields the gateway reads are
 * typed; the rest of an answer is kept as Skip sent it (the /msgs request sends the route's
 * operations back unchanged).
 */

export interface SkipGoApiOptions {
  /** Base URL, e.g. https://api.skip.build (the /v2/... paths are appended). */
  baseUrl: string;
  /** Sent as the `authorization` header (Skip's API keys); without one Skip's shared rate limit applies. */
  apiKey?: string;
}

/** POST /v2/fungible/route's body, as the gateway sends it. */
export interface SkipRouteRequest {
  amount_in: string;
  source_asset_denom: string;
  source_asset_chain_id: string;
  dest_asset_denom: string;
  dest_asset_chain_id: string;
  cumulative_affiliate_fee_bps: string;
  allow_multi_tx: boolean;
  allow_unsafe: boolean;
  bridges: string[];
  smart_relay: boolean;
}

export interface SkipSwapOperation {
  pool: string;
  denom_in: string;
  denom_out: string;
}

export interface SkipSwapVenue {
  name: string;
  chain_id: string;
}

/** An ICS-20 hop (operation `transfer`): `channel` is the sending chain's. */
export interface SkipTransfer {
  port?: string;
  channel: string;
  from_chain_id: string;
  to_chain_id: string;
  denom_in: string;
  denom_out: string;
  pfm_enabled?: boolean;
  supports_memo?: boolean;
  bridge_id?: string;
  chain_id?: string;
}

/** A swap (operation `swap`): exact-in over `swap_operations` (the pools, in order) on one venue. */
export interface SkipSwap {
  swap_in?: {
    swap_venue: SkipSwapVenue;
    swap_operations: SkipSwapOperation[];
    swap_amount_in?: string;
    price_impact_percent?: string | null;
  };
  swap_out?: unknown;
  chain_id?: string;
  from_chain_id?: string;
  denom_in: string;
  denom_out: string;
  estimated_affiliate_fee?: string;
}

/**
 * One operation of a route: exactly one of its kinds (Skip names more: axelar_transfer,
 * cctp_transfer, hyperlane_transfer, evm_swap, go_fast_transfer, ...), the transaction it is in
 * (`tx_index`), and, in current answers, its own amounts.
 */
export interface SkipOperation {
  transfer?: SkipTransfer;
  swap?: SkipSwap;
  tx_index?: number;
  amount_in?: string;
  amount_out?: string;
  [kind: string]: unknown;
}

export interface SkipRouteWarning {
  type: string;
  message: string;
}

/** POST /v2/fungible/route's answer (the fields read; all of it is sent back to /msgs). */
export interface SkipRoute {
  amount_in: string;
  amount_out: string;
  source_asset_denom: string;
  source_asset_chain_id: string;
  dest_asset_denom: string;
  dest_asset_chain_id: string;
  operations: SkipOperation[];
  chain_ids: string[];
  required_chain_addresses: string[];
  does_swap?: boolean;
  estimated_amount_out?: string;
  swap_price_impact_percent?: string | null;
  txs_required: number;
  estimated_route_duration_seconds?: number;
  estimated_fees?: unknown[];
  warning?: SkipRouteWarning | null;
  [field: string]: unknown;
}

/** One affiliate of a swap's fee (Skip pays it out of the last swap's output, on that chain). */
export interface SkipAffiliate {
  address: string;
  basis_points_fee: string;
}

/** POST /v2/fungible/msgs's body: the route as /route answered it, the wallet's address on each chain. */
export interface SkipMsgsRequest {
  source_asset_denom: string;
  source_asset_chain_id: string;
  dest_asset_denom: string;
  dest_asset_chain_id: string;
  amount_in: string;
  amount_out: string;
  address_list: string[];
  operations: SkipOperation[];
  slippage_tolerance_percent: string;
  timeout_seconds?: string;
  chain_ids_to_affiliates?: Record<string, { affiliates: SkipAffiliate[] }>;
}

/** One Cosmos message of a /msgs answer: `msg` is the message as JSON text, in snake_case. */
export interface SkipCosmosMsg {
  msg: string;
  msg_type_url: string;
}

/** A transaction of /msgs's `txs` (current form): `cosmos_tx`, or another family's (`evm_tx`, `svm_tx`). */
export interface SkipTx {
  cosmos_tx?: {
    chain_id: string;
    path: string[];
    msgs: SkipCosmosMsg[];
    signer_address: string;
  };
  operations_indices?: number[];
  [kind: string]: unknown;
}

/** A message of /msgs's older `msgs` form: `multi_chain_msg` is one Cosmos message of its own tx. */
export interface SkipLegacyMsg {
  multi_chain_msg?: { chain_id: string; path: string[]; msg: string; msg_type_url: string };
  [kind: string]: unknown;
}

export interface SkipMsgsAnswer {
  txs?: SkipTx[];
  msgs?: SkipLegacyMsg[];
  estimated_fees?: unknown[];
}

/** A transfer's error, as /v2/tx/status reports it. */
export interface SkipStatusError {
  code?: number | string;
  message?: string;
  type?: string;
}

/** One tracked transfer of /v2/tx/status (`transfers[i]`; older answers put it at the top level). */
export interface SkipTransferStatus {
  state: string;
  transfer_sequence?: Record<string, unknown>[];
  next_blocking_transfer?: { transfer_sequence_index: number } | null;
  transfer_asset_release?: { chain_id: string; denom: string; released: boolean } | null;
  error?: SkipStatusError | null;
}

export interface SkipStatusAnswer extends Partial<SkipTransferStatus> {
  transfers?: SkipTransferStatus[];
}

/**
 * Skip's error body ({code, message, details}: a gRPC status, e.g. 3 INVALID_ARGUMENT, 5 NOT_FOUND):
 * a 4xx other than 401, 403, 408 and 429 is Skip saying it has no route for the request (no route
 * found, a denom or chain it does not know): PAIR_NOT_SUPPORTED, when it answers /route. Anything
 * else (5xx, rate limit, a refused key, a body that is not JSON, a refusal of /msgs or /status)
 * is an Error: Skip failing, or a step that cannot be built or read.
 */
export function skipGoFailure(path: string, status: number, text: string): Error {
  const body = parseJson(text);
  const code = typeof body?.code === 'number' || typeof body?.code === 'string' ? body.code : undefined;
  const message = typeof body?.message === 'string' ? body.message : text.slice(0, 200);
  const described = `Skip Go ${path}: ${message}${code !== undefined ? ` (code ${code})` : ''}`;
  const refusal = status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
  if (refusal && body && path === '/v2/fungible/route')
    return new NoRouteError('PAIR_NOT_SUPPORTED', described);
  return new Error(`Skip Go ${path} answered HTTP ${status}: ${described}`);
}

/** The Skip Go API over HTTP: one call per method, bounded by the caller's `signal`. */
export class SkipGoApi {
  constructor(private readonly options: SkipGoApiOptions) {}

  async route(request: SkipRouteRequest, signal: AbortSignal): Promise<SkipRoute> {
    return asSkipRoute(await this.call('POST', '/v2/fungible/route', request, signal));
  }

  async msgs(request: SkipMsgsRequest, signal: AbortSignal): Promise<SkipMsgsAnswer> {
    const body = await this.call('POST', '/v2/fungible/msgs', request, signal);
    if (!Array.isArray(body.txs) && !Array.isArray(body.msgs))
      throw new Error('Skip Go /v2/fungible/msgs answered neither txs nor msgs');
    return body as SkipMsgsAnswer;
  }

  /** GET /v2/tx/status of a transaction Skip tracks (sent through /v2/tx/submit or /v2/tx/track). */
  async status(txHash: string, chainId: string, signal: AbortSignal): Promise<SkipStatusAnswer> {
    const query = new URLSearchParams({ tx_hash: txHash, chain_id: chainId });
    return (await this.call('GET', `/v2/tx/status?${query}`, undefined, signal)) as SkipStatusAnswer;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const base = this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`;
    const url = new URL(path.slice(1), base);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.apiKey) headers.authorization = this.options.apiKey;
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    const text = await response.text();
    const name = path.split('?')[0];
    if (!response.ok) throw skipGoFailure(name, response.status, text);
    const parsed = parseJson(text);
    if (!parsed) throw new Error(`Skip Go ${name} answered HTTP ${response.status} without a JSON object`);
    return parsed;
  }
}

const INTEGER = /^[0-9]+$/;

/** Checks the fields a route is built from; an answer without them is Skip failing, not a route. */
function asSkipRoute(body: Record<string, unknown>): SkipRoute {
  const route = body as Partial<SkipRoute>;
  const strings = [
    route.source_asset_denom,
    route.source_asset_chain_id,
    route.dest_asset_denom,
    route.dest_asset_chain_id,
  ];
  if (
    typeof route.amount_in !== 'string' ||
    !INTEGER.test(route.amount_in) ||
    typeof route.amount_out !== 'string' ||
    !INTEGER.test(route.amount_out) ||
    strings.some((value) => typeof value !== 'string') ||
    !Array.isArray(route.operations) ||
    typeof route.txs_required !== 'number'
  )
    throw new Error(
      'Skip Go /v2/fungible/route answered a route without amount_in, amount_out, its assets, operations or txs_required',
    );
  return route as SkipRoute;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
