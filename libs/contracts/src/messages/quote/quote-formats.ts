/** The value formats of quote messages: networks, route families, amounts, token references. */
export const QUOTE_NETWORKS = ['mainnet', 'testnet'] as const;
export type QuoteNetwork = (typeof QUOTE_NETWORKS)[number];

/** Route families (the spec leaves the values open): one chain, or a bridge between two. */
export const ROUTE_FAMILIES = ['same-chain', 'cross-chain'] as const;
export type RouteFamily = (typeof ROUTE_FAMILIES)[number];

/** Positive human decimal amount such as "1.5" (no sign, no exponent). */
export const HUMAN_AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
/** Non-negative integer amount in base units. */
export const BASE_UNITS_AMOUNT = /^(0|[1-9][0-9]*)$/;

/**
 * Canonical token reference `<namespace>:<chain id>:<kind>:<address>`, e.g.
 * `eip155:31337:erc20:0xA0b8...` or `solana:mainnet:spl:EPjFWdd5...`.
 */
export const TOKEN_REF = /^[a-z0-9-]{3,16}:[A-Za-z0-9_-]{1,64}:[a-z0-9-]{2,16}:[A-Za-z0-9]{1,128}$/;
