import { CHAIN_FAMILIES, type ChainFamily } from '../chain-formats';
import { FAMILY_WIRE } from '../families/family-wire';

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

/**
 * EIP-712 typed data exactly as `eth_signTypedData_v4` takes it: `types` includes `EIP712Domain`,
 * every uint is a decimal string. (ethers: `wallet.signTypedData(domain, types without
 * EIP712Domain, message)`.)
 */
export interface Eip712TypedData {
  domain: Record<string, string | number>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * A gas-sponsored EVM step: the user signs typed data (an EIP-2612 `Permit` of the input token for
 * Permit2, or a Permit2 `PermitWitnessTransferFrom` whose witness binds the leg) and submits the 65-byte
 * 0x signature as `rawTx`; the service's relayer sends, and pays for, the transaction carrying it.
 */
export interface EvmTypedDataSigningPayload {
  type: 'evm-typed-data';
  typedData: Eip712TypedData;
}

/**
 * The `type` of every SigningPayload variant, in the order the API lists them (a quote's
 * `signatures[].payloadType`): each family's `payloadTypes` in FAMILY_WIRE.
 */
export const SIGNING_PAYLOAD_TYPES: readonly (typeof FAMILY_WIRE)[ChainFamily]['payloadTypes'][number][] =
  CHAIN_FAMILIES.flatMap((family) => FAMILY_WIRE[family].payloadTypes);

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
