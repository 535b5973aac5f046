import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base64, bech32 } from '@scure/base';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { AuthInfo, SignDoc, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { cosmosAddressOfPubkey } from './cosmos-address';
import {
  aminoAuthInfoBytes,
  type CosmosAminoSignDoc,
  type CosmosSignDirectPayload,
  SECP256K1_PUBKEY_TYPE_URL,
  serializeAminoSignDoc,
} from './cosmos-sign-doc';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A `TxRaw` as a client sent it: its canonical bytes and id. */
export interface DecodedCosmosTx {
  raw: Uint8Array;
  /** Uppercase hex SHA-256 of the TxRaw bytes: the tx hash CometBFT and the SDK name it by. */
  hash: string;
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  signatures: Uint8Array[];
}

/** A signed Cosmos transaction checked against the payload issued. */
export interface VerifiedCosmosTx extends DecodedCosmosTx {
  signMode: 'direct' | 'amino';
  /** Base64 of the TxRaw: what is recorded and broadcast. */
  rawTx: string;
}

/** One way the signed transaction differs from the issued payload (EVM's and Bitcoin's mismatches). */
export interface CosmosTxMismatch {
  field: 'bodyBytes' | 'authInfoBytes' | 'signatures' | 'signature' | 'signer';
  expected: string;
  actual: string | null;
}

export function cosmosTxHash(raw: Uint8Array): string {
  return bytesToHex(sha256(raw)).toUpperCase();
}

/**
 * Decodes `rawTx`, the base64 of a protobuf `TxRaw` whose body and auth info decode; INVALID_SIGNED_TX
 * otherwise, and for bytes that are not the TxRaw's canonical encoding (unknown fields, which the
 * SDK rejects, or trailing bytes) or that carry no signature.
 */
export function decodeCosmosTxRaw(rawTx: string): DecodedCosmosTx {
  const text = typeof rawTx === 'string' ? rawTx.trim() : '';
  const refuse = (reason: string): never => {
    throw new CodedError(
      ErrorCodes.INVALID_SIGNED_TX,
      'rawTx is not a decodable Cosmos transaction (base64 TxRaw)',
      {
        reason,
      },
    );
  };
  if (text.length === 0 || !BASE64.test(text)) refuse('not base64');
  const raw = base64.decode(text);
  let txRaw: TxRaw;
  try {
    txRaw = TxRaw.decode(raw);
    TxBody.decode(txRaw.bodyBytes);
    AuthInfo.decode(txRaw.authInfoBytes);
  } catch (error) {
    return refuse((error as Error).message);
  }
  if (txRaw.bodyBytes.length === 0 || txRaw.authInfoBytes.length === 0) refuse('no body or no auth info');
  if (!equalBytes(TxRaw.encode(txRaw).finish(), raw)) refuse('not a canonical TxRaw encoding');
  if (txRaw.signatures.length === 0) refuse('not signed: sign the payload with your wallet first');
  return {
    raw,
    hash: cosmosTxHash(raw),
    bodyBytes: txRaw.bodyBytes,
    authInfoBytes: txRaw.authInfoBytes,
    signatures: txRaw.signatures,
  };
}

/**
 * Whether `rawTx` is the base64 of a TxRaw (as opposed to a Solana transaction, also base64): its
 * first byte is field 1's tag (0x0a; a Solana transaction starts with its signature count, 1 or 2)
 * and it decodes as one (decodeCosmosTxRaw). Garbage is not: it is refused as Solana's.
 */
export function looksLikeCosmosTxRaw(rawTx: string): boolean {
  const text = typeof rawTx === 'string' ? rawTx.trim() : '';
  if (!text.startsWith('C') || !BASE64.test(text)) return false;
  try {
    decodeCosmosTxRaw(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a signed Cosmos transaction (`rawTx`, base64 TxRaw) against the payload issued:
 *  - INVALID_SIGNED_TX: not a decodable TxRaw (see decodeCosmosTxRaw);
 *  - TX_REQUEST_MISMATCH with `mismatches`: a body that is not the issued bytes, an auth info that is
 *    neither the issued bytes (SIGN_MODE_DIRECT) nor, when the payload has an amino sign doc, the
 *    same with the signer's mode LEGACY_AMINO_JSON; not exactly one signature; a signature that is
 *    not a valid low-S secp256k1 signature by the auth info's key over SHA-256 of the SignDoc (direct)
 *    or of the sorted amino JSON (amino); a key whose address is not `signerAddress`.
 * The key is the issued auth info's, so a foreign wallet's signature is refused (`signature`), and
 * so is an auth info carrying its key (`authInfoBytes`).
 */
export function verifySignedCosmosTx(payload: CosmosSignDirectPayload, rawTx: string): VerifiedCosmosTx {
  const tx = decodeCosmosTxRaw(rawTx);
  const issuedBody = base64.decode(payload.signDoc.bodyBytes);
  const mismatches: CosmosTxMismatch[] = [];
  if (!equalBytes(tx.bodyBytes, issuedBody))
    mismatches.push({
      field: 'bodyBytes',
      expected: payload.signDoc.bodyBytes,
      actual: base64.encode(tx.bodyBytes),
    });

  const signMode = signModeOf(payload, tx.authInfoBytes);
  if (!signMode)
    mismatches.push({
      field: 'authInfoBytes',
      expected: payload.signDoc.authInfoBytes,
      actual: base64.encode(tx.authInfoBytes),
    });
  if (tx.signatures.length !== 1)
    mismatches.push({ field: 'signatures', expected: '1', actual: String(tx.signatures.length) });
  if (mismatches.length === 0 && signMode) mismatches.push(...signatureMismatches(payload, tx, signMode));
  if (mismatches.length > 0 || !signMode)
    throw new CodedError(
      ErrorCodes.TX_REQUEST_MISMATCH,
      `The signed transaction differs from the payload in ${mismatches.map((m) => m.field).join(', ')}`,
      { mismatches },
    );
  return { ...tx, signMode: signMode.mode, rawTx: base64.encode(tx.raw) };
}

type SignModeOf =
  | { mode: 'direct' }
  /** The issued auth info but for the signer's mode, LEGACY_AMINO_JSON: signs the amino doc. */
  | { mode: 'amino'; doc: CosmosAminoSignDoc };

/** How the auth info says it was signed: the issued bytes (direct), or their amino twin; null when neither. */
function signModeOf(payload: CosmosSignDirectPayload, authInfoBytes: Uint8Array): SignModeOf | null {
  const issued = base64.decode(payload.signDoc.authInfoBytes);
  if (equalBytes(authInfoBytes, issued)) return { mode: 'direct' };
  const doc = payload.aminoSignDoc;
  if (doc && equalBytes(authInfoBytes, aminoAuthInfoBytes(issued))) return { mode: 'amino', doc };
  return null;
}

/** The signer's key must be signerAddress's, and its one signature valid over the sign bytes of its mode. */
function signatureMismatches(
  payload: CosmosSignDirectPayload,
  tx: DecodedCosmosTx,
  signMode: SignModeOf,
): CosmosTxMismatch[] {
  const pubkey = signerPubkeyOf(tx.authInfoBytes);
  const address = pubkey ? addressOrNull(payload, pubkey) : null;
  if (!pubkey || address !== payload.signerAddress)
    return [{ field: 'signer', expected: payload.signerAddress, actual: address }];
  const signBytes =
    signMode.mode === 'direct'
      ? SignDoc.encode({
          bodyBytes: tx.bodyBytes,
          authInfoBytes: tx.authInfoBytes,
          chainId: payload.signDoc.chainId,
          accountNumber: BigInt(payload.signDoc.accountNumber),
        }).finish()
      : serializeAminoSignDoc(signMode.doc);
  if (validSignature(tx.signatures[0], signBytes, pubkey)) return [];
  return [
    {
      field: 'signature',
      expected: `a ${signMode.mode} signature by ${payload.signerAddress}`,
      actual: bytesToHex(tx.signatures[0]),
    },
  ];
}

function signerPubkeyOf(authInfoBytes: Uint8Array): Uint8Array | null {
  const any = AuthInfo.decode(authInfoBytes).signerInfos[0]?.publicKey;
  if (!any || any.typeUrl !== SECP256K1_PUBKEY_TYPE_URL) return null;
  try {
    return PubKey.decode(any.value).key;
  } catch {
    return null;
  }
}

function addressOrNull(payload: CosmosSignDirectPayload, pubkey: Uint8Array): string | null {
  try {
    const prefix = bech32.decode(payload.signerAddress as `${string}1${string}`).prefix;
    return cosmosAddressOfPubkey(prefix, pubkey);
  } catch {
    return null;
  }
}

/** A 64-byte compact (r, s) secp256k1 signature, low-S as the SDK requires, over SHA-256 of `bytes`. */
function validSignature(signature: Uint8Array, bytes: Uint8Array, pubkey: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return secp256k1.verify(signature, sha256(bytes), pubkey, { prehash: false, lowS: true });
  } catch {
    return false;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
