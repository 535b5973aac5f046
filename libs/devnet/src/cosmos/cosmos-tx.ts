import { canonicalJson } from '@swapgw/runtime';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { AuthInfo, SignDoc, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { CosmosChainSpec } from './cosmos-chain-spec';
import { CosmosTxError } from './cosmos-errors';
import type { CosmosMessageHandler, MessageRegistry } from './cosmos-messages';
import { coinsJson, parseCoins } from './cosmos-messages';
import type { Coin } from './cosmos-state';

export const SECP256K1_PUBKEY_TYPE_URL = '/cosmos.crypto.secp256k1.PubKey';

export interface DecodedMessage {
  typeUrl: string;
  handler: CosmosMessageHandler;
  msg: unknown;
}

/** A transaction as the chain checks it: its raw parts and what they decode to. */
export interface DecodedTx {
  raw: Uint8Array;
  /** Uppercase hex SHA-256 of the TxRaw bytes, as CometBFT and the SDK name a tx. */
  hash: string;
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  signatures: Uint8Array[];
  body: TxBody;
  authInfo: AuthInfo;
  messages: DecodedMessage[];
  /** Unique signers of the messages in order: signer_infos[i] and signatures[i] are signer i's. */
  signers: string[];
  fee: Coin[];
  gasLimit: bigint;
  feeGranter: string;
  /** Who pays: fee.payer when set, else the first signer (before a grant moves it to the granter). */
  feePayer: string;
}

export function txHash(raw: Uint8Array): string {
  return bytesToHex(sha256(raw)).toUpperCase();
}

/**
 * Decodes TxRaw bytes and runs the stateless checks (the SDK's TxDecoder and ValidateBasic): known
 * messages, each valid, one signer info and one signature per signer, a well-formed fee.
 */
export function decodeTx(raw: Uint8Array, registry: MessageRegistry, spec: CosmosChainSpec): DecodedTx {
  let txRaw: TxRaw;
  let body: TxBody;
  let authInfo: AuthInfo;
  try {
    txRaw = TxRaw.decode(raw);
    body = TxBody.decode(txRaw.bodyBytes);
    authInfo = AuthInfo.decode(txRaw.authInfoBytes);
  } catch (error) {
    throw new CosmosTxError('txDecode', (error as Error).message);
  }
  const messages = body.messages.map((any) => {
    const handler = registry.get(any.typeUrl);
    if (!handler) throw new CosmosTxError('txDecode', `unable to resolve type URL ${any.typeUrl}`);
    let msg: unknown;
    try {
      msg = handler.decode(any.value);
    } catch (error) {
      throw new CosmosTxError('txDecode', (error as Error).message);
    }
    return { typeUrl: any.typeUrl, handler, msg };
  });
  if (messages.length === 0) throw new CosmosTxError('invalidRequest', 'must contain at least one message');
  for (const { handler, msg } of messages) handler.validate(msg, spec);
  const signers = [...new Set(messages.flatMap(({ handler, msg }) => handler.signers(msg)))];
  if (txRaw.signatures.length === 0) throw new CosmosTxError('noSignatures');
  if (txRaw.signatures.length !== signers.length) {
    throw new CosmosTxError(
      'unauthorized',
      `wrong number of signers; expected ${signers.length}, got ${txRaw.signatures.length}`,
    );
  }
  if (authInfo.signerInfos.length !== signers.length) {
    throw new CosmosTxError(
      'unauthorized',
      `invalid number of signer infos; expected ${signers.length}, got ${authInfo.signerInfos.length}`,
    );
  }
  const fee = authInfo.fee;
  return {
    raw,
    hash: txHash(raw),
    bodyBytes: txRaw.bodyBytes,
    authInfoBytes: txRaw.authInfoBytes,
    signatures: txRaw.signatures,
    body,
    authInfo,
    messages,
    signers,
    fee: parseCoins(fee?.amount ?? [], true),
    gasLimit: fee?.gasLimit ?? 0n,
    feeGranter: fee?.granter ?? '',
    feePayer: fee?.payer || signers[0],
  };
}

/** The compressed secp256k1 key a signer info carries, if any. */
export function signerPublicKey(tx: DecodedTx, index: number): Uint8Array | undefined {
  const any = tx.authInfo.signerInfos[index].publicKey;
  if (!any) return undefined;
  if (any.typeUrl !== SECP256K1_PUBKEY_TYPE_URL) {
    throw new CosmosTxError('invalidPubKey', `can only verify secp256k1 signatures, got ${any.typeUrl}`);
  }
  const key = PubKey.decode(any.value).key;
  if (key.length !== 33) throw new CosmosTxError('invalidPubKey', 'length of pubkey is incorrect');
  return key;
}

export function signerMode(tx: DecodedTx, index: number): SignMode | undefined {
  return tx.authInfo.signerInfos[index].modeInfo?.single?.mode;
}

/**
 * The bytes signer `index` signed: SIGN_MODE_DIRECT's SignDoc, or SIGN_MODE_LEGACY_AMINO_JSON's
 * StdSignDoc (sorted-key JSON with &, <, > escaped, as the SDK's and cosmjs's serializeSignDoc).
 */
export function signBytes(
  tx: DecodedTx,
  index: number,
  chainId: string,
  accountNumber: bigint,
): Uint8Array | undefined {
  const mode = signerMode(tx, index);
  if (mode === SignMode.SIGN_MODE_DIRECT) {
    return SignDoc.encode({
      bodyBytes: tx.bodyBytes,
      authInfoBytes: tx.authInfoBytes,
      chainId,
      accountNumber,
    }).finish();
  }
  if (mode === SignMode.SIGN_MODE_LEGACY_AMINO_JSON) {
    return new TextEncoder().encode(aminoSignDocJson(tx, index, chainId, accountNumber));
  }
  return undefined;
}

export function aminoSignDocJson(
  tx: DecodedTx,
  index: number,
  chainId: string,
  accountNumber: bigint,
): string {
  const feeProto = tx.authInfo.fee;
  const fee: Record<string, unknown> = {
    amount: coinsJson(feeProto?.amount ?? []),
    gas: tx.gasLimit.toString(),
  };
  if (feeProto?.granter) fee.granter = feeProto.granter;
  if (feeProto?.payer) fee.payer = feeProto.payer;
  const doc: Record<string, unknown> = {
    account_number: accountNumber.toString(),
    chain_id: chainId,
    fee,
    memo: tx.body.memo,
    msgs: tx.messages.map(({ handler, msg }) => ({ type: handler.aminoType, value: handler.toAmino(msg) })),
    sequence: tx.authInfo.signerInfos[index].sequence.toString(),
  };
  if (tx.body.timeoutHeight > 0n) doc.timeout_height = tx.body.timeoutHeight.toString();
  return canonicalJson(doc).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}
