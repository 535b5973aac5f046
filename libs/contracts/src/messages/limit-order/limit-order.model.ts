/**
 * Lifecycle of an off-chain limit order (docs/architecture.md "Limit orders"). `failed`: the
 * watcher could no longer check the open order (its terms refused by quote-service, e.g. a token
 * delisted) for WATCH_MAX_FAILED_CHECKS checks in a row; `failureCode` says why.
 */
export const LimitOrderStatuses = ['open', 'triggered', 'canceled', 'expired', 'failed'] as const;
export type LimitOrderStatus = (typeof LimitOrderStatuses)[number];

/**
 * GTC: good till canceled (at most 90 days). GTD: good till a date (expiresAtMs or expireAfterMs).
 * IOC: checked once at creation; the largest part that meets the limit triggers, the rest expires.
 * FOK: checked once at creation; the whole amount meets the limit or the order expires.
 */
export const TimesInForce = ['GTC', 'GTD', 'IOC', 'FOK'] as const;
export type TimeInForce = (typeof TimesInForce)[number];

export const LIMIT_ORDER_MAX_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;
export const LIMIT_ORDER_LIST_DEFAULT = 50;
export const LIMIT_ORDER_LIST_MAX = 200;

/** One limit order as the API shows it (GET and list items). */
export interface LimitOrderView {
  limitOrderId: string;
  status: LimitOrderStatus;
  timeInForce: TimeInForce;
  createdAtMs: number;
  updatedAtMs: number;
  expiresAtMs: number;
  /** Human amount of tokenOut, as the client sent it (normalised: no leading zeros, no trailing fractional zeros). */
  minAmountOut: string;
  fromChain: string;
  toChain: string;
  tokenIn: string;
  tokenOut: string;
  /** Human amount of tokenIn the order is for. */
  amount: string;
  /**
   * Human amount of tokenIn that triggered (IOC may trigger part of `amount`, the rest expires).
   * null while nothing triggered.
   */
  filledAmount: string | null;
  network: string | null;
  slippageBps: number | null;
  recipient: string | null;
  routeKey: string | null;
  route: Record<string, unknown> | null;
  /** Swap built for the owner to sign when the order triggered (null without a signer address). */
  swapId: string | null;
  cancelReason: string | null;
  /**
   * Status `failed` only: the error code the checks of the order's terms ended with (UNKNOWN_TOKEN,
   * UNKNOWN_CHAIN, ... as POST /quote answers them for these terms), and its message.
   */
  failureCode: string | null;
  failureMessage: string | null;
  /** The order this one replaced, and the one that replaced it. */
  replacesLimitOrderId: string | null;
  replacedByLimitOrderId: string | null;
}

export interface LimitOrderCreated {
  limitOrderId: string;
  status: LimitOrderStatus;
  expiresAtMs: number;
  minAmountOut: string;
}

export interface LimitOrderReplaced extends LimitOrderCreated {
  replacesLimitOrderId: string;
}

export interface LimitOrderCanceled {
  limitOrderId: string;
  status: LimitOrderStatus;
}

export interface LimitOrderList {
  limitOrders: LimitOrderView[];
}
