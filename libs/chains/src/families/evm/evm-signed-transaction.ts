import { CodedError, ErrorCodes, EvmTransactionPayload } from '@swapgw/contracts';
import { Transaction } from 'ethers';

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
    .filter(([, , same]) => !same)
    .map(([field, actual]) => ({ field, expected: payload[field], actual }));
}
