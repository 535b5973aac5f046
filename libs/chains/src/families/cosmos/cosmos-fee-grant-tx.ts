import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';
import { BasicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import { MsgGrantAllowance, MsgRevokeAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/tx';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { AuthInfo, SignDoc, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { CosmosCoin } from './cosmos-sign-doc';
import { cosmosAddressOfPubkey } from './cosmos-address';
import { secp256k1PubkeyAny } from './cosmos-sign-doc';

export const MSG_GRANT_ALLOWANCE_TYPE_URL = '/cosmos.feegrant.v1beta1.MsgGrantAllowance';
export const MSG_REVOKE_ALLOWANCE_TYPE_URL = '/cosmos.feegrant.v1beta1.MsgRevokeAllowance';
const BASIC_ALLOWANCE_TYPE_URL = '/cosmos.feegrant.v1beta1.BasicAllowance';

/** The fee granter's account as the chain has it now. */
export interface GranterAccount {
  chainId: string;
  prefix: string;
  accountNumber: bigint;
  sequence: bigint;
}

/** The address of a fee granter's key on a chain of `prefix`. */
export function granterAddressOf(prefix: string, privateKey: Uint8Array): string {
  return cosmosAddressOfPubkey(prefix, secp256k1.getPublicKey(privateKey, true));
}

/**
 * The fee granter's transaction granting `grantee` a BasicAllowance of `spendLimit` (no expiry),
 * revoking the allowance it has first when `replace` (x/feegrant refuses a second grant: a top-up
 * is a revoke and a grant in one transaction), signed SIGN_MODE_DIRECT with the granter's key and
 * paid by the granter itself: base64 TxRaw and its hash.
 */
export function signFeeGrantTx(input: {
  account: GranterAccount;
  privateKey: Uint8Array;
  grantee: string;
  spendLimit: CosmosCoin[];
  replace: boolean;
  gasLimit: bigint;
  fee: CosmosCoin[];
}): string {
  const granter = granterAddressOf(input.account.prefix, input.privateKey);
  const messages = [];
  if (input.replace)
    messages.push({
      typeUrl: MSG_REVOKE_ALLOWANCE_TYPE_URL,
      value: MsgRevokeAllowance.encode({ granter, grantee: input.grantee }).finish(),
    });
  messages.push({
    typeUrl: MSG_GRANT_ALLOWANCE_TYPE_URL,
    value: MsgGrantAllowance.encode({
      granter,
      grantee: input.grantee,
      allowance: {
        typeUrl: BASIC_ALLOWANCE_TYPE_URL,
        value: BasicAllowance.encode({ spendLimit: input.spendLimit }).finish(),
      },
    }).finish(),
  });
  return signGranterTx({ ...input, messages });
}

/**
 * A transaction of the service's own key on a Cosmos chain (the fee granter's: its grants, the
 * forwarding accounts it registers): `messages` signed SIGN_MODE_DIRECT, the fee paid by the key's
 * account itself; base64 TxRaw.
 */
export function signGranterTx(input: {
  account: GranterAccount;
  privateKey: Uint8Array;
  messages: { typeUrl: string; value: Uint8Array }[];
  gasLimit: bigint;
  fee: CosmosCoin[];
}): string {
  const pubkey = secp256k1.getPublicKey(input.privateKey, true);
  const bodyBytes = TxBody.encode(TxBody.fromPartial({ messages: input.messages, memo: '' })).finish();
  const authInfoBytes = AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: [
        {
          publicKey: secp256k1PubkeyAny(pubkey),
          modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } },
          sequence: input.account.sequence,
        },
      ],
      fee: { amount: input.fee, gasLimit: input.gasLimit, granter: '', payer: '' },
    }),
  ).finish();
  const signBytes = SignDoc.encode({
    bodyBytes,
    authInfoBytes,
    chainId: input.account.chainId,
    accountNumber: input.account.accountNumber,
  }).finish();
  const signature = secp256k1.sign(sha256(signBytes), input.privateKey, { prehash: false, lowS: true });
  return base64.encode(TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [signature] }).finish());
}
