// EIP-712 typed data of the two kinds of permit the SwapGatewayRouter takes, as a wallet signs them
// (ethers `signTypedData(domain, types, message)`). docs/integrator-guide.md, "Permits", shows the same.

/** EIP-2612 `Permit` of an ERC-20 (OpenZeppelin ERC20Permit): domain {name, version, chainId, verifyingContract: token}. */
export const EIP2612_PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
};

/**
 * Permit2 SignatureTransfer `PermitTransferFrom`, as Uniswap documents it: domain
 * {name: "Permit2", chainId, verifyingContract: Permit2} (no version); `spender` is the contract that
 * calls permitTransferFrom (the SwapGatewayRouter).
 */
export const PERMIT2_TRANSFER_FROM_TYPES = {
  PermitTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
};

export interface Eip2612PermitInput {
  chainId: number;
  token: { address: string; name: string; permitVersion?: string };
  owner: string;
  spender: string;
  value: bigint;
  /** The token's `nonces(owner)`. */
  nonce: bigint;
  /** Seconds since epoch. */
  deadline: bigint;
}

export function eip2612PermitTypedData(input: Eip2612PermitInput) {
  return {
    domain: {
      name: input.token.name,
      version: input.token.permitVersion ?? '1',
      chainId: input.chainId,
      verifyingContract: input.token.address,
    },
    types: EIP2612_PERMIT_TYPES,
    message: {
      owner: input.owner,
      spender: input.spender,
      value: input.value,
      nonce: input.nonce,
      deadline: input.deadline,
    },
  };
}

export interface Permit2TransferInput {
  chainId: number;
  permit2: string;
  token: string;
  amount: bigint;
  spender: string;
  /** Any unused nonce of the owner (unordered: word nonce >> 8, bit nonce & 0xff of nonceBitmap). */
  nonce: bigint;
  /** Seconds since epoch. */
  deadline: bigint;
}

export function permit2TransferTypedData(input: Permit2TransferInput) {
  return {
    domain: { name: 'Permit2', chainId: input.chainId, verifyingContract: input.permit2 },
    types: PERMIT2_TRANSFER_FROM_TYPES,
    message: {
      permitted: { token: input.token, amount: input.amount },
      spender: input.spender,
      nonce: input.nonce,
      deadline: input.deadline,
    },
  };
}
