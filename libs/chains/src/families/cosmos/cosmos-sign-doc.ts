import { base64 } from '@scure/base';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import type {
  CosmosAminoSignDoc,
  CosmosCoin,
  CosmosMsgJson,
  CosmosSignDirectPayload,
} from '@swapgw/contracts';
import { canonicalJson } from '@swapgw/runtime';
import { AuthInfo, TxBody } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { cosmosAddressOfPubkey, isBech32Prefix, isCosmosAddress } from './cosmos-address';
import {
  encodeMsgSwapExactAmountIn,
  MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
  msgSwapExactAmountInAmino,
} from './osmosis-swap-msg';
import {
  encodeMsgDepositForBurn,
  MSG_DEPOSIT_FOR_BURN_AMINO_TYPE,
  MSG_DEPOSIT_FOR_BURN_TYPE_URL,
  msgDepositForBurnAmino,
} from './noble-cctp';

// The payload's shapes are the contract's (libs/contracts signing-payload.ts).
export type { CosmosAminoSignDoc, CosmosCoin, CosmosMsgJson, CosmosSignDirectPayload };

export const SECP256K1_PUBKEY_TYPE_URL = '/cosmos.crypto.secp256k1.PubKey';
export const MSG_SEND_TYPE_URL = '/cosmos.bank.v1beta1.MsgSend';
export const MSG_TRANSFER_TYPE_URL = '/ibc.applications.transfer.v1.MsgTransfer';

/**
 * What a Cosmos step asks to be signed: one signer (the user's wallet), its account's number and
 * sequence on `chainId`, and the wallet's compressed secp256k1 pubkey (the chain's account's when it
 * has one, else the one the client sent: SignerInfo carries it, so authInfoBytes cannot be issued
 * without it). `feeGranter`: the service's account that pays the fee under an x/feegrant allowance.
 */
export interface CosmosStepSpec {
  chainId: string;
  bech32Prefix: string;
  signerAddress: string;
  /** Base64 of the 33-byte compressed pubkey; must hash to signerAddress. */
  signerPubkey: string;
  accountNumber: string;
  sequence: string;
  msgs: CosmosMsgJson[];
  gasLimit: string;
  fee: CosmosCoin[];
  feeGranter?: string;
  memo?: string;
  timeoutHeight?: string;
}

export type CosmosSignDocBuild =
  { kind: 'ready'; payload: CosmosSignDirectPayload } | { kind: 'invalid'; reason: string };

interface MsgCodec {
  encode(json: Record<string, unknown>): Uint8Array;
  /** The addresses the message is signed by. */
  signers(json: Record<string, unknown>): string[];
  /** Addresses it names, checked against the chain's prefix (an IBC receiver is another chain's). */
  localAddresses(json: Record<string, unknown>): string[];
  aminoType: string;
  toAmino(json: Record<string, unknown>): Record<string, unknown>;
}

const DECIMAL = /^(0|[1-9][0-9]{0,30})$/;
const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;
const omitDefault = (value: bigint | string): string | undefined =>
  value === 0n || value === '' ? undefined : value.toString();

/**
 * The messages this family issues, each with its amino form: bank sends, ICS-20 transfers,
 * Osmosis's poolmanager swaps and Noble's CCTP burns (the devnet bridge's Cosmos end).
 */
const CODECS: Record<string, MsgCodec> = {
  [MSG_SEND_TYPE_URL]: {
    encode: (json) => MsgSend.encode(MsgSend.fromJSON(json)).finish(),
    signers: (json) => [String(json.fromAddress ?? '')],
    localAddresses: (json) => [String(json.fromAddress ?? ''), String(json.toAddress ?? '')],
    aminoType: 'cosmos-sdk/MsgSend',
    toAmino: (json) => {
      const msg = MsgSend.fromJSON(json);
      return { from_address: msg.fromAddress, to_address: msg.toAddress, amount: msg.amount };
    },
  },
  [MSG_TRANSFER_TYPE_URL]: {
    encode: (json) => MsgTransfer.encode(transferOf(json)).finish(),
    signers: (json) => [String(json.sender ?? '')],
    localAddresses: (json) => [String(json.sender ?? '')],
    aminoType: 'cosmos-sdk/MsgTransfer',
    // As cosmjs's createIbcAminoConverters (defaults omitted), so a wallet's amino round trip is byte-equal.
    toAmino: (json) => {
      const msg = transferOf(json);
      const timeoutHeight = msg.timeoutHeight ?? { revisionHeight: 0n, revisionNumber: 0n };
      return {
        source_port: msg.sourcePort,
        source_channel: msg.sourceChannel,
        token: msg.token,
        sender: msg.sender,
        receiver: msg.receiver,
        timeout_height: {
          revision_height: omitDefault(timeoutHeight.revisionHeight),
          revision_number: omitDefault(timeoutHeight.revisionNumber),
        },
        timeout_timestamp: omitDefault(msg.timeoutTimestamp),
        memo: omitDefault(msg.memo),
      };
    },
  },
  [MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL]: {
    encode: encodeMsgSwapExactAmountIn,
    signers: (json) => [String(json.sender ?? '')],
    localAddresses: (json) => [String(json.sender ?? '')],
    aminoType: 'osmosis/poolmanager/swap-exact-amount-in',
    toAmino: msgSwapExactAmountInAmino,
  },
  [MSG_DEPOSIT_FOR_BURN_TYPE_URL]: {
    encode: encodeMsgDepositForBurn,
    signers: (json) => [String(json.from ?? '')],
    localAddresses: (json) => [String(json.from ?? '')],
    aminoType: MSG_DEPOSIT_FOR_BURN_AMINO_TYPE,
    toAmino: msgDepositForBurnAmino,
  },
};

