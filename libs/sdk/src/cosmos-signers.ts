// Cosmos signer adapter: a cosmos-sign-direct payload signed by a cosmjs offline signer
// (`OfflineDirectSigner`: @cosmjs/proto-signing's DirectSecp256k1HdWallet, Keplr's or Leap's
// `getOfflineSigner(chainId)`; `OfflineAminoSigner` for Ledger users: Secp256k1HdWallet,
// `getOfflineSignerOnlyAmino(chainId)`). Like the other adapters it uses only the object it is
// given, typed structurally, so the package loads without @cosmjs. The signed transaction is a
// protobuf TxRaw (three bytes fields), written here with the few lines of protobuf it needs rather
// than with cosmjs-types: the package keeps openapi-fetch as its only dependency. The wallet must
// sign the issued bytes as they are: the gateway accepts only the issued body and auth info (or, for
// an amino signature, the issued auth info with the signer's mode LEGACY_AMINO_JSON), so an adapter
// refuses a wallet that changed them (a fee or memo it set) before anything is submitted.
import type { SigningPayload, SwapSigner } from './signers';
import { base64ToBytes, bytesToBase64 } from './base64';

// The Cosmos payload is in the generated API types, whose schema leaves the amino sign doc an open
// object; these are the SDK's exact copy of the contract's (libs/contracts signing-payload.ts), the
// amino doc's fields typed, which is what signAmino needs.

export interface CosmosCoin {
  readonly denom: string;
  /** Base units, decimal. */
  readonly amount: string;
}

/** The legacy amino StdSignDoc (cosmjs's StdSignDoc), what `signAmino` signs. */
export interface CosmosAminoSignDoc {
  readonly chain_id: string;
  readonly account_number: string;
  readonly sequence: string;
  readonly fee: { readonly amount: readonly CosmosCoin[]; readonly gas: string; readonly granter?: string };
  readonly msgs: readonly { readonly type: string; readonly value: Record<string, unknown> }[];
  readonly memo: string;
  readonly timeout_height?: string;
}

/**
 * A Cosmos step's payload: `signDoc` as Keplr's and Leap's `signDirect` take it (bytes base64,
 * accountNumber decimal), the amino sign doc for Ledger users (null when a message has no amino
 * form: only a direct signer can sign it), and the messages (`{ typeUrl, value }`) for display.
 */
export interface CosmosSignDirectPayload {
  type: 'cosmos-sign-direct';
  signerAddress: string;
  signDoc: { bodyBytes: string; authInfoBytes: string; chainId: string; accountNumber: string };
  aminoSignDoc: CosmosAminoSignDoc | null;
  msgs: { typeUrl: string; value: Record<string, unknown> }[];
}

/** cosmjs's SignDoc (cosmjs-types ≥ 0.9: accountNumber a bigint). */
export interface CosmosSignDoc {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  chainId: string;
  accountNumber: bigint;
}

/** cosmjs's StdSignature: the 64-byte (r, s) signature in base64 and the signer's pubkey. */
export interface CosmosStdSignature {
  readonly pub_key: { readonly type: string; readonly value: string };
  readonly signature: string;
}

/** The part of cosmjs's AccountData the adapter reads. */
export interface CosmosAccountLike {
  readonly address: string;
}

/** cosmjs's `OfflineDirectSigner`: DirectSecp256k1HdWallet, Keplr's / Leap's `getOfflineSigner(chainId)`. */
export interface CosmosDirectSignerLike {
  getAccounts(): Promise<readonly CosmosAccountLike[]>;
  signDirect(
    signerAddress: string,
    signDoc: CosmosSignDoc,
  ): Promise<{
    signed: Omit<CosmosSignDoc, 'accountNumber'> & { accountNumber: bigint | { toString(): string } };
    signature: CosmosStdSignature;
  }>;
}

/** cosmjs's `OfflineAminoSigner`: Secp256k1HdWallet, Keplr's / Leap's `getOfflineSignerOnlyAmino(chainId)` (Ledger). */
export interface CosmosAminoSignerLike {
  getAccounts(): Promise<readonly CosmosAccountLike[]>;
  signAmino(
    signerAddress: string,
    signDoc: CosmosAminoSignDoc,
  ): Promise<{ signed: CosmosAminoSignDoc; signature: CosmosStdSignature }>;
}

/** How the Cosmos adapter signs: `direct` (signDirect, SIGN_MODE_DIRECT) or `amino` (signAmino, LEGACY_AMINO_JSON). */
export type CosmosSignMode = 'direct' | 'amino';

/** Why a Cosmos payload was not signed (before anything reaches the gateway). */
export type CosmosSignerErrorReason =
  'unknown-signer' | 'altered-sign-doc' | 'no-amino-sign-doc' | 'unsupported-payload';

export class CosmosSignerError extends Error {
  override readonly name = 'CosmosSignerError';
  constructor(
    readonly reason: CosmosSignerErrorReason,
    message: string,
  ) {
    super(message);
  }
}

