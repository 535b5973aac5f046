import { CodedError, ErrorCodes, EvmTransactionPayload } from '@swapgw/contracts';
import { Transaction, type TransactionResponse } from 'ethers';

/** A decoded, signed EVM transaction with its fields in the payload's vocabulary. */
export interface DecodedEvmTransaction {
  hash: string;
  /** Recovered from the signature. */
  from: string;
  type: number;
  chainId: string;
  to: string | null;
  data: string;
  value: string;
  nonce: string;
  gasLimit: string;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  serialized: string;
}

const HEX = /^0x[0-9a-fA-F]+$/;

/** Decodes `rawTx` (0x-hex serialized signed transaction); INVALID_SIGNED_TX when it is not one. */
export function decodeSignedEvmTransaction(rawTx: string): DecodedEvmTransaction {
  const raw = rawTx.trim();
  if (!HEX.test(raw) || raw.length % 2 !== 0) {
    throw new CodedError(
      ErrorCodes.INVALID_SIGNED_TX,
      'rawTx must be the 0x-hex serialized signed transaction',
    );
  }
  let tx: Transaction;
  try {
    tx = Transaction.from(raw);
  } catch (error) {
    throw new CodedError(ErrorCodes.INVALID_SIGNED_TX, 'rawTx is not a decodable EVM transaction', {
      reason: (error as { shortMessage?: string }).shortMessage ?? (error as Error).message,
    });
  }
  const from = tx.isSigned() ? tx.from : null;
  const hash = tx.isSigned() ? tx.hash : null;
  if (!from || !hash) {
    throw new CodedError(
      ErrorCodes.INVALID_SIGNED_TX,
      'rawTx is not signed: sign the payload with your wallet first',
    );
  }
  return {
    hash,
    from,
    type: tx.type ?? 0,
    chainId: tx.chainId.toString(),
    to: tx.to,
    data: tx.data,
    value: tx.value.toString(),
    nonce: String(tx.nonce),
    gasLimit: tx.gasLimit.toString(),
    maxFeePerGas: tx.maxFeePerGas === null ? null : tx.maxFeePerGas.toString(),
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas === null ? null : tx.maxPriorityFeePerGas.toString(),
    serialized: tx.serialized,
  };
}

/**
 * A transaction a wallet sent itself (EIP-1193 `eth_sendTransaction`), as the node returned it for
 * `eth_getTransactionByHash`, in the same form as a decoded rawTx: serialized again from its fields
 * and signature, so its sender is recovered here (not taken from the node's `from`) and the
 * confirmation tracker can send the very same bytes again. Its serialization must hash to `txHash`,
 * else the node's copy is not that transaction (TX_REQUEST_MISMATCH).
 */
export function sentEvmTransactionOf(response: TransactionResponse, txHash: string): DecodedEvmTransaction {
  const eip1559 = response.maxFeePerGas !== null;
  const tx = Transaction.from({
    type: response.type,
    chainId: response.chainId,
    nonce: response.nonce,
    to: response.to,
    data: response.data,
    value: response.value,
    gasLimit: response.gasLimit,
    // A type-2 answer also carries the effective gasPrice, which is no field of the transaction.
    gasPrice: eip1559 ? null : response.gasPrice,
    maxFeePerGas: response.maxFeePerGas,
    maxPriorityFeePerGas: response.maxPriorityFeePerGas,
    accessList: response.accessList,
    signature: response.signature,
  });
  const decoded = decodeSignedEvmTransaction(tx.serialized);
  if (decoded.hash.toLowerCase() !== txHash.toLowerCase()) {
    throw new CodedError(
      ErrorCodes.TX_REQUEST_MISMATCH,
      `The node's copy of ${txHash} does not serialize to that hash (transaction type ${response.type})`,
      { txHash, mismatches: [{ field: 'hash', expected: txHash, actual: decoded.hash }] },
    );
  }
  return decoded;
}

export interface FieldMismatch {
  field: keyof EvmTransactionPayload;
  expected: string;
  actual: string | null;
}

const sameAddress = (a: string | null, b: string): boolean =>
  a !== null && a.toLowerCase() === b.toLowerCase();
const sameNumber = (a: string | null, b: string): boolean => a !== null && BigInt(a) === BigInt(b);

/**
 * Every field in which the signed transaction differs from the payload issued. Addresses compare
 * case-insensitively (checksum casing is presentation), data as lower-case hex, numbers as values.
 */
export function compareWithPayload(
  tx: DecodedEvmTransaction,
  payload: EvmTransactionPayload,
  ignored: readonly (keyof EvmTransactionPayload)[] = [],
): FieldMismatch[] {
  const checks: Array<[keyof EvmTransactionPayload, string | null, boolean]> = [
    ['from', tx.from, sameAddress(tx.from, payload.from)],
    ['chainId', tx.chainId, sameNumber(tx.chainId, payload.chainId)],
    ['to', tx.to, sameAddress(tx.to, payload.to)],
    ['data', tx.data, tx.data.toLowerCase() === payload.data.toLowerCase()],
    ['value', tx.value, sameNumber(tx.value, payload.value)],
    ['nonce', tx.nonce, sameNumber(tx.nonce, payload.nonce)],
    ['gasLimit', tx.gasLimit, sameNumber(tx.gasLimit, payload.gasLimit)],
    ['maxFeePerGas', tx.maxFeePerGas, sameNumber(tx.maxFeePerGas, payload.maxFeePerGas)],
    [
      'maxPriorityFeePerGas',
      tx.maxPriorityFeePerGas,
      sameNumber(tx.maxPriorityFeePerGas, payload.maxPriorityFeePerGas),
    ],
  ];
  return checks
    .filter(([field, , same]) => !same && !ignored.includes(field))
    .map(([field, actual]) => ({ field, expected: payload[field], actual }));
}

/**
 * What a wallet that sends the transaction itself chooses: its nonce and gas (MetaMask fills them
 * in, or lets the user change them, whatever the request said).
 */
export const WALLET_CHOSEN_FIELDS: readonly (keyof EvmTransactionPayload)[] = [
  'nonce',
  'gasLimit',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
];

/**
 * Every field in which a transaction the wallet sent itself differs from the payload issued: from,
 * chainId, to, data and value must be the payload's; nonce and gas are the wallet's, but the nonce
 * cannot be below the payload's (the sender's pending nonce when it was issued): such a transaction
 * was sent before this payload existed (an earlier step's, an earlier swap's with the same call).
 */
export function compareSentWithPayload(
  tx: DecodedEvmTransaction,
  payload: EvmTransactionPayload,
): FieldMismatch[] {
  const mismatches = compareWithPayload(tx, payload, WALLET_CHOSEN_FIELDS);
  if (BigInt(tx.nonce) < BigInt(payload.nonce)) {
    mismatches.push({ field: 'nonce', expected: `>= ${payload.nonce}`, actual: tx.nonce });
  }
  return mismatches;
}

/** TX_REQUEST_MISMATCH naming each differing field (`details.mismatches`), when there is one. */
export function assertNoMismatch(mismatches: FieldMismatch[], subject = 'The signed transaction'): void {
  if (mismatches.length === 0) return;
  throw new CodedError(
    ErrorCodes.TX_REQUEST_MISMATCH,
    `${subject} differs from the payload in ${mismatches.map((m) => m.field).join(', ')}`,
    { mismatches },
  );
}