/**
 * A MsgTransfer with its timeout height always present (zero when unset): what cosmjs's amino
 * converter decodes `timeout_height: {}` to, so the body of an amino-signed tx is the issued one.
 */
function transferOf(json: Record<string, unknown>): MsgTransfer {
  const msg = MsgTransfer.fromJSON(json);
  msg.timeoutHeight ??= { revisionHeight: 0n, revisionNumber: 0n };
  return msg;
}

/** The message types this family can issue. */
export const COSMOS_MSG_TYPES: readonly string[] = Object.keys(CODECS);

/** The Any of a secp256k1 pubkey, as SignerInfo.public_key carries it. */
export function secp256k1PubkeyAny(compressed: Uint8Array) {
  return { typeUrl: SECP256K1_PUBKEY_TYPE_URL, value: PubKey.encode({ key: compressed }).finish() };
}

/**
 * Builds the bytes a Cosmos wallet signs for `spec` (TxBody and AuthInfo encoded with cosmjs-types,
 * one SIGN_MODE_DIRECT signer, fee.granter set when the service pays), or why it cannot.
 */
export function buildCosmosSignDoc(spec: CosmosStepSpec): CosmosSignDocBuild {
  const invalid = (reason: string): CosmosSignDocBuild => ({ kind: 'invalid', reason });
  const { bech32Prefix: prefix } = spec;
  if (!isBech32Prefix(prefix)) return invalid(`${prefix} is not a bech32 prefix`);
  if (!/^[a-zA-Z0-9_.-]{1,50}$/.test(spec.chainId)) return invalid('chainId is not a Cosmos chain id');
  if (!isCosmosAddress(prefix, spec.signerAddress))
    return invalid(`signerAddress is not a ${prefix} account address`);
  for (const [name, value] of [
    ['accountNumber', spec.accountNumber],
    ['sequence', spec.sequence],
    ['gasLimit', spec.gasLimit],
    ['timeoutHeight', spec.timeoutHeight ?? '0'],
  ] as const) {
    if (!DECIMAL.test(value)) return invalid(`${name} must be a decimal integer`);
  }
  if (BigInt(spec.gasLimit) === 0n) return invalid('gasLimit must be positive');
  let pubkey: Uint8Array;
  try {
    pubkey = base64.decode(spec.signerPubkey);
    if (cosmosAddressOfPubkey(prefix, pubkey) !== spec.signerAddress)
      return invalid('signerPubkey is not the key of signerAddress');
  } catch {
    return invalid('signerPubkey must be the base64 compressed secp256k1 key (33 bytes)');
  }
  const feeError = coinsError(spec.fee, 'fee');
  if (feeError) return invalid(feeError);
  if (spec.feeGranter !== undefined && !isCosmosAddress(prefix, spec.feeGranter, { allowModule: true }))
    return invalid(`feeGranter is not a ${prefix} address`);
  if ((spec.memo ?? '').length > 256) return invalid('memo is longer than 256 characters');
  if (spec.msgs.length === 0) return invalid('a Cosmos step has at least one message');

  const anys: { typeUrl: string; value: Uint8Array }[] = [];
  for (const [index, msg] of spec.msgs.entries()) {
    const codec = CODECS[msg.typeUrl];
    if (!codec) return invalid(`msgs[${index}]: ${msg.typeUrl} is not a message this gateway issues`);
    if (typeof msg.value !== 'object' || msg.value === null) return invalid(`msgs[${index}] has no value`);
    if (codec.signers(msg.value).some((signer) => signer !== spec.signerAddress))
      return invalid(`msgs[${index}] is not signed by signerAddress`);
    const foreign = codec
      .localAddresses(msg.value)
      .find((a) => !isCosmosAddress(prefix, a, { allowModule: true }));
    if (foreign !== undefined) return invalid(`msgs[${index}]: ${foreign} is not a ${prefix} address`);
    try {
      anys.push({ typeUrl: msg.typeUrl, value: codec.encode(msg.value) });
    } catch (error) {
      return invalid(`msgs[${index}] does not encode: ${(error as Error).message}`);
    }
  }

  const bodyBytes = TxBody.encode(
    TxBody.fromPartial({
      messages: anys,
      memo: spec.memo ?? '',
      timeoutHeight: BigInt(spec.timeoutHeight ?? '0'),
    }),
  ).finish();
  const authInfoBytes = encodeAuthInfo(spec, pubkey, SignMode.SIGN_MODE_DIRECT);
  return {
    kind: 'ready',
    payload: {
      type: 'cosmos-sign-direct',
      signerAddress: spec.signerAddress,
      signDoc: {
        bodyBytes: base64.encode(bodyBytes),
        authInfoBytes: base64.encode(authInfoBytes),
        chainId: spec.chainId,
        accountNumber: BigInt(spec.accountNumber).toString(),
      },
      aminoSignDoc: aminoSignDocOf(spec),
      msgs: spec.msgs.map(({ typeUrl, value }) => ({ typeUrl, value })),
    },
  };
}

