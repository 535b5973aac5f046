import {
  AbiCoder,
  getAddress,
  hexlify,
  Interface,
  isHexString,
  randomBytes,
  Signature,
  TypedDataDomain,
  TypedDataEncoder,
  verifyTypedData,
  ZeroAddress,
} from 'ethers';
import { encodeUniswapV3Path } from '../families/evm/evm-calldata';

// Gas-sponsored ("gasless") EVM legs: the user only signs EIP-712 typed data, the service's relayer
// sends the transaction and pays the gas. Two kinds of signature are relayed:
//  - a Permit2 PermitWitnessTransferFrom naming the SwapGatewayRouter as spender, whose witness is
//    the whole leg, the venue it goes through included (SwapIntent: Uniswap V2, SwapV3Intent:
//    Uniswap V3, BridgeIntent or BridgeToIntent: the bridge), or a bridge deposit together with
//    the swap on the destination chain (BridgeSwapIntent: the bridge hands the deposit to the
//    destination's router, which swaps it for the recipient); the router hashes the witness from
//    the arguments it acts on, so the relayer can send the leg as signed or not at all;
//  - an EIP-2612 Permit of the token to Permit2, so a user without ETH can give Permit2 its
//    allowance without an approve transaction.
// Everything here is pure encoding (ethers only): callers show the typed data to the wallet, get the
// signature back, and hand encodeSponsoredCall's result to the relayer.

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

/** An integrator fee a swap intent pays out of the permitted amount, before the swap (base units of the input token). */
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
}

/** The message an Across bridge-swap deposit carries (SwapGatewayRouter.AcrossSwapMessage); `path` is V3's bytes. */
export interface AcrossSwapMessage {
  owner: string;
  /** The Uniswap V3 SwapRouter02 of the destination chain. */
  venue: string;
  /** 0x-hex V3 path (token, uint24 fee, token, ...). */
  path: string;
  amountOutMin: UintLike;
  recipient: string;
  unwrapNative: boolean;
  deadline: UintLike;
}

/** The ABI type of AcrossSwapMessage, as handleV3AcrossMessage abi.decodes it. */
export const ACROSS_SWAP_MESSAGE_ABI_TYPE =
  'tuple(address owner, address venue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline)';

/**
 * The message a bridge-and-swap deposit carries to the destination chain's SwapGatewayRouter
 * (SwapGatewayRouter.BridgeSwapMessage, abi-encoded): its onBridgeRelease swaps what the bridge
 * delivered along `path` for at least `amountOutMin` to `recipient`, or pays `recipient` the bridged
 * tokens when that cannot happen. `owner` is only reported (BridgeSwapSettled): the EVM signer of a
 * bridgeAndSwapWithIntent, the zero address for a deposit made on Solana.
 */
export interface BridgeSwapMessage {
  owner: string;
  /** The Uniswap V2 Router02 of the destination chain. */
  venue: string;
  path: string[];
  amountOutMin: UintLike;
  recipient: string;
  unwrapNative: boolean;
  deadline: UintLike;
}

/** The ABI type of BridgeSwapMessage, as the router abi.decodes it. */
export const BRIDGE_SWAP_MESSAGE_ABI_TYPE =
  'tuple(address owner, address venue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline)';

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

/** Typed data or a signature that cannot become a sponsored call as it is. */
export class SponsoredIntentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SponsoredIntentError';
  }
}

