import type { EvmExecutionHints, EvmSigningPayload, SigningCall } from '@swapgw/contracts';

/** Chain state a payload is built from, read just before issuing it. */
export interface EvmPayloadChainState {
  chainId: bigint;
  /** Pending nonce of `from`: counts its transactions still in the mempool. */
  nonce: number;
  gasEstimate: bigint;
  /** From eth_feeHistory / getFeeData: the network's current suggestion. */
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface EvmPayloadPolicy {
  /** gasLimit = estimate * gasLimitPercent / 100 (120: 20 % head room for state drift). */
  gasLimitPercent: number;
  /**
   * maxFeePerGas = suggestion * feeSafetyPercent / 100: the payload stays valid for its lifetime
   * (minutes) even when the base fee rises a few blocks in a row (+12.5 % per full block).
   */
  feeSafetyPercent: number;
}

export interface BuiltEvmPayload {
  payload: EvmSigningPayload;
  executionHints: EvmExecutionHints;
}

const scale = (value: bigint, percent: number): bigint => (value * BigInt(Math.round(percent))) / 100n;

/**
 * The EVM signing payload of one call, in the form ethers `Wallet.signTransaction` signs as-is:
 * EIP-1559 fee fields (so a type-2 transaction), every big number as a decimal string.
 */
export function buildEvmSigningPayload(
  from: string,
  call: SigningCall,
  state: EvmPayloadChainState,
  policy: EvmPayloadPolicy,
): BuiltEvmPayload {
  const gasLimit = scale(state.gasEstimate, policy.gasLimitPercent);
  const maxPriorityFeePerGas = state.maxPriorityFeePerGas;
  let maxFeePerGas = scale(state.maxFeePerGas, policy.feeSafetyPercent);
  // A max fee below the tip is rejected by every node (EIP-1559 invariant).
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  return {
    payload: {
      type: 'evm-transaction',
      transaction: {
        chainId: state.chainId.toString(),
        from,
        to: call.to,
        data: call.data,
        value: BigInt(call.value).toString(),
        nonce: state.nonce.toString(),
        gasLimit: gasLimit.toString(),
        maxFeePerGas: maxFeePerGas.toString(),
        maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
      },
    },
    executionHints: {
      gasEstimate: state.gasEstimate.toString(),
      gasLimit: gasLimit.toString(),
      maxFeePerGas: maxFeePerGas.toString(),
      maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
      estimatedFeeWei: (gasLimit * maxFeePerGas).toString(),
    },
  };
}
