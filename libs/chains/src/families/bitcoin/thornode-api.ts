// THORNode's REST API, the answers a swap through THORChain reads (thornode openapi.yaml:
// InboundAddress, QuoteSwapResponse, TxStatusResponse, and Pool for the catalog), with a strict reader
// of each and the swap's progress as the tx/status stages tell it. Shared by quote-service's THORChain adapter and libs/devnet's
// local THORNode, which serves the same shapes. Imported through @swapgw/chains/bitcoin-bridge.

/** One entry of GET /thorchain/inbound_addresses. */
export interface ThornodeInboundAddress {
  chain: string;
  pub_key?: string;
  address: string;
  /** EVM chains: the THORChain router the deposit calls (depositWithExpiry). */
  router?: string;
  halted: boolean;
  global_trading_paused: boolean;
  chain_trading_paused: boolean;
  chain_lp_actions_paused: boolean;
  gas_rate?: string;
  gas_rate_units?: string;
  outbound_tx_size?: string;
  outbound_fee?: string;
  /** The least amount (1e8 units) THORChain observes on this chain; less is ignored, not refunded. */
  dust_threshold?: string;
}

/** The fees of a quote, in 1e8 units of `asset` (the asset paid out). */
export interface ThornodeQuoteFees {
  asset: string;
  affiliate?: string;
  outbound?: string;
  liquidity?: string;
  total: string;
  slippage_bps?: number;
  total_bps?: number;
}

/** GET /thorchain/quote/swap's answer (the fields a deposit and a route need; THORNode adds more). */
export interface ThornodeQuoteSwap {
  inbound_address?: string;
  inbound_confirmation_blocks?: number;
  inbound_confirmation_seconds?: number;
  outbound_delay_blocks?: number;
  outbound_delay_seconds?: number;
  fees: ThornodeQuoteFees;
  router?: string;
  /** Unix seconds after which the inbound address may have rotated: deposit before it. */
  expiry: number;
  warning?: string;
  notes?: string;
  dust_threshold?: string;
  recommended_min_amount_in?: string;
  recommended_gas_rate?: string;
  gas_rate_units?: string;
  /** Present when the request named a destination. */
  memo?: string;
  expected_amount_out: string;
  max_streaming_quantity?: number;
  streaming_swap_blocks?: number;
  streaming_swap_seconds?: number;
  total_swap_seconds?: number;
}

/** A transaction as THORNode shows it (tx and out_txs of tx/status). */
export interface ThornodeTx {
  id?: string;
  chain?: string;
  from_address?: string;
  to_address?: string;
  coins?: { asset: string; amount: string }[];
  gas?: { asset: string; amount: string }[];
  memo?: string;
}

export interface ThornodePlannedOutTx {
  chain: string;
  to_address: string;
  coin: { asset: string; amount: string };
  refund: boolean;
}

/** GET /thorchain/tx/status/{hash}: the inbound, its planned and sent outbounds, and its stages. */
export interface ThornodeTxStatus {
  tx?: ThornodeTx;
  planned_out_txs?: ThornodePlannedOutTx[];
  out_txs?: ThornodeTx[];
  stages: {
    inbound_observed: {
      started?: boolean;
      pre_confirmation_count?: number;
      final_count?: number;
      completed: boolean;
    };
    inbound_confirmation_counted?: {
      counting_start_height?: number;
      chain?: string;
      external_observed_height?: number;
      external_confirmation_delay_height?: number;
      remaining_confirmation_seconds?: number;
      completed: boolean;
    };
    inbound_finalised?: { completed: boolean };
    swap_status?: { pending: boolean; streaming?: { interval: number; quantity: number; count: number } };
    swap_finalised?: { completed: boolean };
    outbound_delay?: {
      remaining_delay_blocks?: number;
      remaining_delay_seconds?: number;
      completed: boolean;
    };
    outbound_signed?: {
      scheduled_outbound_height?: number;
      blocks_since_scheduled?: number;
      completed: boolean;
    };
  };
}

/**
 * One entry of GET /thorchain/pools (thornode openapi.yaml Pool): amounts in 1e8 units as decimal
 * strings, the asset in THORChain's notation (`BTC.BTC`, `ETH.USDC-0XA0B8…`).
 */