/** The witness structs the SwapGatewayRouter accepts, in EIP-712 field order (= Solidity struct order). */
export const SPONSORED_INTENT_TYPES = {
  SwapIntent: [
    { name: 'venue', type: 'address' },
    { name: 'path', type: 'address[]' },
    { name: 'amountOutMin', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'unwrapNative', type: 'bool' },
    { name: 'deadline', type: 'uint256' },
    { name: 'integratorFees', type: 'IntegratorFee[]' },
  ],
  SwapV3Intent: [
    { name: 'venue', type: 'address' },
    { name: 'path', type: 'bytes' },
    { name: 'amountOutMin', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'unwrapNative', type: 'bool' },
    { name: 'deadline', type: 'uint256' },
    { name: 'integratorFees', type: 'IntegratorFee[]' },
  ],
  BridgeIntent: [
    { name: 'venue', type: 'address' },
    { name: 'destinationChainId', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'deadline', type: 'uint256' },
    { name: 'integratorFees', type: 'IntegratorFee[]' },
  ],
  BridgeToIntent: [
    { name: 'venue', type: 'address' },
    { name: 'destinationChainId', type: 'uint256' },
    { name: 'recipient', type: 'bytes32' },
    { name: 'deadline', type: 'uint256' },
  ],
  BridgeSwapIntent: [
    { name: 'venue', type: 'address' },
    { name: 'destinationChainId', type: 'uint256' },
    { name: 'destinationRouter', type: 'address' },
    { name: 'destinationVenue', type: 'address' },
    { name: 'path', type: 'address[]' },
    { name: 'amountOutMin', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'unwrapNative', type: 'bool' },
    { name: 'deadline', type: 'uint256' },
    { name: 'integratorFees', type: 'IntegratorFee[]' },
  ],
  AcrossIntent: [
    { name: 'venue', type: 'address' },
    { name: 'destinationChainId', type: 'uint256' },
    { name: 'outputToken', type: 'address' },
    { name: 'outputAmount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'exclusiveRelayer', type: 'address' },
    { name: 'quoteTimestamp', type: 'uint32' },
    { name: 'fillDeadline', type: 'uint32' },
    { name: 'exclusivityParameter', type: 'uint32' },
    { name: 'deadline', type: 'uint256' },
  ],
  AcrossSwapIntent: [
    { name: 'venue', type: 'address' },
    { name: 'destinationChainId', type: 'uint256' },
    { name: 'outputToken', type: 'address' },
    { name: 'outputAmount', type: 'uint256' },
    { name: 'exclusiveRelayer', type: 'address' },
    { name: 'quoteTimestamp', type: 'uint32' },
    { name: 'fillDeadline', type: 'uint32' },
    { name: 'exclusivityParameter', type: 'uint32' },
    { name: 'destinationRouter', type: 'address' },
    { name: 'destinationVenue', type: 'address' },
    { name: 'path', type: 'bytes' },
    { name: 'amountOutMin', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'unwrapNative', type: 'bool' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/** An EIP-712 witness type name of a sponsored intent (`SwapIntent`, `BridgeIntent`...); the step kinds are `SponsoredIntentKind` in @swapgw/contracts. */
export type SponsoredWitnessType = keyof typeof SPONSORED_INTENT_TYPES;

const TOKEN_PERMISSIONS_FIELDS = [
  { name: 'token', type: 'address' },
  { name: 'amount', type: 'uint256' },
];

/** The struct a swap or bridge intent's `integratorFees` lists (the router's IntegratorFee). */
export const INTEGRATOR_FEE_FIELDS = [
  { name: 'recipient', type: 'address' },
  { name: 'amount', type: 'uint256' },
] as const;

/** The structs an intent refers to besides TokenPermissions (EIP-712 "referenced types"). */
function referencedTypesOf(
  kind: SponsoredWitnessType,
): Record<string, readonly { name: string; type: string }[]> {
  return SPONSORED_INTENT_TYPES[kind].some((field) => field.type === 'IntegratorFee[]')
    ? { IntegratorFee: INTEGRATOR_FEE_FIELDS }
    : {};
}

/** Canonical Permit2's fixed head of every witness type string (its PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB). */
export const PERMIT2_WITNESS_TYPEHASH_STUB =
  'PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,';

/**
 * The `witnessTypeString` the router passes to Permit2 for each intent (its *_WITNESS_TYPE
 * constants): the witness field is named `witness`, as in Uniswap's permit2-sdk and UniswapX, and the
 * referenced types follow in alphabetical order as EIP-712's encodeType requires.
 */
export const PERMIT2_WITNESS_TYPE_STRINGS = Object.fromEntries(
  Object.keys(SPONSORED_INTENT_TYPES).map((kind) => {
    const structs = {
      ...referencedTypesOf(kind as SponsoredWitnessType),
      [kind]: SPONSORED_INTENT_TYPES[kind as SponsoredWitnessType],
      TokenPermissions: TOKEN_PERMISSIONS_FIELDS,
    };
    const encoded = Object.keys(structs)
      .sort()
      .map((name) => `${name}(${structs[name].map((f) => `${f.type} ${f.name}`).join(',')})`)
      .join('');
    return [kind, `${kind} witness)${encoded}`];
  }),
) as Record<SponsoredWitnessType, string>;

const PERMIT_TUPLE = '((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit';
/** The router's IntegratorFee[] as an ABI tuple array. */
export const INTEGRATOR_FEES_TUPLE = '(address recipient, uint256 amount)[] integratorFees';

/** The SwapGatewayRouter's sponsored entry points (the `...WithIntent` functions). */
export const sponsoredRouterInterface = new Interface([
  `function swapWithIntent(${PERMIT_TUPLE}, address owner, (address venue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 amountOut)`,
  `function swapV3WithIntent(${PERMIT_TUPLE}, address owner, (address venue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 amountOut)`,
  `function bridgeWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address recipient, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 bridgeNonce)`,
  `function bridgeToWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, bytes32 recipient, uint256 deadline) intent, bytes signature) returns (uint256 bridgeNonce)`,
  `function bridgeAndSwapWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address destinationRouter, address destinationVenue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 bridgeNonce)`,
  `function acrossWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address outputToken, uint256 outputAmount, address recipient, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, uint256 deadline) intent, bytes signature)`,
  `function acrossAndSwapWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address outputToken, uint256 outputAmount, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, address destinationRouter, address destinationVenue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline) intent, bytes signature)`,
]);

/** The destination router's Across message handler (AcrossMessageHandler), as a SpokePool's fill calls it. */
export const acrossMessageHandlerInterface = new Interface([
  'function handleV3AcrossMessage(address tokenSent, uint256 amount, address relayer, bytes message)',
]);

/** EIP-2612 `permit`, sent by the relayer on the user's behalf. */
export const eip2612PermitInterface = new Interface([
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
]);

const ROUTER_METHOD: Record<SponsoredWitnessType, string> = {
  SwapIntent: 'swapWithIntent',
  SwapV3Intent: 'swapV3WithIntent',
  BridgeIntent: 'bridgeWithIntent',
  BridgeToIntent: 'bridgeToWithIntent',
  BridgeSwapIntent: 'bridgeAndSwapWithIntent',
  AcrossIntent: 'acrossWithIntent',
  AcrossSwapIntent: 'acrossAndSwapWithIntent',
};

const PERMIT2_DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

const EIP2612_DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

const EIP2612_PERMIT_FIELDS = [
  { name: 'owner', type: 'address' },
  { name: 'spender', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'nonce', type: 'uint256' },
  { name: 'deadline', type: 'uint256' },
];

const MAX_UINT256 = (1n << 256n) - 1n;

/** The full `types` (with EIP712Domain) of a Permit2 witness transfer carrying `kind`. */
function permit2WitnessTypes(kind: SponsoredWitnessType): Record<string, TypedDataFieldV4[]> {
  return {
    EIP712Domain: copyFields(PERMIT2_DOMAIN_FIELDS),
    PermitWitnessTransferFrom: [
      { name: 'permitted', type: 'TokenPermissions' },
      { name: 'spender', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
      { name: 'witness', type: kind },
    ],
    [kind]: copyFields(SPONSORED_INTENT_TYPES[kind]),
    ...Object.fromEntries(
      Object.entries(referencedTypesOf(kind)).map(([name, fields]) => [name, copyFields(fields)]),
    ),
    TokenPermissions: copyFields(TOKEN_PERMISSIONS_FIELDS),
  };
}

function eip2612Types(): Record<string, TypedDataFieldV4[]> {
  return { EIP712Domain: copyFields(EIP2612_DOMAIN_FIELDS), Permit: copyFields(EIP2612_PERMIT_FIELDS) };
}

function permit2IntentTypedData(
  kind: SponsoredWitnessType,
  permit: Permit2IntentPermit,
  witness: Record<string, unknown>,
): TypedDataV4 {
  return {
    domain: {
      name: 'Permit2',
      chainId: chainIdOf(permit.chainId),
      verifyingContract: checksummed(permit.permit2, 'permit2'),
    },
    types: permit2WitnessTypes(kind),
    primaryType: 'PermitWitnessTransferFrom',
    message: {
      permitted: { token: checksummed(permit.token, 'token'), amount: uintString(permit.amount, 'amount') },
      spender: checksummed(permit.router, 'router'),
      nonce: uintString(permit.nonce, 'nonce'),
      deadline: uintString(permit.deadline, 'deadline'),
      witness,
    },
  };
}

/**
 * What the owner signs for a sponsored swap: Permit2 may move `amount` of `token` once, to the
 * router, which must swap all of it along `intent.path` for at least `intent.amountOutMin` to
 * `intent.recipient` before `intent.deadline`. Throws when the path does not start with the token
 * (the router would refuse it) so the user is never asked to sign a leg that cannot happen.
 */
export function swapIntentTypedData(input: Permit2IntentPermit & { intent: SwapIntent }): TypedDataV4 {
  const { intent } = input;
  const path = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  if (path.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  if (path[0] !== checksummed(input.token, 'token'))
    throw new SponsoredIntentError(
      `intent.path starts with ${path[0]}, not the permitted token ${input.token}`,
    );
  if (typeof intent.unwrapNative !== 'boolean')
    throw new SponsoredIntentError('intent.unwrapNative must be a boolean');
  return permit2IntentTypedData('SwapIntent', input, {
    venue: checksummed(intent.venue, 'intent.venue'),
    path,
    amountOutMin: uintString(intent.amountOutMin, 'intent.amountOutMin'),
    recipient: checksummed(intent.recipient, 'intent.recipient'),
    unwrapNative: intent.unwrapNative,
    deadline: uintString(intent.deadline, 'intent.deadline'),
    integratorFees: integratorFeesOf(intent.integratorFees, input.amount),
  });
}

/**
 * The fees as the witness carries them (checksummed recipients, decimal amounts); each non-zero and
 * together less than the permitted amount, as the router requires, so a user is never asked to sign
 * fees the router would refuse.
 */
function integratorFeesOf(
  fees: IntegratorFeeTerm[] | undefined,
  permitted: UintLike,
): { recipient: string; amount: string }[] {
  const terms = (fees ?? []).map((fee, i) => ({
    recipient: checksummed(fee.recipient, `intent.integratorFees[${i}].recipient`),
    amount: uintString(fee.amount, `intent.integratorFees[${i}].amount`),
  }));
  const total = terms.reduce((sum, fee) => sum + BigInt(fee.amount), 0n);
  if (terms.some((fee) => BigInt(fee.amount) === 0n || fee.recipient === ZeroAddress))
    throw new SponsoredIntentError('intent.integratorFees: each fee needs a recipient and a non-zero amount');
  if (terms.length > 0 && total >= BigInt(uintString(permitted, 'amount')))
    throw new SponsoredIntentError('intent.integratorFees take the whole permitted amount');
  return terms;
}

/**
 * What the owner signs for a sponsored Uniswap V3 swap: Permit2 may move `amount` of `token` once,
 * to the router, which must swap all of it through `intent.venue` (SwapRouter02 exactInput) along
 * the V3 path of `intent.path` and `intent.fees` for at least `intent.amountOutMin` to
 * `intent.recipient` before `intent.deadline`. Throws when the path does not start with the token.
 */
export function swapV3IntentTypedData(input: Permit2IntentPermit & { intent: SwapV3Intent }): TypedDataV4 {
  const { intent } = input;
  const tokens = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  if (tokens.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  if (tokens[0] !== checksummed(input.token, 'token'))
    throw new SponsoredIntentError(
      `intent.path starts with ${tokens[0]}, not the permitted token ${input.token}`,
    );
  requirePoolFees(intent.fees, tokens.length);
  if (typeof intent.unwrapNative !== 'boolean')
    throw new SponsoredIntentError('intent.unwrapNative must be a boolean');
  return permit2IntentTypedData('SwapV3Intent', input, {
    venue: checksummed(intent.venue, 'intent.venue'),
    path: encodeUniswapV3Path(tokens, intent.fees),
    amountOutMin: uintString(intent.amountOutMin, 'intent.amountOutMin'),
    recipient: checksummed(intent.recipient, 'intent.recipient'),
    unwrapNative: intent.unwrapNative,
    deadline: uintString(intent.deadline, 'intent.deadline'),
    integratorFees: integratorFeesOf(intent.integratorFees, input.amount),
  });
}

/** What the owner signs for a sponsored bridge deposit of `amount` (of the bridge's token) to an EVM recipient. */
export function bridgeIntentTypedData(input: Permit2IntentPermit & { intent: BridgeIntent }): TypedDataV4 {
  const { intent } = input;
  return permit2IntentTypedData('BridgeIntent', input, {
    venue: checksummed(intent.venue, 'intent.venue'),
    destinationChainId: uintString(intent.destinationChainId, 'intent.destinationChainId'),
    recipient: checksummed(intent.recipient, 'intent.recipient'),
    deadline: uintString(intent.deadline, 'intent.deadline'),
    integratorFees: integratorFeesOf(intent.integratorFees, input.amount),
  });
}

/** What the owner signs for a sponsored bridge deposit to a 32-byte recipient (Solana). */
export function bridgeToIntentTypedData(
  input: Permit2IntentPermit & { intent: BridgeToIntent },
): TypedDataV4 {
  const { intent } = input;
  if (!isHexString(intent.recipient, 32))
    throw new SponsoredIntentError('intent.recipient must be 32 bytes of 0x-hex');
  return permit2IntentTypedData('BridgeToIntent', input, {
    venue: checksummed(intent.venue, 'intent.venue'),
    destinationChainId: uintString(intent.destinationChainId, 'intent.destinationChainId'),
    recipient: hexlify(intent.recipient),
    deadline: uintString(intent.deadline, 'intent.deadline'),
  });
}

/**
 * What the owner signs for a sponsored bridge deposit whose destination swap runs without another
 * signature: `amount` of the bridge's token leaves the owner once, for the destination router on
 * `destinationChainId`, which can only swap it along `path` for at least `amountOutMin` to
 * `recipient` before `deadline` (else pays `recipient` the bridged tokens). Throws on a path shorter
 * than two tokens or a recipient that is the destination router (the router would refuse either).
 */
export function bridgeSwapIntentTypedData(
  input: Permit2IntentPermit & { intent: BridgeSwapIntent },
): TypedDataV4 {
  const { intent } = input;
  const path = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  if (path.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  if (typeof intent.unwrapNative !== 'boolean')
    throw new SponsoredIntentError('intent.unwrapNative must be a boolean');
  const destinationRouter = checksummed(intent.destinationRouter, 'intent.destinationRouter');
  const recipient = checksummed(intent.recipient, 'intent.recipient');
  if (recipient === destinationRouter)
    throw new SponsoredIntentError('intent.recipient cannot be the destination router');
  return permit2IntentTypedData('BridgeSwapIntent', input, {
    venue: checksummed(intent.venue, 'intent.venue'),
    destinationChainId: uintString(intent.destinationChainId, 'intent.destinationChainId'),
    destinationRouter,
    destinationVenue: checksummed(intent.destinationVenue, 'intent.destinationVenue'),
    path,
    amountOutMin: uintString(intent.amountOutMin, 'intent.amountOutMin'),
    recipient,
    unwrapNative: intent.unwrapNative,
    deadline: uintString(intent.deadline, 'intent.deadline'),
    integratorFees: integratorFeesOf(intent.integratorFees, input.amount),
  });
}

/** What the owner signs for a sponsored Across deposit of `amount` (the SpokePool's input token). */
export function acrossIntentTypedData(input: Permit2IntentPermit & { intent: AcrossIntent }): TypedDataV4 {
  const { intent } = input;
  return permit2IntentTypedData('AcrossIntent', input, {
    venue: checksummed(intent.venue, 'intent.venue'),
    destinationChainId: uintString(intent.destinationChainId, 'intent.destinationChainId'),
    outputToken: checksummed(intent.outputToken, 'intent.outputToken'),
    outputAmount: uintString(intent.outputAmount, 'intent.outputAmount'),
    recipient: checksummed(intent.recipient, 'intent.recipient'),
    ...acrossQuoteTerms(intent),
    deadline: uintString(intent.deadline, 'intent.deadline'),
  });
}

/**
 * What the owner signs for a sponsored Across deposit whose destination swap runs without another
 * signature: the fill pays the destination router, which can only swap along the V3 path for at
 * least `amountOutMin` to `recipient` before `deadline` (else pays `recipient` the bridged tokens).
 * Throws on a path that does not start with `outputToken`, bad fees, or the router as recipient.
 */
export function acrossSwapIntentTypedData(
  input: Permit2IntentPermit & { intent: AcrossSwapIntent },
): TypedDataV4 {
  const { intent } = input;
  const tokens = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  const outputToken = checksummed(intent.outputToken, 'intent.outputToken');
  if (tokens.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  if (tokens[0] !== outputToken)
    throw new SponsoredIntentError(
      `intent.path starts with ${tokens[0]}, not the output token ${outputToken}`,
    );
  requirePoolFees(intent.fees, tokens.length);
  if (typeof intent.unwrapNative !== 'boolean')
    throw new SponsoredIntentError('intent.unwrapNative must be a boolean');
  const destinationRouter = checksummed(intent.destinationRouter, 'intent.destinationRouter');
  const recipient = checksummed(intent.recipient, 'intent.recipient');
  if (recipient === destinationRouter)
    throw new SponsoredIntentError('intent.recipient cannot be the destination router');
  return permit2IntentTypedData('AcrossSwapIntent', input, {
    venue: checksummed(intent.venue, 'intent.venue'),
    destinationChainId: uintString(intent.destinationChainId, 'intent.destinationChainId'),
    outputToken,
    outputAmount: uintString(intent.outputAmount, 'intent.outputAmount'),
    ...acrossQuoteTerms(intent),
    destinationRouter,
    destinationVenue: checksummed(intent.destinationVenue, 'intent.destinationVenue'),
    path: encodeUniswapV3Path(tokens, intent.fees),
    amountOutMin: uintString(intent.amountOutMin, 'intent.amountOutMin'),
    recipient,
    unwrapNative: intent.unwrapNative,
    deadline: uintString(intent.deadline, 'intent.deadline'),
  });
}

/** Across's quote terms of an intent, in witness order (uint32s as decimal strings). */
function acrossQuoteTerms(
  intent: Pick<AcrossIntent, 'exclusiveRelayer' | 'quoteTimestamp' | 'fillDeadline' | 'exclusivityParameter'>,
) {
  return {
    exclusiveRelayer: checksummed(intent.exclusiveRelayer, 'intent.exclusiveRelayer'),
    quoteTimestamp: uint32String(intent.quoteTimestamp, 'intent.quoteTimestamp'),
    fillDeadline: uint32String(intent.fillDeadline, 'intent.fillDeadline'),
    exclusivityParameter: uint32String(intent.exclusivityParameter, 'intent.exclusivityParameter'),
  };
}

/**
 * An EIP-2612 Permit (OpenZeppelin ERC20Permit domain: name, version, chainId, token), typically
 * spender Permit2 and value MaxUint256: the relayer submits it with `token.permit`, so a user with no
 * ETH gives Permit2 its allowance by signing only.
 */
export function eip2612PermitTypedData(input: Eip2612PermitInput): TypedDataV4 {
  return {
    domain: {
      name: input.tokenName,
      version: input.version ?? '1',
      chainId: chainIdOf(input.chainId),
      verifyingContract: checksummed(input.token, 'token'),
    },
    types: eip2612Types(),
    primaryType: 'Permit',
    message: {
      owner: checksummed(input.owner, 'owner'),
      spender: checksummed(input.spender, 'spender'),
      value: uintString(input.value, 'value'),
      nonce: uintString(input.nonce, 'nonce'),
      deadline: uintString(input.deadline, 'deadline'),
    },
  };
}

/** The arguments of ethers' `signer.signTypedData(domain, types, value)`: ethers derives EIP712Domain itself and refuses it in `types`. */
export function ethersTypedDataArgs(td: TypedDataV4): {
  domain: TypedDataDomain;
  types: Record<string, TypedDataFieldV4[]>;
  value: Record<string, unknown>;
} {
  const types = Object.fromEntries(Object.entries(td.types).filter(([name]) => name !== 'EIP712Domain'));
  return { domain: td.domain as TypedDataDomain, types, value: td.message };
}

/** The address whose key made `signature` over `td` (checksummed): check it is the owner before spending gas. */
export function recoverTypedDataSigner(td: TypedDataV4, signature: string): string {
  const { domain, types, value } = ethersTypedDataArgs(td);
  return verifyTypedData(domain, types, value, signature);
}

/** The EIP-712 digest of `td` (what the signature is over and the contract recomputes). */
export function typedDataDigest(td: TypedDataV4): string {
  const { domain, types, value } = ethersTypedDataArgs(td);
  return TypedDataEncoder.hash(domain, types, value);
}

/** Which sponsored call `td` is for; throws unless its types are exactly one of those built here (another shape would be signed but refused on chain). */
export function sponsoredTypedDataKind(td: TypedDataV4): SponsoredWitnessType | 'Eip2612Permit' {
  if (td.primaryType === 'Permit') {
    requireTypes(td, eip2612Types());
    return 'Eip2612Permit';
  }
  if (td.primaryType !== 'PermitWitnessTransferFrom')
    throw new SponsoredIntentError(`primaryType ${td.primaryType} is not a sponsored call`);
  const witnessType = td.types.PermitWitnessTransferFrom?.find((field) => field.name === 'witness')?.type;
  if (!witnessType || !Object.hasOwn(SPONSORED_INTENT_TYPES, witnessType))
    throw new SponsoredIntentError(`witness type ${witnessType ?? '(none)'} is not a sponsored intent`);
  const kind = witnessType as SponsoredWitnessType;
  requireTypes(td, permit2WitnessTypes(kind));
  if (td.domain.name !== 'Permit2')
    throw new SponsoredIntentError(`domain name ${td.domain.name} is not Permit2`);
  return kind;
}

/**
 * The transaction the relayer sends for signed typed data: for a Permit2 intent the router's
 * swapWithIntent / swapV3WithIntent / bridgeWithIntent / bridgeToWithIntent / bridgeAndSwapWithIntent / acrossWithIntent / acrossAndSwapWithIntent (to = the signed
 * spender), for an EIP-2612
 * Permit `token.permit(owner, spender, value, deadline, v, r, s)` (to = the token). Encodes only:
 * check `recoverTypedDataSigner(td, signature)` is `owner` first (an EOA owner), or the call reverts
 * with InvalidSigner at the relayer's expense.
 */
export function encodeSponsoredCall(td: TypedDataV4, owner: string, signature: string): SponsoredCall {
  const kind = sponsoredTypedDataKind(td);
  const ownerAddress = checksummed(owner, 'owner');
  const message = td.message as Record<string, never>;
  if (kind === 'Eip2612Permit') {
    if (checksummed(message.owner, 'message.owner') !== ownerAddress)
      throw new SponsoredIntentError(`the permit is for ${message.owner}, not ${ownerAddress}`);
    const { v, r, s } = Signature.from(signature);
    return {
      to: checksummed(String(td.domain.verifyingContract), 'domain.verifyingContract'),
      data: eip2612PermitInterface.encodeFunctionData('permit', [
        ownerAddress,
        message.spender,
        message.value,
        message.deadline,
        v,
        r,
        s,
      ]),
      value: '0',
    };
  }
  const permitted = message.permitted as Record<string, never>;
  const witness = message.witness as Record<string, never>;
  const permit = [[permitted.token, permitted.amount], message.nonce, message.deadline];
  const intent = SPONSORED_INTENT_TYPES[kind].map((field) =>
    field.type === 'IntegratorFee[]'
      ? (witness[field.name] as { recipient: string; amount: string }[]).map((fee) => [
          fee.recipient,
          fee.amount,
        ])
      : witness[field.name],
  );
  // Passed on as signed: Permit2 takes 65- and 64-byte signatures and EIP-1271 ones of any length.
  if (!isHexString(signature) || signature.length < 4)
    throw new SponsoredIntentError('signature must be 0x-hex bytes');
  return {
    to: checksummed(message.spender, 'message.spender'),
    data: sponsoredRouterInterface.encodeFunctionData(ROUTER_METHOD[kind], [
      permit,
      ownerAddress,
      intent,
      signature,
    ]),
    value: '0',
  };
}

/** The bytes (0x-hex) of a BridgeSwapMessage, exactly as bridgeAndSwapWithIntent deposits them. */
export function encodeBridgeSwapMessage(message: BridgeSwapMessage): string {
  return AbiCoder.defaultAbiCoder().encode(
    [BRIDGE_SWAP_MESSAGE_ABI_TYPE],
    [
      [
        checksummed(message.owner, 'owner'),
        checksummed(message.venue, 'venue'),
        message.path.map((hop, i) => checksummed(hop, `path[${i}]`)),
        uintString(message.amountOutMin, 'amountOutMin'),
        checksummed(message.recipient, 'recipient'),
        message.unwrapNative,
        uintString(message.deadline, 'deadline'),
      ],
    ],
  );
}

/** The bytes (0x-hex) of an AcrossSwapMessage, exactly as acrossAndSwapWithIntent deposits them. */
export function encodeAcrossSwapMessage(message: AcrossSwapMessage): string {
  return AbiCoder.defaultAbiCoder().encode(
    [ACROSS_SWAP_MESSAGE_ABI_TYPE],
    [
      [
        checksummed(message.owner, 'owner'),
        checksummed(message.venue, 'venue'),
        hexlify(message.path),
        uintString(message.amountOutMin, 'amountOutMin'),
        checksummed(message.recipient, 'recipient'),
        message.unwrapNative,
        uintString(message.deadline, 'deadline'),
      ],
    ],
  );
}

/** The inverse of encodeBridgeSwapMessage (uints as bigint). */
export function decodeBridgeSwapMessage(
  bytes: string,
): BridgeSwapMessage & { amountOutMin: bigint; deadline: bigint } {
  const [[owner, venue, path, amountOutMin, recipient, unwrapNative, deadline]] =
    AbiCoder.defaultAbiCoder().decode([BRIDGE_SWAP_MESSAGE_ABI_TYPE], bytes) as unknown as [
      [string, string, string[], bigint, string, boolean, bigint],
    ];
  return { owner, venue, path: [...path], amountOutMin, recipient, unwrapNative, deadline };
}

/**
 * A fresh Permit2 unordered nonce: 248 random bits, so nonces of independent signing sessions never
 * collide (and almost never share a bitmap word) without reading the owner's nonceBitmap first.
 */
export function randomPermit2Nonce(): bigint {
  return BigInt(hexlify(randomBytes(31)));
}

/** Where Permit2 records `nonce`: used once `nonceBitmap(owner, wordPos) & mask` is non-zero. */
export function permit2NonceBit(nonce: UintLike): { wordPos: bigint; mask: bigint } {
  const value = BigInt(uintString(nonce, 'nonce'));
  return { wordPos: value >> 8n, mask: 1n << (value & 0xffn) };
}

function requireTypes(td: TypedDataV4, expected: Record<string, TypedDataFieldV4[]>): void {
  const { EIP712Domain: expectedDomain, ...expectedStructs } = expected;
  const { EIP712Domain: domainFields, ...structs } = td.types;
  const sameFields = (a: TypedDataFieldV4[] | undefined, b: TypedDataFieldV4[]) =>
    a !== undefined &&
    a.length === b.length &&
    a.every((field, i) => field.name === b[i].name && field.type === b[i].type);
  const structsMatch =
    Object.keys(structs).length === Object.keys(expectedStructs).length &&
    Object.entries(expectedStructs).every(([name, fields]) => sameFields(structs[name], fields));
  // A wallet hashes the domain with the EIP712Domain it is given (ethers with the keys present);
  // the contract's domain has exactly these fields.
  const domainKeys = Object.keys(td.domain).sort().join();
  const domainMatches =
    (domainFields === undefined || sameFields(domainFields, expectedDomain)) &&
    domainKeys ===
      expectedDomain
        .map((f) => f.name)
        .sort()
        .join();
  if (!structsMatch || !domainMatches)
    throw new SponsoredIntentError(
      `the typed data's types or domain are not those of a ${td.primaryType} the contracts verify`,
    );
}

function requirePoolFees(fees: number[], tokens: number): void {
  if (fees.length !== tokens - 1 || !fees.every((fee) => Number.isInteger(fee) && fee > 0 && fee < 1 << 24))
    throw new SponsoredIntentError(`intent.fees must be ${tokens - 1} uint24 pool fees`);
}

function uint32String(value: UintLike, field: string): string {
  const parsed = uintString(value, field);
  if (BigInt(parsed) >= 1n << 32n)
    throw new SponsoredIntentError(`${field} is not a uint32: ${String(value)}`);
  return parsed;
}

function copyFields(fields: readonly { name: string; type: string }[]): TypedDataFieldV4[] {
  return fields.map((field) => ({ name: field.name, type: field.type }));
}

function checksummed(value: unknown, field: string): string {
  try {
    return getAddress(String(value));
  } catch {
    throw new SponsoredIntentError(`${field} is not an address: ${String(value)}`);
  }
}

function uintString(value: UintLike, field: string): string {
  let parsed: bigint;
  // BigInt('') is 0n: an empty field must not silently become zero.
  if (typeof value === 'string' && value.trim() === '') throw new SponsoredIntentError(`${field} is empty`);
  try {
    parsed = BigInt(value);
  } catch {
    throw new SponsoredIntentError(`${field} is not an integer: ${String(value)}`);
  }
  if (parsed < 0n || parsed > MAX_UINT256)
    throw new SponsoredIntentError(`${field} is not a uint256: ${String(value)}`);
  return parsed.toString();
}

function chainIdOf(chainId: number): number {
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new SponsoredIntentError(`chainId is not a positive integer: ${chainId}`);
  return chainId;
}