/** One cosmjs offline signer, direct or amino. */
export type CosmosOfflineSignerLike = CosmosDirectSignerLike | CosmosAminoSignerLike;

/**
 * The Cosmos wallet's signers: one offline signer (a route on one chain), several (one per chain,
 * as a dApp holds Keplr's), or how to get the signer of a chain id, as Keplr's and Leap's
 * `getOfflineSigner(chainId)` does (a route signed on several chains: ATOM on the Hub, then USDC on
 * Noble, each payload naming its own `signerAddress`).
 */
export type CosmosSigners =
  | CosmosOfflineSignerLike
  | readonly CosmosOfflineSignerLike[]
  | ((chainId: string) => CosmosOfflineSignerLike | Promise<CosmosOfflineSignerLike>);

/**
 * cosmos-sign-direct: finds the signer that holds the payload's `signerAddress` (of the signers
 * given, or the one `signers(chainId)` gives for the payload's chain), has it sign (`signDirect` of
 * the issued SignDoc, or `signAmino` of its amino sign doc) and submits the base64 TxRaw. `mode`:
 * `direct` when the signer has `signDirect` (Keplr's and Leap's `getOfflineSigner` have both), else
 * `amino`; `amino` forces signAmino (Ledger). Throws CosmosSignerError when no signer holds the
 * address, when the wallet changed what it was given (fee, memo, body), or for an amino signature of
 * a payload without amino sign doc; and Error when the mode asked for is one a signer cannot do.
 */
export function cosmosSigner(signers: CosmosSigners, options: { mode?: CosmosSignMode } = {}): SwapSigner {
  const given = typeof signers === 'function' ? null : Array.isArray(signers) ? signers : [signers];
  if (given) for (const signer of given) modeOf(signer as CosmosOfflineSignerLike, options.mode);
  return {
    handles: ['cosmos-sign-direct'],
    async sign(payload) {
      const cosmos = cosmosPayloadOf(payload);
      const candidates: readonly CosmosOfflineSignerLike[] = given ?? [
        await (signers as (chainId: string) => CosmosOfflineSignerLike | Promise<CosmosOfflineSignerLike>)(
          cosmos.signDoc.chainId,
        ),
      ];
      const held: string[] = [];
      for (const signer of candidates) {
        const accounts = await signer.getAccounts();
        if (accounts.some((account) => account.address === cosmos.signerAddress)) {
          const rawTx =
            modeOf(signer, options.mode) === 'direct'
              ? await signDirect(signer as CosmosDirectSignerLike, cosmos)
              : await signAmino(signer as CosmosAminoSignerLike, cosmos);
          return { rawTx };
        }
        held.push(...accounts.map((account) => account.address));
      }
      throw new CosmosSignerError(
        'unknown-signer',
        `the Cosmos signer does not hold ${cosmos.signerAddress} (${
          candidates.length > 1 ? 'the signers given hold' : 'it holds'
        } ${held.join(', ') || 'no account'}): give the signer of chain ${
          cosmos.signDoc.chainId
        } whose account is the step's signerAddress`,
      );
    },
  };
}

/** How `signer` signs: the mode asked for, else direct when it can; throws when it cannot. */
function modeOf(signer: CosmosOfflineSignerLike, asked: CosmosSignMode | undefined): CosmosSignMode {
  const mode: CosmosSignMode = asked ?? ('signDirect' in signer ? 'direct' : 'amino');
  if (mode === 'direct' && !('signDirect' in signer))
    throw new Error('mode direct needs an OfflineDirectSigner (signDirect): this signer has only signAmino');
  if (mode === 'amino' && !('signAmino' in signer))
    throw new Error('mode amino needs an OfflineAminoSigner (signAmino): this signer has only signDirect');
  return mode;
}

function cosmosPayloadOf(payload: SigningPayload): CosmosSignDirectPayload {
  if (payload.type !== 'cosmos-sign-direct')
    throw new CosmosSignerError(
      'unsupported-payload',
      `the Cosmos signer cannot sign a ${payload.type} payload`,
    );
  // The generated schema's aminoSignDoc is an open object: the contract's fields, typed here.
  return payload as CosmosSignDirectPayload;
}

const FEE_HINT =
  'the gateway accepts only the issued transaction: have the wallet sign it as given ' +
  '(Keplr: `keplr.defaultOptions = { sign: { preferNoSetFee: true, preferNoSetMemo: true } }`)';

