// The values a sponsored ("gasless") EVM leg is built from: the typed data a wallet signs, the
// intents (the Permit2 witness of each leg kind), the permit half, and the relayer's call.

/**
 * EIP-712 typed data exactly as `eth_signTypedData_v4` takes it (JSON.stringify it as the second
 * parameter): `types` includes `EIP712Domain`, every uint in `message` is a decimal string and every
 * address is checksummed, so it survives JSON and any wallet computes the digest the contract does.
 */
export interface TypedDataV4 {
  domain: Record<string, string | number>;
  types: Record<string, TypedDataFieldV4[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

export interface TypedDataFieldV4 {
  name: string;
  type: string;
}

/** A uint as callers hold it: bigint, a safe integer, or a decimal or 0x-hex string. */
export type UintLike = bigint | number | string;

/** An integrator fee an intent pays out of the permitted amount, before its swap or deposit (base units of the input token). */
export interface IntegratorFeeTerm {
  recipient: string;
  amount: UintLike;
}

/** The leg a sponsored Uniswap V2 swap performs; the owner signs it as the Permit2 witness. */
export interface SwapIntent {
  /** The Uniswap V2 Router02 that swaps (the router calls no other). */
  venue: string;
  /** Router02 path; path[0] is the permitted token. */
  path: string[];
  amountOutMin: UintLike;
  recipient: string;
  /** The path ends with WETH and the recipient gets native ETH. */
  unwrapNative: boolean;
  /** Seconds since epoch; the router refuses the leg after it. */
  deadline: UintLike;
  /** Paid out of the permitted amount first; the swap gets the rest. None when absent. */
  integratorFees?: IntegratorFeeTerm[];
}

/** The leg a sponsored Uniswap V3 swap performs (SwapRouter02 exactInput). */
export interface SwapV3Intent {
  /** The Uniswap V3 SwapRouter02 that swaps. */
  venue: string;
  /** Tokens of the path; path[0] is the permitted token. */
  path: string[];
  /** Pool fee of each hop (hundredths of a bip): path.length - 1 of them. */
  fees: number[];
  amountOutMin: UintLike;
  recipient: string;
  /** The path ends with WETH and the recipient gets native ETH. */
  unwrapNative: boolean;
  /** Seconds since epoch. */
  deadline: UintLike;
  /** Paid out of the permitted amount first; the swap gets the rest. None when absent. */
  integratorFees?: IntegratorFeeTerm[];
}

/** A sponsored bridge deposit to an EVM address; the permitted token must be the bridge's token. */
export interface BridgeIntent {
  /** The bridge that takes the deposit. */
  venue: string;
  destinationChainId: UintLike;
  recipient: string;
  /** Seconds since epoch. */
  deadline: UintLike;
  /** Paid out of the permitted amount first; the deposit gets the rest. None when absent. */
  integratorFees?: IntegratorFeeTerm[];
}

/** A sponsored bridge deposit to a 32-byte recipient (a Solana public key as 0x-hex). */
export interface BridgeToIntent {
  /** The bridge that takes the deposit. */
  venue: string;
  destinationChainId: UintLike;
  /** 0x-hex, 32 bytes. */
  recipient: string;
  /** Seconds since epoch. */
  deadline: UintLike;
  /** Paid out of the permitted amount first; the deposit gets the rest. None when absent. */
  integratorFees?: IntegratorFeeTerm[];
}

/**
 * A sponsored bridge deposit whose destination swap runs from this one signature: the bridge
 * delivers the deposit (after its fee) to `destinationRouter` on `destinationChainId`, which swaps
 * all of it along `path` for at least `amountOutMin` to `recipient` before `deadline`, or, when that
 * swap cannot happen, pays `recipient` the bridged tokens. The permitted token must be the bridge's.
 */
export interface BridgeSwapIntent {
  /** The bridge that takes the deposit on this chain. */
  venue: string;
  destinationChainId: UintLike;
  /** The SwapGatewayRouter of the destination chain (the deposit's recipient there). */
  destinationRouter: string;
  /** The Uniswap V2 Router02 of the destination chain that swaps. */
  destinationVenue: string;
  /** Router02 path on the destination chain; path[0] is the bridged token there. */
  path: string[];
  amountOutMin: UintLike;
  recipient: string;
  /** The path ends with WETH and the recipient gets native ETH. */
  unwrapNative: boolean;
  /** Seconds since epoch: the source deposit and the destination swap (after it: bridged tokens paid). */
  deadline: UintLike;
  /** Paid on the source chain out of the permitted amount first; the deposit gets the rest. None when absent. */
  integratorFees?: IntegratorFeeTerm[];
}

/**
 * A sponsored Across deposit of the permitted amount through the SpokePool `venue`, the owner as
 * depositor (Across refunds an unfilled deposit to them): a relayer pays `outputAmount` of
 * `outputToken` to `recipient` on `destinationChainId`. The quote's terms (quoteTimestamp,
 * fillDeadline, exclusiveRelayer, exclusivityParameter) are signed as Across answered them.
 */
export interface AcrossIntent {
  /** The SpokePool of this chain. */
  venue: string;
  destinationChainId: UintLike;
  outputToken: string;
  outputAmount: UintLike;
  recipient: string;
  exclusiveRelayer: string;
  quoteTimestamp: UintLike;
  fillDeadline: UintLike;
  exclusivityParameter: UintLike;
  /** Seconds since epoch: the router refuses the deposit after it. */
  deadline: UintLike;
  /** Paid out of the permitted amount first; the deposit gets the rest. None when absent. */
  integratorFees?: IntegratorFeeTerm[];
}

/**
 * An Across deposit to the destination chain's SwapGatewayRouter with a message: the fill pays it
 * `outputAmount` of `outputToken` and calls its handleV3AcrossMessage, which swaps all of it through
 * `destinationVenue` (SwapRouter02) along the V3 path of `path` and `fees` for at least
 * `amountOutMin` to `recipient` before `deadline`, or pays `recipient` the bridged tokens.
 */
export interface AcrossSwapIntent {
  venue: string;
  destinationChainId: UintLike;
  outputToken: string;
  outputAmount: UintLike;
  exclusiveRelayer: string;
  quoteTimestamp: UintLike;
  fillDeadline: UintLike;
  exclusivityParameter: UintLike;
  /** The SwapGatewayRouter of the destination chain (the deposit's recipient there). */
  destinationRouter: string;
  /** The Uniswap V3 SwapRouter02 of the destination chain. */
  destinationVenue: string;
  /** Tokens of the destination path; path[0] is outputToken. */
  path: string[];
  /** Pool fee of each hop: path.length - 1 of them. */
  fees: number[];
  amountOutMin: UintLike;
  recipient: string;
  unwrapNative: boolean;
  /** Seconds since epoch: the deposit and the destination swap (after it: bridged tokens paid). */
  deadline: UintLike;
  /** Paid on the source chain out of the permitted amount first; the deposit gets the rest. None when absent. */
  integratorFees?: IntegratorFeeTerm[];
}

/** The Permit2 half of a sponsored leg: what may be pulled, once, by the router. */
export interface Permit2IntentPermit {
  chainId: number;
  permit2: string;
  /** The SwapGatewayRouter: the Permit2 spender and the address the relayer calls. */
  router: string;
  token: string;
  /** Exactly what the leg pulls and uses. */
  amount: UintLike;
  /** An unused Permit2 unordered nonce of the owner (see randomPermit2Nonce). */
  nonce: UintLike;
  /** Seconds since epoch; Permit2 refuses the signature after it. */
  deadline: UintLike;
}

export interface Eip2612PermitInput {
  chainId: number;
  token: string;
  /** The token's EIP-712 domain name (its ERC-20 name for OpenZeppelin ERC20Permit). */
  tokenName: string;
  /** The token's EIP-712 domain version; OpenZeppelin ERC20Permit uses "1". */
  version?: string;
  owner: string;
  spender: string;
  value: UintLike;
  /** The token's `nonces(owner)`. */
  nonce: UintLike;
  /** Seconds since epoch. */
  deadline: UintLike;
}

/** A transaction for the relayer to send (it pays the gas; `value` is always "0"). */
export interface SponsoredCall {
  to: string;
  data: string;
  /** Wei, decimal string. */
  value: string;
}
