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

/** Solana: base64 of the serialized unsigned v0 transaction, fee payer = the signing wallet. */
export interface SolanaSigningPayload {
  type: 'solana-versioned-transaction';
  transaction: string;
}

/** One input a Bitcoin wallet signs (Unisat `toSignInputs`, Xverse `inputsToSign`, Leather). */
export interface BitcoinInputToSign {
  index: number;
  /** The address whose key signs it (the user's). */
  address: string;
  /** 1 (SIGHASH_ALL) on P2WPKH, 0 (Taproot's default, which signs all) on P2TR. */
  sighashTypes: number[];
}

/**
 * Bitcoin: base64 of the PSBT the wallet signs (`signPsbt`). The user's inputs (listed in
 * `inputsToSign`, each with its `witnessUtxo`, P2TR ones with `tapInternalKey`) and one input of
 * the service's fee wallet, which pays the whole miner fee; the wallet signs only its own inputs and
 * returns the PSBT (or the finalized transaction, hex), and the service signs the fee input last.
 */
export interface BitcoinPsbtSigningPayload {
  type: 'bitcoin-psbt';
  psbt: string;
  inputsToSign: BitcoinInputToSign[];
  network: 'mainnet' | 'testnet' | 'regtest';
}

/** A message as cosmjs's EncodeObject and the chains' JSON name it: its typeUrl, its proto3 JSON (camelCase). */
export interface CosmosMsgJson {
  typeUrl: string;
  value: Record<string, unknown>;
}

export interface CosmosCoin {
  denom: string;
  /** Base units, decimal. */
  amount: string;
}

/** The legacy amino StdSignDoc (cosmjs's StdSignDoc, Keplr's and Ledger's signAmino). */
export interface CosmosAminoSignDoc {
  chain_id: string;
  account_number: string;
  sequence: string;
  fee: { amount: CosmosCoin[]; gas: string; granter?: string };
  msgs: { type: string; value: Record<string, unknown> }[];
  memo: string;
  timeout_height?: string;
}

/**
 * What a Cosmos wallet signs: `signDoc` exactly as Keplr's and Leap's `signDirect(chainId,
 * signerAddress, signDoc)` take it (bytes base64, accountNumber decimal), the amino sign doc for
 * Ledger users (null when a message has no amino form here), and the messages for display. rawTx:
 * the signed TxRaw, base64.
 */
export interface CosmosSignDirectPayload {
  type: 'cosmos-sign-direct';
  signerAddress: string;
  signDoc: { bodyBytes: string; authInfoBytes: string; chainId: string; accountNumber: string };
  aminoSignDoc: CosmosAminoSignDoc | null;
  msgs: CosmosMsgJson[];
}

export type SigningPayload =
  | EvmSigningPayload
  | EvmTypedDataSigningPayload
  | SolanaSigningPayload
  | BitcoinPsbtSigningPayload
  | CosmosSignDirectPayload;

/**
 * The `type` of every SigningPayload variant, in the order the API lists them (a quote's
 * `signatures[].payloadType`): one line here with the variant.
 */
export const SIGNING_PAYLOAD_TYPES = [
  'evm-transaction',
  'evm-typed-data',
  'solana-versioned-transaction',
  'bitcoin-psbt',
  'cosmos-sign-direct',
] as const satisfies readonly SigningPayload['type'][];

// Every variant's type is listed: a variant missing above fails to compile here.
type UnlistedPayloadType = Exclude<SigningPayload['type'], (typeof SIGNING_PAYLOAD_TYPES)[number]>;
const _everyPayloadTypeListed: [UnlistedPayloadType] extends [never] ? true : never = true;

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
