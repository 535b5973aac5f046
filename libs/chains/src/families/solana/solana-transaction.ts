import { createPublicKey, verify } from 'node:crypto';
import { PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { CodedError, ErrorCodes, SolanaSigningPayload } from '@swapgw/contracts';

export const SOLANA_PAYLOAD_TYPE = 'solana-versioned-transaction' as const;

/** ASN.1 prefix of an Ed25519 SubjectPublicKeyInfo; the 32-byte key follows. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The unsigned v0 transaction a wallet (Phantom, Solflare, web3.js) signs as it is: the user pays
 * the fees, the message carries a recent blockhash, and every signature slot is empty.
 */
export function buildSolanaPayload(input: {
  feePayer: PublicKey;
  instructions: TransactionInstruction[];
  recentBlockhash: string;
}): SolanaSigningPayload {
  const message = new TransactionMessage({
    payerKey: input.feePayer,
    recentBlockhash: input.recentBlockhash,
    instructions: input.instructions,
  }).compileToV0Message();
  const unsigned = new VersionedTransaction(message);
  return { type: SOLANA_PAYLOAD_TYPE, transaction: Buffer.from(unsigned.serialize()).toString('base64') };
}

export interface DecodedSolanaTransaction {
  /** The first signature in base58: Solana's transaction id. */
  signature: string;
  feePayer: string;
  recentBlockhash: string;
  messageBytes: Buffer;
  transaction: VersionedTransaction;
  serialized: Buffer;
}

/** Decodes `rawTx` (base64 of a serialized transaction); INVALID_SIGNED_TX when it is not one. */
export function decodeSignedSolanaTransaction(rawTx: string): DecodedSolanaTransaction {
  const raw = rawTx.trim();
  if (!BASE64.test(raw)) {
    throw new CodedError(
      ErrorCodes.INVALID_SIGNED_TX,
      'rawTx must be the base64 serialized signed Solana transaction',
    );
  }
  let transaction: VersionedTransaction;
  const serialized = Buffer.from(raw, 'base64');
  try {
    transaction = VersionedTransaction.deserialize(serialized);
  } catch (error) {
    throw new CodedError(ErrorCodes.INVALID_SIGNED_TX, 'rawTx is not a decodable Solana transaction', {
      reason: (error as Error).message,
    });
  }
  return {
    signature: bs58.encode(transaction.signatures[0] ?? new Uint8Array(64)),
    feePayer: transaction.message.staticAccountKeys[0]?.toBase58() ?? '',
    recentBlockhash: transaction.message.recentBlockhash,
    messageBytes: Buffer.from(transaction.message.serialize()),
    transaction,
    serialized,
  };
}

/**
 * Checks a signed transaction against the payload that was issued: the message must be the same
 * bytes (so nothing was changed: accounts, instructions, blockhash, fee payer) and the fee payer's
 * signature must verify over it. Anything else is TX_REQUEST_MISMATCH, with the reason in details.
 *
 * `feePayerSignsLater`: the fee payer is the service's, which signs after this check (sponsored
 * steps): its slot is not looked at, and every other signature the message requires (the user's)
 * must be there and verify.
 */
export function verifySignedSolanaTransaction(
  decoded: DecodedSolanaTransaction,
  payload: SolanaSigningPayload,
  options: { feePayerSignsLater?: boolean } = {},
): void {
  const issued = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
  const issuedMessage = Buffer.from(issued.message.serialize());
  if (!issuedMessage.equals(decoded.messageBytes)) {
    throw new CodedError(
      ErrorCodes.TX_REQUEST_MISMATCH,
      'The signed transaction does not match the payload issued',
      {
        mismatches: describeMessageDifferences(issued, decoded.transaction),
      },
    );
  }
  const { numRequiredSignatures } = issued.message.header;
  const first = options.feePayerSignsLater ? 1 : 0;
  const last = options.feePayerSignsLater ? numRequiredSignatures : 1;
  for (let slot = first; slot < last; slot++) {
    const signer = issued.message.staticAccountKeys[slot];
    const who = slot === 0 ? 'the fee payer' : `signer ${signer.toBase58()}`;
    const signature = decoded.transaction.signatures[slot];
    if (!signature || signature.every((b) => b === 0)) {
      throw new CodedError(ErrorCodes.TX_REQUEST_MISMATCH, `The transaction is not signed by ${who}`, {
        mismatches: [{ field: 'signature', expected: signer.toBase58(), actual: 'missing' }],
      });
    }
    if (!verifyEd25519(signer, decoded.messageBytes, signature)) {
      const whose = slot === 0 ? "The fee payer's signature" : `The signature of ${who}`;
      throw new CodedError(ErrorCodes.TX_REQUEST_MISMATCH, `${whose} does not verify`, {
        mismatches: [{ field: 'signature', expected: signer.toBase58(), actual: 'invalid' }],
      });
    }
  }
}

/**
 * `decoded` with `signature` in the fee payer's slot (slot 0): the transaction as it is broadcast
 * once the service co-signed it, and its id.
 */
export function withFeePayerSignature(
  decoded: DecodedSolanaTransaction,
  signature: Uint8Array,
): DecodedSolanaTransaction {
  const transaction = VersionedTransaction.deserialize(decoded.serialized);
  transaction.signatures[0] = signature;
  return {
    ...decoded,
    signature: bs58.encode(signature),
    transaction,
    serialized: Buffer.from(transaction.serialize()),
  };
}

export function verifyEd25519(publicKey: PublicKey, message: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey.toBuffer()]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, message, key, signature);
}

function describeMessageDifferences(issued: VersionedTransaction, signed: VersionedTransaction) {
  const a = issued.message;
  const b = signed.message;
  const differences: { field: string; expected: string; actual: string }[] = [];
  const compare = (field: string, expected: string, actual: string) => {
    if (expected !== actual) differences.push({ field, expected, actual });
  };
  compare('version', String(issued.version), String(signed.version));
  compare('feePayer', a.staticAccountKeys[0]?.toBase58() ?? '', b.staticAccountKeys[0]?.toBase58() ?? '');
  compare('recentBlockhash', a.recentBlockhash, b.recentBlockhash);
  compare(
    'accountKeys',
    a.staticAccountKeys.map((k) => k.toBase58()).join(','),
    b.staticAccountKeys.map((k) => k.toBase58()).join(','),
  );
  compare(
    'instructions',
    JSON.stringify(
      a.compiledInstructions.map((i) => [i.programIdIndex, i.accountKeyIndexes, bs58.encode(i.data)]),
    ),
    JSON.stringify(
      b.compiledInstructions.map((i) => [i.programIdIndex, i.accountKeyIndexes, bs58.encode(i.data)]),
    ),
  );
  return differences.length > 0
    ? differences
    : [{ field: 'message', expected: 'issued bytes', actual: 'different bytes' }];
}