async function signDirect(signer: CosmosDirectSignerLike, payload: CosmosSignDirectPayload): Promise<string> {
  const issued = payload.signDoc;
  const bodyBytes = base64ToBytes(issued.bodyBytes);
  const authInfoBytes = base64ToBytes(issued.authInfoBytes);
  const { signed, signature } = await signer.signDirect(payload.signerAddress, {
    bodyBytes: bodyBytes.slice(),
    authInfoBytes: authInfoBytes.slice(),
    chainId: issued.chainId,
    accountNumber: BigInt(issued.accountNumber),
  });
  const altered = [
    !equalBytes(signed.bodyBytes, bodyBytes) && 'body (messages, memo)',
    !equalBytes(signed.authInfoBytes, authInfoBytes) && 'auth info (fee, gas, signer)',
    signed.chainId !== issued.chainId && 'chain id',
    String(signed.accountNumber) !== issued.accountNumber && 'account number',
  ].filter((part): part is string => typeof part === 'string');
  if (altered.length > 0)
    throw new CosmosSignerError(
      'altered-sign-doc',
      `the wallet changed the transaction's ${altered.join(', ')} before signing; ${FEE_HINT}`,
    );
  return encodeTxRaw(signed.bodyBytes, signed.authInfoBytes, base64ToBytes(signature.signature));
}

async function signAmino(signer: CosmosAminoSignerLike, payload: CosmosSignDirectPayload): Promise<string> {
  const doc = payload.aminoSignDoc;
  if (!doc)
    throw new CosmosSignerError(
      'no-amino-sign-doc',
      'this payload has no amino sign doc (a message without amino form): sign it with a direct signer',
    );
  const { signed, signature } = await signer.signAmino(payload.signerAddress, structuredClone(doc));
  if (sortedJson(signed) !== sortedJson(doc))
    throw new CosmosSignerError(
      'altered-sign-doc',
      `the wallet changed the amino sign doc before signing; ${FEE_HINT}`,
    );
  // The issued body, and the issued auth info with the signer's mode LEGACY_AMINO_JSON.
  return encodeTxRaw(
    base64ToBytes(payload.signDoc.bodyBytes),
    aminoAuthInfoBytes(base64ToBytes(payload.signDoc.authInfoBytes)),
    base64ToBytes(signature.signature),
  );
}

// --- The protobuf this needs (proto3 wire format: a tag varint, then a length-delimited value). ---

const SIGN_MODE_LEGACY_AMINO_JSON = 127;

function varint(value: number): number[] {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  bytes.push(value);
  return bytes;
}

/** A length-delimited field (wire type 2). */
function bytesField(field: number, value: Uint8Array | number[]): number[] {
  return [...varint((field << 3) | 2), ...varint(value.length), ...value];
}

/** `TxRaw { body_bytes = 1; auth_info_bytes = 2; repeated signatures = 3 }`, base64. */
export function encodeTxRaw(bodyBytes: Uint8Array, authInfoBytes: Uint8Array, signature: Uint8Array): string {
  return bytesToBase64(
    Uint8Array.from([
      ...bytesField(1, bodyBytes),
      ...bytesField(2, authInfoBytes),
      ...bytesField(3, signature),
    ]),
  );
}

interface ProtoField {
  field: number;
  wireType: number;
  /** The whole field, tag included. */
  raw: Uint8Array;
  /** A length-delimited field's value. */
  value: Uint8Array;
}

/** The top-level fields of a message, in their order. */
function protoFields(bytes: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let at = 0;
  const readVarint = (): number => {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= bytes.length) throw new Error('truncated protobuf');
      const byte = bytes[at++];
      if (shift < 49) result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
    }
  };
  while (at < bytes.length) {
    const start = at;
    const tag = readVarint();
    const wireType = tag & 7;
    let valueStart = at;
    if (wireType === 0) readVarint();
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = readVarint();
      valueStart = at;
      at += length;
    } else throw new Error(`unsupported protobuf wire type ${wireType}`);
    if (at > bytes.length) throw new Error('truncated protobuf');
    fields.push({
      field: Math.floor(tag / 8),
      wireType,
      raw: bytes.subarray(start, at),
      value: bytes.subarray(valueStart, at),
    });
  }
  return fields;
}

/**
 * The issued AuthInfo with each signer's `mode_info` set to `{ single: { mode: LEGACY_AMINO_JSON } }`,
 * every other byte as issued: what the gateway accepts for an amino signature (libs/chains'
 * `aminoAuthInfoBytes`). AuthInfo: `signer_infos = 1`; SignerInfo: `mode_info = 2`.
 */
export function aminoAuthInfoBytes(issued: Uint8Array): Uint8Array {
  const aminoModeInfo = bytesField(1, [0x08, SIGN_MODE_LEGACY_AMINO_JSON]); // ModeInfo.single { mode }
  const out: number[] = [];
  for (const part of protoFields(issued)) {
    if (part.field !== 1 || part.wireType !== 2) {
      out.push(...part.raw);
      continue;
    }
    const signerInfo: number[] = [];
    for (const inner of protoFields(part.value))
      signerInfo.push(
        ...(inner.field === 2 && inner.wireType === 2 ? bytesField(2, aminoModeInfo) : inner.raw),
      );
    out.push(...bytesField(1, signerInfo));
  }
  return Uint8Array.from(out);
}

// --- Bytes and JSON, with what browsers and Node both have. ---

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** JSON with sorted keys (undefined members left out): two amino docs compare as the bytes signed. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
