import { baseUnitsToAmount } from '@swapgw/chains';
import { CodedError, ErrorCodes, RoutePlan, SwapStatus } from '@swapgw/contracts';
import type { SwapStepRecord } from './swap-steps';
import type { SwapViewEntity } from './swap-view.entity';

/** A token of a swap's quote; `address` null is the chain's native coin (a Solana mint otherwise). */
export interface QuotedToken {
  chain: string;
  symbol: string;
  address: string | null;
  decimals: number;
}

/**
 * What the quote promised for the route built, in base units. The swap events do not report the
 * amounts a completed swap really moved (the planner does not read them back from the chain), so
 * the resource carries the quoted figures only: the spec leaves actual amounts open.
 */
export interface QuotedSwap {
  quoteId: string;
  routeId: string;
  fromChain: string;
  toChain: string;
  tokenIn: QuotedToken;
  tokenOut: QuotedToken;
  /** Stored in base units (the plan's); shown in units of the token (resourceOf). */
  amountIn: string;
  expectedAmountOut: string;
  /** The last leg's minimum out (slippage applied): the least the recipient receives. */
  minAmountOut: string;
  /**
   * The integrator fees the plan charges (base units of `token`, paid by the first swap's
   * transaction); absent without a fee. Kept for the fees-collected record, not shown by the API.
   */
  integratorFees?: QuotedIntegratorFee[];
}

/** One integrator fee of the plan: `amount` (base units of `token`) to `recipient`. */
export interface QuotedIntegratorFee {
  recipient: string;
  amount: string;
  token: QuotedToken;
}

/** GET /swap/{swapId}, and each item of GET /swaps. */
export interface SwapResource {
  swapId: string;
  status: SwapStatus;
  steps: SwapStepRecord[];
  failure: { reason: string; details: Record<string, unknown> | null } | null;
  quoted: QuotedSwap | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** GET /swaps: `limit` bounds, as documented on the query. */
export const SWAP_LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

export function quotedOf(plan: RoutePlan): QuotedSwap {
  const token = (t: RoutePlan['tokenIn']): QuotedToken => ({
    chain: t.chain,
    symbol: t.symbol,
    address: t.address ?? null,
    decimals: t.decimals,
  });
  const last = plan.legs[plan.legs.length - 1];
  const integratorFees = (plan.integratorFees ?? [])
    .filter((fee) => BigInt(fee.amount) > 0n)
    .map((fee) => ({ recipient: fee.recipient, amount: fee.amount, token: token(fee.token) }));
  return {
    quoteId: plan.quoteId,
    routeId: plan.routeId,
    fromChain: plan.fromChain,
    toChain: plan.toChain,
    tokenIn: token(plan.tokenIn),
    tokenOut: token(plan.tokenOut),
    amountIn: plan.amountIn,
    expectedAmountOut: plan.expectedAmountOut,
    minAmountOut: last?.minAmountOut ?? plan.expectedAmountOut,
    ...(integratorFees.length > 0 ? { integratorFees } : {}),
  };
}

/**
 * The view stores the plan's figures as the planner has them, in base units; the API shows every
 * amount in units of its token (the quote's own convention).
 */
function inTokenUnits({ integratorFees: _recordedOnly, ...quoted }: QuotedSwap): QuotedSwap {
  return {
    ...quoted,
    amountIn: baseUnitsToAmount(quoted.amountIn, quoted.tokenIn.decimals),
    expectedAmountOut: baseUnitsToAmount(quoted.expectedAmountOut, quoted.tokenOut.decimals),
    minAmountOut: baseUnitsToAmount(quoted.minAmountOut, quoted.tokenOut.decimals),
  };
}

export function resourceOf(view: SwapViewEntity): SwapResource {
  return {
    swapId: view.swapId,
    status: view.status as SwapStatus,
    steps: (view.steps ?? []).map((step) => ({
      ...step,
      packet: step.packet ?? null,
      thorchain: step.thorchain ?? null,
    })),
    failure:
      view.failureReason !== null ? { reason: view.failureReason, details: view.failureDetails } : null,
    quoted: view.quoted && inTokenUnits(view.quoted),
    createdAtMs: view.createdAtMs,
    updatedAtMs: view.updatedAtMs,
  };
}

/** Where the next page of GET /swaps starts: after this (createdAtMs, swapId), with the same status filter. */
export interface SwapListPosition {
  createdAtMs: number;
  swapId: string;
  status: string | null;
}

/** Opaque to clients: base64url of the position (a cursor is only valid with the filter it came from). */
export function encodeSwapCursor(position: SwapListPosition): string {
  return Buffer.from(
    JSON.stringify([position.createdAtMs, position.swapId, position.status]),
    'utf8',
  ).toString('base64url');
}

/** 400 INVALID_CURSOR for anything but a cursor of GET /swaps with the same status filter. */
export function decodeSwapCursor(cursor: string, status: string | null): SwapListPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    Number.isSafeInteger(parsed[0]) &&
    (parsed[0] as number) >= 0 &&
    typeof parsed[1] === 'string' &&
    UUID.test(parsed[1]) &&
    (parsed[2] === null || typeof parsed[2] === 'string');
  if (!valid)
    throw new CodedError(ErrorCodes.INVALID_CURSOR, 'The cursor is not one GET /swaps answered', {
      field: 'cursor',
    });
  const [createdAtMs, swapId, cursorStatus] = parsed as [number, string, string | null];
  if (cursorStatus !== status) {
    throw new CodedError(ErrorCodes.INVALID_CURSOR, 'The cursor belongs to another status filter', {
      field: 'cursor',
      status: cursorStatus,
    });
  }
  return { createdAtMs, swapId, status };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