function encodeAuthInfo(spec: CosmosStepSpec, pubkey: Uint8Array, mode: SignMode): Uint8Array {
  return AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: [
        {
          publicKey: secp256k1PubkeyAny(pubkey),
          modeInfo: { single: { mode } },
          sequence: BigInt(spec.sequence),
        },
      ],
      fee: {
        amount: spec.fee.map(({ denom, amount }) => ({ denom, amount })),
        gasLimit: BigInt(spec.gasLimit),
        granter: spec.feeGranter ?? '',
        payer: '',
      },
    }),
  ).finish();
}

/**
 * The AuthInfo of the same transaction signed with SIGN_MODE_LEGACY_AMINO_JSON (what a Ledger
 * user's client assembles): the issued one, its signer's mode_info the only difference.
 */
export function aminoAuthInfoBytes(issuedAuthInfoBytes: Uint8Array): Uint8Array {
  const authInfo = AuthInfo.decode(issuedAuthInfoBytes);
  for (const info of authInfo.signerInfos)
    info.modeInfo = { single: { mode: SignMode.SIGN_MODE_LEGACY_AMINO_JSON } };
  return AuthInfo.encode(authInfo).finish();
}

function aminoSignDocOf(spec: CosmosStepSpec): CosmosAminoSignDoc | null {
  const msgs: CosmosAminoSignDoc['msgs'] = [];
  for (const msg of spec.msgs) {
    const codec = CODECS[msg.typeUrl];
    if (!codec) return null;
    msgs.push({ type: codec.aminoType, value: codec.toAmino(msg.value) });
  }
  const fee: CosmosAminoSignDoc['fee'] = {
    amount: spec.fee.map(({ denom, amount }) => ({ denom, amount })),
    gas: BigInt(spec.gasLimit).toString(),
  };
  if (spec.feeGranter) fee.granter = spec.feeGranter;
  const doc: CosmosAminoSignDoc = {
    chain_id: spec.chainId,
    account_number: BigInt(spec.accountNumber).toString(),
    sequence: BigInt(spec.sequence).toString(),
    fee,
    msgs,
    memo: spec.memo ?? '',
  };
  const timeoutHeight = BigInt(spec.timeoutHeight ?? '0');
  if (timeoutHeight > 0n) doc.timeout_height = timeoutHeight.toString();
  // Undefined members (omitted defaults) are left out, as in the JSON a wallet receives.
  return JSON.parse(JSON.stringify(doc)) as CosmosAminoSignDoc;
}

/**
 * The bytes an amino signer signs: the StdSignDoc as sorted-key JSON with &, <, > escaped (the
 * SDK's `MustSortJSON` and cosmjs's `serializeSignDoc`).
 */
export function serializeAminoSignDoc(doc: CosmosAminoSignDoc): Uint8Array {
  const json = canonicalJson(doc).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return new TextEncoder().encode(json);
}

function coinsError(coins: CosmosCoin[], name: string): string | undefined {
  for (const [index, coin] of coins.entries()) {
    if (!DENOM.test(coin.denom)) return `${name}[${index}].denom is not a denom`;
    if (!DECIMAL.test(coin.amount) || coin.amount === '0') return `${name}[${index}].amount must be positive`;
    if (index > 0 && coins[index - 1].denom >= coin.denom)
      return `${name} must be sorted by denom, each once`;
  }
  return undefined;
}