export interface ThornodePool {
  asset: string;
  short_code?: string;
  /** `Available` (swaps), `Staged` (liquidity only: THORChain refunds swaps) or `Suspended`. */
  status: string;
  /** The asset's own decimals on its chain (THORChain counts it in 1e8 units all the same). */
  decimals?: number;
  pending_inbound_asset: string;
  pending_inbound_rune: string;
  balance_asset: string;
  balance_rune: string;
  asset_tor_price?: string;
  /** LP_units + synth_units. */
  pool_units: string;
  LP_units: string;
  synth_units: string;
  synth_supply: string;
  savers_depth?: string;
  savers_units?: string;
  synth_mint_paused?: boolean;
  synth_supply_remaining?: string;
}

/** The status of a pool THORChain swaps through (thornode's PoolStatus `Available`). */
export const THORCHAIN_POOL_AVAILABLE = 'Available';

/** An answer that is not the documented shape: THORNode failed, it is not a "no route". */
export class ThornodeFormatError extends Error {
  constructor(what: string, detail: string) {
    super(`THORNode ${what}: ${detail}`);
    this.name = 'ThornodeFormatError';
  }
}

const UINT_TEXT = /^(0|[1-9][0-9]*)$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function need(what: string, ok: boolean, detail: string): void {
  if (!ok) throw new ThornodeFormatError(what, detail);
}

function optionalUint(what: string, body: Json, field: string): void {
  const value = body[field];
  need(
    what,
    value === undefined || (typeof value === 'string' && UINT_TEXT.test(value)),
    `${field} is not an amount`,
  );
}

/** The entries of an answer that must be an array of objects. */
function entriesOf(what: string, body: unknown): Json[] {
  need(what, Array.isArray(body), 'not an array');
  for (const entry of body as unknown[]) need(what, isObject(entry), 'an entry is not an object');
  return body as Json[];
}

/** Reads GET /thorchain/inbound_addresses; throws ThornodeFormatError on anything else. */
export function readInboundAddresses(body: unknown): ThornodeInboundAddress[] {
  const what = 'inbound_addresses';
  return entriesOf(what, body).map((item) => {
    need(
      what,
      typeof item.chain === 'string' && typeof item.address === 'string',
      'chain or address missing',
    );
    for (const flag of ['halted', 'global_trading_paused', 'chain_trading_paused', 'chain_lp_actions_paused'])
      need(what, typeof item[flag] === 'boolean', `${String(item.chain)}: ${flag} is not a boolean`);
    for (const field of ['gas_rate', 'outbound_tx_size', 'outbound_fee', 'dust_threshold'])
      optionalUint(what, item, field);
    need(what, item.router === undefined || typeof item.router === 'string', 'router is not a string');
    return item as unknown as ThornodeInboundAddress;
  });
}

/** Reads GET /thorchain/pools; throws ThornodeFormatError on anything else. */
export function readPools(body: unknown): ThornodePool[] {
  const what = 'pools';
  return entriesOf(what, body).map((pool) => {
    need(what, typeof pool.asset === 'string' && pool.asset !== '', 'asset missing');
    need(what, typeof pool.status === 'string', `${String(pool.asset)}: status is not a string`);
    for (const field of ['balance_asset', 'balance_rune'])
      need(
        what,
        typeof pool[field] === 'string' && UINT_TEXT.test(pool[field]),
        `${String(pool.asset)}: ${field} is not an amount`,
      );
    for (const field of [
      'pending_inbound_asset',
      'pending_inbound_rune',
      'pool_units',
      'LP_units',
      'synth_units',
      'synth_supply',
    ])
      optionalUint(what, pool, field);
    need(
      what,
      pool.decimals === undefined || Number.isSafeInteger(pool.decimals),
      `${String(pool.asset)}: decimals is not a whole number`,
    );
    return pool as unknown as ThornodePool;
  });
}

/** Reads a 200 answer of GET /thorchain/quote/swap; throws ThornodeFormatError on anything else. */
export function readQuoteSwap(body: unknown): ThornodeQuoteSwap {
  const what = 'quote/swap';
  need(what, isObject(body), 'not an object');
  const quote = body as Json;
  need(
    what,
    typeof quote.expected_amount_out === 'string' && UINT_TEXT.test(quote.expected_amount_out),
    'expected_amount_out is not an amount',
  );
  need(what, Number.isSafeInteger(quote.expiry) && (quote.expiry as number) > 0, 'expiry is not a unix time');
  need(what, isObject(quote.fees), 'fees missing');
  const fees = quote.fees as Json;
  need(what, typeof fees.asset === 'string', 'fees.asset missing');
  for (const field of ['affiliate', 'outbound', 'liquidity', 'total']) optionalUint(what, fees, field);
  for (const field of ['dust_threshold', 'recommended_min_amount_in']) optionalUint(what, quote, field);
  for (const field of ['inbound_address', 'router', 'memo', 'warning', 'notes'])
    need(what, quote[field] === undefined || typeof quote[field] === 'string', `${field} is not a string`);
  for (const field of [
    'inbound_confirmation_seconds',
    'outbound_delay_seconds',
    'total_swap_seconds',
    'max_streaming_quantity',
    'streaming_swap_blocks',
  ])
    need(
      what,
      quote[field] === undefined || Number.isSafeInteger(quote[field]),
      `${field} is not a whole number`,
    );
  return quote as unknown as ThornodeQuoteSwap;
}

