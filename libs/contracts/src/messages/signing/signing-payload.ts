/**
 * The EVM signing payload: `transaction` is signable as-is by ethers `Wallet.signTransaction`
 * (EIP-1559 fields imply a type-2 transaction; `from` must be the wallet's address).
 * Big numbers are decimal strings.
 */
export interface EvmTransactionPayload {
  chainId: string;
  from: string;
  to: string;
  data: string;
  value: string;
  nonce: string;
  gasLimit: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
}

export interface EvmSigningPayload {
  type: 'evm-transaction';
  transaction: EvmTransactionPayload;
}

/** Solana: base64 of the serialized unsigned v0 transaction, fee payer = the signing wallet. */
export interface SolanaSigningPayload {
  type: 'solana-versioned-transaction';
  transaction: string;
}

export type SigningPayload = EvmSigningPayload | SolanaSigningPayload;

/** `executionHints` of an EVM payload (decimal strings, wei / gas units). */
export interface EvmExecutionHints {
  gasEstimate: string;
  gasLimit: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  /** gasLimit * maxFeePerGas: the most the transaction can cost. */
  estimatedFeeWei: string;
}

export interface SigningClientHints {
  recommendedWallet: string;
  /** Human chain name (e.g. `Devnet A`). */
  network: string;
  action: 'approve' | 'swap' | 'bridge';
}
