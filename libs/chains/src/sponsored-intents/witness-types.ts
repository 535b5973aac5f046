import type { TypedDataFieldV4 } from './intent-types';

// The EIP-712 types the SwapGatewayRouter and Permit2 hash: each intent's witness struct (= the
// Solidity struct, field for field), the structs it refers to, and the full `types` of a Permit2
// witness transfer or an EIP-2612 Permit.

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
    { name: 'integratorFees', type: 'IntegratorFee[]' },
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
    { name: 'integratorFees', type: 'IntegratorFee[]' },
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
    { name: 'integratorFees', type: 'IntegratorFee[]' },
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

/** The full `types` (with EIP712Domain) of a Permit2 witness transfer carrying `kind`. */
export function permit2WitnessTypes(kind: SponsoredWitnessType): Record<string, TypedDataFieldV4[]> {
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

export function eip2612Types(): Record<string, TypedDataFieldV4[]> {
  return { EIP712Domain: copyFields(EIP2612_DOMAIN_FIELDS), Permit: copyFields(EIP2612_PERMIT_FIELDS) };
}

function copyFields(fields: readonly { name: string; type: string }[]): TypedDataFieldV4[] {
  return fields.map((field) => ({ name: field.name, type: field.type }));
}