/** Reads GET /thorchain/tx/status/{hash}; throws ThornodeFormatError on anything else. */
export function readTxStatus(body: unknown): ThornodeTxStatus {
  const what = 'tx/status';
  need(what, isObject(body) && isObject(body.stages), 'stages missing');
  const stages = (body as Json).stages as Json;
  need(what, isObject(stages.inbound_observed), 'stages.inbound_observed missing');
  for (const stage of [
    'inbound_observed',
    'inbound_confirmation_counted',
    'inbound_finalised',
    'swap_finalised',
    'outbound_delay',
    'outbound_signed',
  ])
    need(
      what,
      stages[stage] === undefined ||
        (isObject(stages[stage]) && typeof (stages[stage] as Json).completed === 'boolean'),
      `stages.${stage}.completed is not a boolean`,
    );
  const swap = stages.swap_status;
  need(
    what,
    swap === undefined || (isObject(swap) && typeof swap.pending === 'boolean'),
    'stages.swap_status.pending is not a boolean',
  );
  for (const list of ['planned_out_txs', 'out_txs'])
    need(
      what,
      (body as Json)[list] === undefined || Array.isArray((body as Json)[list]),
      `${list} is not an array`,
    );
  return body as unknown as ThornodeTxStatus;
}

/** Where a swap through THORChain stands, read from its tx/status stages (first unfinished stage wins). */
export type ThorchainSwapPhase =
  | 'not-observed'
  | 'confirming'
  | 'swapping'
  | 'streaming'
  | 'outbound-delay'
  | 'outbound-signing'
  | 'completed'
  | 'refunded';

export interface ThorchainSwapProgress {
  phase: ThorchainSwapPhase;
  /** Streaming swaps: sub-swaps done and planned. */
  streaming?: { count: number; quantity: number };
  /** Seconds THORNode expects before the current stage ends, when it says. */
  remainingSeconds?: number;
  /** The payout (or refund) transactions THORChain sent, ids as THORNode writes them. */
  outTxIds: string[];
}

/**
 * The phase of a swap from its tx/status: not observed yet, counting the inbound's confirmations,
 * swapping (streaming, with its count), waiting the outbound delay, signing the outbound, then
 * completed, or refunded when every planned outbound is a refund.
 */
export function thorchainSwapProgress(status: ThornodeTxStatus): ThorchainSwapProgress {
  const { stages } = status;
  const outTxIds = (status.out_txs ?? [])
    .map((tx) => tx.id)
    .filter((id): id is string => typeof id === 'string');
  const planned = status.planned_out_txs ?? [];
  const refunded = planned.length > 0 && planned.every((tx) => tx.refund);
  if (!stages.inbound_observed.completed) return { phase: 'not-observed', outTxIds };
  const counted = stages.inbound_confirmation_counted;
  if (counted && !counted.completed)
    return {
      phase: 'confirming',
      outTxIds,
      ...(counted.remaining_confirmation_seconds !== undefined
        ? { remainingSeconds: counted.remaining_confirmation_seconds }
        : {}),
    };
  if (stages.inbound_finalised && !stages.inbound_finalised.completed)
    return { phase: 'confirming', outTxIds };
  const swap = stages.swap_status;
  if (swap?.pending || (stages.swap_finalised && !stages.swap_finalised.completed)) {
    const streaming = swap?.streaming;
    return streaming && streaming.quantity > 1
      ? { phase: 'streaming', streaming: { count: streaming.count, quantity: streaming.quantity }, outTxIds }
      : { phase: 'swapping', outTxIds };
  }
  const delay = stages.outbound_delay;
  if (delay && !delay.completed)
    return {
      phase: 'outbound-delay',
      outTxIds,
      ...(delay.remaining_delay_seconds !== undefined
        ? { remainingSeconds: delay.remaining_delay_seconds }
        : {}),
    };
  if (stages.outbound_signed && !stages.outbound_signed.completed)
    return { phase: 'outbound-signing', outTxIds };
  return { phase: refunded ? 'refunded' : 'completed', outTxIds };
}
