/**
 * The parts of a signing step that the families and their shared interface (step-spec-family.ts)
 * both name: a contract call, the user's router permit, an integrator fee. A leaf: it imports
 * nothing, so any family module can use it without reaching another family or the registry.
 */

export interface EncodedCall {
  to: string;
  data: string;
  /** Wei, decimal string. */
  value: string;
}

/** The user's permit as the SwapGatewayRouter takes it, and where to send the call. */
export interface RouterPermit {
  /** The SwapGatewayRouter of the leg's chain: the call's `to` and the spender the user signed for. */
  router: string;
  kind: 'eip2612' | 'permit2';
  /** Permit2 nonce (0 for EIP-2612: the token keeps its own). */
  nonce: bigint;
  /** Seconds since epoch. */
  deadline: bigint;
  /** 0x-hex, 65 bytes (r, s, v). */
  signature: string;
}

/** One integrator fee, in base units of the swap's input token. */
export interface IntegratorFeeTransfer {
  recipient: string;
  amount: bigint;
}
