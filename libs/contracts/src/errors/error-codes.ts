/**
 * The stable `error.code` catalog of the public API, with the HTTP status each maps to.
 * Services answer request-reply calls with these codes; the gateway's filter turns them into the
 * spec's ApiError body and status. `QUOTE_EXPIRED` and `tx_request_expired` are spelled exactly
 * as the spec spells them.
 */
export const ErrorCatalog = {
  // 400
  VALIDATION_FAILED: {
    status: 400,
    description: 'The request body, query or path failed validation; details name each field.',
  },
  MALFORMED_JSON: { status: 400, description: 'The request body is not valid JSON.' },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, description: 'This endpoint requires an Idempotency-Key header.' },
  IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    description: 'Idempotency-Key is longer than 200 characters or has characters outside A-Za-z0-9._:-',
  },
  UNKNOWN_CHAIN: { status: 400, description: 'The chain identifier is not in GET /chains.' },
  UNKNOWN_TOKEN: { status: 400, description: 'The token symbol or reference is not known on that chain.' },
  INVALID_AMOUNT: {
    status: 400,
    description: 'The amount is not a positive decimal string within the token decimals.',
  },
  SAME_TOKEN: { status: 400, description: 'tokenIn and tokenOut are the same token on the same chain.' },
  INVALID_CURSOR: { status: 400, description: 'The cursor is malformed or belongs to another query.' },
  INVALID_ADDRESS: {
    status: 400,
    description: 'An address is not valid for the chain family it is used on.',
  },
  INVALID_SIGNED_TX: { status: 400, description: 'rawTx is not a decodable signed transaction.' },
  INVALID_TX_HASH: { status: 400, description: 'The transaction hash has the wrong form for that chain.' },
  TX_HASH_NOT_ACCEPTED: {
    status: 400,
    description:
      'A txHash completes only a user-paid evm-transaction step (typed data and sponsored steps take rawTx).',
  },
  INVALID_EXPIRY: {
    status: 400,
    description: 'Expiry fields are inconsistent, missing for GTD, or in the past.',
  },
  UNKNOWN_ROUTE: { status: 400, description: 'routeId does not belong to the given quoteId.' },
  WEBHOOK_URL_REJECTED: {
    status: 400,
    description:
      'The webhook URL is not an absolute https URL (loopback http only in development), or names a private, loopback or link-local host.',
  },
  // 401, 403
  UNAUTHORIZED: { status: 401, description: 'Missing, malformed, unknown or revoked API key.' },
  FORBIDDEN: { status: 403, description: 'The limit order belongs to another API key owner.' },
  // 404, 405
  NOT_FOUND: { status: 404, description: 'No such route in the API.' },
  QUOTE_NOT_FOUND: { status: 404, description: 'quoteId is unknown.' },
  SWAP_NOT_FOUND: { status: 404, description: 'swapId is unknown.' },
  LIMIT_ORDER_NOT_FOUND: { status: 404, description: 'limitOrderId is unknown.' },
  WEBHOOK_NOT_FOUND: { status: 404, description: 'No webhook with this id belongs to the API key owner.' },
  WEBHOOK_DELIVERY_NOT_FOUND: {
    status: 404,
    description: 'No delivery with this id belongs to that webhook.',
  },
  TRANSACTION_NOT_FOUND: { status: 404, description: 'The chain does not know this transaction.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists but not with this HTTP method.' },
  // 409
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    description: 'The Idempotency-Key was used with a different request.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    description: 'A request with this Idempotency-Key is still being processed.',
  },
  TX_REQUEST_INVALID: {
    status: 409,
    description: 'The current transaction request cannot be signed (e.g. balance or allowance changed).',
  },
  tx_request_expired: {
    status: 409,
    description: 'The signing request expired; GET /swap/{swapId}/signing issues a fresh payload.',
  },
  TX_REQUEST_NOT_YET_VALID: {
    status: 409,
    description: 'The signing request is not valid yet (the previous step is still confirming).',
  },
  TX_REQUEST_MISMATCH: {
    status: 409,
    description:
      'The signed transaction does not match the payload issued (signer, chain, to, data, value, nonce or gas).',
  },
  QUOTE_PRICE_CHANGED: {
    status: 409,
    description:
      "The route's output moved beyond the quote's slippage since it was quoted; details carry the new expectedAmountOut and minAmountOut: re-quote, or build again with acceptedMinAmountOut.",
  },
  EXECUTION_TERMINAL: {
    status: 409,
    description: 'The swap is completed, failed or expired; details carry the reason.',
  },
  LIMIT_ORDER_NOT_REPLACEABLE: {
    status: 409,
    description: 'Only open limit orders can be replaced or canceled.',
  },
  WEBHOOK_LIMIT_REACHED: {
    status: 409,
    description: 'The API key owner already has the most webhooks allowed; delete one first.',
  },
  // 410, 413, 415, 429
  QUOTE_EXPIRED: { status: 410, description: 'The quote expired; request a new quote and retry.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body is larger than the documented limit.' },
  HEADERS_TOO_LARGE: { status: 431, description: 'The request line and headers together exceed 16 KiB.' },
  MALFORMED_REQUEST: { status: 400, description: 'The HTTP request itself could not be parsed.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'Request bodies must be application/json.' },
  RATE_LIMITED: { status: 429, description: 'Too many requests for this API key; see Retry-After.' },
  // 5xx
  INTERNAL_ERROR: { status: 500, description: 'A bug: logged with the request id.' },
  QUOTE_UPSTREAM_FAILED: {
    status: 502,
    description: 'Every quote provider failed or the quote service answered an upstream failure.',
  },
  DISCOVERY_UPSTREAM_UNAVAILABLE: {
    status: 502,
    description: 'The token discovery upstream is unavailable.',
  },
  STATUS_UPSTREAM_ERROR: { status: 502, description: 'The chain RPC behind a status look-up failed.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    description:
      'A dependency (messaging or persistence) is unavailable, or a request to a service timed out.',
  },
  MESSAGING_UNAVAILABLE: { status: 503, description: 'Kafka is unavailable.' },
  PERSISTENCE_UNAVAILABLE: { status: 503, description: 'PostgreSQL is unavailable.' },
  SIGNING_SURFACE_UNAVAILABLE: {
    status: 503,
    description: 'No signing surface (RPC) is configured for the chain of the active step.',
  },
  SPONSORSHIP_BUDGET_EXHAUSTED: {
    status: 503,
    description:
      "The API key's daily gas sponsorship budget on the step's chain is spent; sponsored steps resume the next UTC day (or with a higher budget).",
  },
  SPONSORSHIP_UNAVAILABLE: {
    status: 503,
    description:
      'No relayer can pay for the step now (none configured for the chain, or every relayer account is under its minimum balance).',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ErrorCatalog;

export const ErrorCodes = Object.fromEntries(Object.keys(ErrorCatalog).map((k) => [k, k])) as {
  [K in ErrorCode]: K;
};

export const httpStatusOf = (code: string): number =>
  (ErrorCatalog as Record<string, { status: number }>)[code]?.status ?? 500;

/**
 * An error with a stable code, thrown by any module; the gateway maps it to the ApiError body,
 * services return it as a `ReplyEnvelope` error.
 */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}
