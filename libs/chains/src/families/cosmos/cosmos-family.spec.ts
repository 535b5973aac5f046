import { encodeSecp256k1Pubkey, makeCosmoshubPath, Secp256k1HdWallet } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes } from '@cosmjs/proto-signing';
import { SigningStargateClient, StdFee } from '@cosmjs/stargate';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';
import { CodedError } from '@swapgw/contracts';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { cosmosAddressBytes, cosmosAddressOfPubkey, isCosmosAddress } from './cosmos-address';
import {
  buildCosmosSignDoc,
  type CosmosSignDirectPayload,
  type CosmosStepSpec,
  MSG_SEND_TYPE_URL,
  MSG_TRANSFER_TYPE_URL,
} from './cosmos-sign-doc';
import { cosmosTxHash, decodeCosmosTxRaw, verifySignedCosmosTx } from './cosmos-signed-tx';
import { canonicalCosmosTxHash } from './cosmos-status-client';

const MNEMONIC = 'test test test test test test test test test test test junk';
const CHAIN_ID = 'cosmoshub-devnet';

// cosmjs derives an HD wallet from the mnemonic with PBKDF2 in JavaScript (2,048 rounds of
// HMAC-SHA512): about a second each on an idle core, several on a loaded CI machine, and the hook
// below derives three. Jest's 5 s default is not a bound on the code under test.
jest.setTimeout(60_000);

/** Test wallet `index` (m/44'/118'/0'/0/index) as Keplr and Leap hold it (DIRECT), or a Ledger (amino). */
async function walletOf<T extends typeof DirectSecp256k1HdWallet | typeof Secp256k1HdWallet>(
  kind: T,
  index: number,
): Promise<{ wallet: Awaited<ReturnType<T['fromMnemonic']>>; address: string; pubkey: Uint8Array }> {
  const wallet = await kind.fromMnemonic(MNEMONIC, { prefix: 'cosmos', hdPaths: [makeCosmoshubPath(index)] });
  const [{ address, pubkey }] = await wallet.getAccounts();
  return { wallet: wallet as Awaited<ReturnType<T['fromMnemonic']>>, address, pubkey };
}
const directWallet = (index: number) => walletOf(DirectSecp256k1HdWallet, index);
const aminoWallet = (index: number) => walletOf(Secp256k1HdWallet, index);

function codeOf(fn: () => unknown): { code: string; details: unknown } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CodedError);
    return { code: (error as CodedError).code, details: (error as CodedError).details };
  }
  throw new Error('expected a refusal');
}

const txRawBase64 = (bodyBytes: Uint8Array, authInfoBytes: Uint8Array, signatures: Uint8Array[]) =>
  base64.encode(TxRaw.encode({ bodyBytes, authInfoBytes, signatures }).finish());

describe('Cosmos family (gateway side)', () => {
  let user: Awaited<ReturnType<typeof directWallet>>;
  let granter: string;
  let recipient: string;
  let spec: CosmosStepSpec;
  let payload: CosmosSignDirectPayload;

  beforeAll(async () => {
    user = await directWallet(1);
    granter = (await directWallet(2)).address;
    recipient = (await directWallet(3)).address;
    spec = {
      chainId: CHAIN_ID,
      bech32Prefix: 'cosmos',
      signerAddress: user.address,
      signerPubkey: base64.encode(user.pubkey),
      accountNumber: '7',
      sequence: '3',
      msgs: [
        {
          typeUrl: MSG_SEND_TYPE_URL,
          value: {
            fromAddress: user.address,
            toAddress: recipient,
            amount: [{ denom: 'uatom', amount: '1000000' }],
          },
        },
      ],
      gasLimit: '200000',
      fee: [{ denom: 'uatom', amount: '1000' }],
      feeGranter: granter,
      memo: 'swapgw <&> test',
    };
    const built = buildCosmosSignDoc(spec);
    if (built.kind !== 'ready') throw new Error(built.reason);
    payload = built.payload;
  });

  const signDocOf = (p: CosmosSignDirectPayload) => ({
    bodyBytes: base64.decode(p.signDoc.bodyBytes),
    authInfoBytes: base64.decode(p.signDoc.authInfoBytes),
    chainId: p.signDoc.chainId,
    accountNumber: BigInt(p.signDoc.accountNumber),
  });

  async function signedDirect(p = payload, signer = user.wallet, address = user.address) {
    const { signed, signature } = await signer.signDirect(address, signDocOf(p));
    return txRawBase64(signed.bodyBytes, signed.authInfoBytes, [base64.decode(signature.signature)]);
  }

  /** What a Ledger user's client sends: the issued body, the auth info in amino mode, the amino signature. */
  async function signedAmino(p = payload) {
    const amino = await aminoWallet(1);
    const { signature } = await amino.wallet.signAmino(user.address, p.aminoSignDoc!);
    const authInfo = AuthInfo.decode(base64.decode(p.signDoc.authInfoBytes));
    authInfo.signerInfos[0].modeInfo = { single: { mode: SignMode.SIGN_MODE_LEGACY_AMINO_JSON } };
    const rawTx = txRawBase64(base64.decode(p.signDoc.bodyBytes), AuthInfo.encode(authInfo).finish(), [
      base64.decode(signature.signature),
    ]);
    return { rawTx, signature };
  }

  describe('addresses', () => {
    it('validates bech32 account addresses of a prefix and derives them from a pubkey as wallets do', () => {
      expect(cosmosAddressOfPubkey('cosmos', user.pubkey)).toBe(user.address);
      expect(isCosmosAddress('cosmos', user.address)).toBe(true);
      expect(isCosmosAddress('osmo', user.address)).toBe(false);
      expect(isCosmosAddress('cosmos', user.address.toUpperCase())).toBe(true); // bech32 allows all-uppercase
      expect(
        isCosmosAddress('cosmos', user.address.slice(0, -1) + (user.address.endsWith('q') ? 'p' : 'q')),
      ).toBe(false);
      expect(isCosmosAddress('cosmos', 'cosmos1')).toBe(false);
      expect(isCosmosAddress('cosmos', '')).toBe(false);
      expect(cosmosAddressBytes('cosmos', user.address)).toHaveLength(20);
    });

    it('accepts 32-byte module and interchain-account addresses only when asked', () => {
      const { bech32 } = jest.requireActual<typeof import('@scure/base')>('@scure/base');
      const module = bech32.encode('cosmos', bech32.toWords(new Uint8Array(32).fill(7)));
      expect(isCosmosAddress('cosmos', module)).toBe(false);
      expect(isCosmosAddress('cosmos', module, { allowModule: true })).toBe(true);
      expect(() => cosmosAddressOfPubkey('cosmos', new Uint8Array(65))).toThrow(/33 bytes/);
    });
  });

  describe('sign doc', () => {
    it('encodes the body and auth info cosmjs encodes for the same tx, with the service as fee granter', async () => {
      const client = await SigningStargateClient.offline(user.wallet);
      const fee: StdFee = { amount: [{ denom: 'uatom', amount: '1000' }], gas: '200000', granter };
      const cosmjs = await client.sign(
        user.address,
        [{ typeUrl: MSG_SEND_TYPE_URL, value: MsgSend.fromJSON(spec.msgs[0].value) }],
        fee,
        spec.memo!,
        { accountNumber: 7n, sequence: 3, chainId: CHAIN_ID },
      );
      expect(payload.signDoc.bodyBytes).toBe(base64.encode(cosmjs.bodyBytes));
      expect(payload.signDoc.authInfoBytes).toBe(base64.encode(cosmjs.authInfoBytes));
      expect(payload).toMatchObject({
        type: 'cosmos-sign-direct',
        signerAddress: user.address,
        signDoc: { chainId: CHAIN_ID, accountNumber: '7' },
        msgs: spec.msgs,
      });
      const authInfo = AuthInfo.decode(cosmjs.authInfoBytes);
      expect(authInfo.fee).toMatchObject({ granter, gasLimit: 200000n });
      expect(authInfo.signerInfos[0]).toMatchObject({
        sequence: 3n,
        modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } },
      });
      expect(TxBody.decode(cosmjs.bodyBytes).memo).toBe('swapgw <&> test');
    });

    it('gives the amino sign doc a Ledger signs, as cosmjs makes it', () => {
      expect(payload.aminoSignDoc).toEqual({
        chain_id: CHAIN_ID,
        account_number: '7',
        sequence: '3',
        fee: { amount: [{ denom: 'uatom', amount: '1000' }], gas: '200000', granter },
        msgs: [
          {
            type: 'cosmos-sdk/MsgSend',
            value: {
              from_address: user.address,
              to_address: recipient,
              amount: [{ denom: 'uatom', amount: '1000000' }],
            },
          },
        ],
        memo: 'swapgw <&> test',
      });
    });

    it('issues IBC transfers with their amino form', async () => {
      const transfer = {
        typeUrl: MSG_TRANSFER_TYPE_URL,
        value: {
          sourcePort: 'transfer',
          sourceChannel: 'channel-0',
          token: { denom: 'uatom', amount: '5' },
          sender: user.address,
          receiver: 'osmo1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu',
          timeoutTimestamp: '1800000000000000000',
        },
      };
      const built = buildCosmosSignDoc({
        ...spec,
        msgs: [transfer],
        feeGranter: undefined,
        timeoutHeight: '99',
      });
      if (built.kind !== 'ready') throw new Error(built.reason);
      expect(built.payload.aminoSignDoc).toMatchObject({
        timeout_height: '99',
        fee: { gas: '200000' },
        msgs: [
          {
            type: 'cosmos-sdk/MsgTransfer',
            value: {
              source_port: 'transfer',
              source_channel: 'channel-0',
              timeout_height: {},
              timeout_timestamp: '1800000000000000000',
            },
          },
        ],
      });
      expect(built.payload.aminoSignDoc!.fee).not.toHaveProperty('granter');
      const body = TxBody.decode(base64.decode(built.payload.signDoc.bodyBytes));
      expect(body.timeoutHeight).toBe(99n);
      expect(MsgTransfer.decode(body.messages[0].value).receiver).toBe(transfer.value.receiver);

      const amino = await aminoWallet(1);
      const client = await SigningStargateClient.offline(amino.wallet);
      const signed = await client.sign(
        user.address,
        [{ typeUrl: MSG_TRANSFER_TYPE_URL, value: MsgTransfer.fromJSON(transfer.value) }],
        { amount: [{ denom: 'uatom', amount: '1000' }], gas: '200000' },
        spec.memo!,
        { accountNumber: 7n, sequence: 3, chainId: CHAIN_ID },
        99n,
      );
      const verified = verifySignedCosmosTx(built.payload, base64.encode(TxRaw.encode(signed).finish()));
      expect(verified.signMode).toBe('amino');
    });

    it('refuses what it cannot issue', () => {
      const reasonOf = (change: Partial<CosmosStepSpec>) => {
        const built = buildCosmosSignDoc({ ...spec, ...change });
        return built.kind === 'invalid' ? built.reason : 'ready';
      };
      expect(reasonOf({ msgs: [{ typeUrl: '/cosmos.staking.v1beta1.MsgDelegate', value: {} }] })).toMatch(
        /not a message this gateway issues/,
      );
      expect(reasonOf({ signerPubkey: base64.encode(new Uint8Array(33).fill(2)) })).toMatch(/not the key of/);
      expect(reasonOf({ signerPubkey: 'nope' })).toMatch(/base64 compressed/);
      expect(reasonOf({ signerAddress: recipient })).toMatch(/not the key of/);
      expect(
        reasonOf({
          msgs: [{ typeUrl: MSG_SEND_TYPE_URL, value: { ...spec.msgs[0].value, fromAddress: recipient } }],
        }),
      ).toMatch(/not signed by signerAddress/);
      expect(
        reasonOf({
          msgs: [{ typeUrl: MSG_SEND_TYPE_URL, value: { ...spec.msgs[0].value, toAddress: 'osmo1x' } }],
        }),
      ).toMatch(/not a cosmos address/);
      expect(reasonOf({ fee: [{ denom: 'uatom', amount: '0' }] })).toMatch(/positive/);
      expect(reasonOf({ gasLimit: '0' })).toMatch(/positive/);
      expect(reasonOf({ sequence: '-1' })).toMatch(/decimal/);
      expect(reasonOf({ feeGranter: 'osmo1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu' })).toMatch(/feeGranter/);
      expect(reasonOf({ msgs: [] })).toMatch(/at least one/);
    });
  });

  describe('signed tx', () => {
    it('verifies what a direct wallet signed over exactly the issued sign doc, named by its hash', async () => {
      const rawTx = await signedDirect();
      const verified = verifySignedCosmosTx(payload, rawTx);
      expect(verified.signMode).toBe('direct');
      expect(verified.rawTx).toBe(rawTx);
      expect(verified.hash).toBe(
        Buffer.from(sha256(base64.decode(rawTx)))
          .toString('hex')
          .toUpperCase(),
      );
      expect(verified.hash).toBe(cosmosTxHash(base64.decode(rawTx)));
      expect(decodeCosmosTxRaw(` ${rawTx}\n`).hash).toBe(verified.hash);
    });

    it('verifies what a legacy amino (Ledger) wallet signed over the amino sign doc', async () => {
      const { rawTx, signature } = await signedAmino();
      expect(verifySignedCosmosTx(payload, rawTx).signMode).toBe('amino');

      // The same signature under the DIRECT auth info is not a direct signature.
      const direct = txRawBase64(
        base64.decode(payload.signDoc.bodyBytes),
        base64.decode(payload.signDoc.authInfoBytes),
        [base64.decode(signature.signature)],
      );
      expect(codeOf(() => verifySignedCosmosTx(payload, direct)).details).toMatchObject({
        mismatches: [{ field: 'signature' }],
      });
    });

    it('refuses a tampered body, a foreign signer and garbage with the codes of the other families', async () => {
      const rawTx = base64.decode(await signedDirect());
      const tx = TxRaw.decode(rawTx);
      const body = Uint8Array.from(tx.bodyBytes);
      body[body.length - 1] ^= 1; // one byte of the memo
      const tampered = codeOf(() =>
        verifySignedCosmosTx(payload, txRawBase64(body, tx.authInfoBytes, tx.signatures)),
      );
      expect(tampered).toMatchObject({
        code: 'TX_REQUEST_MISMATCH',
        details: { mismatches: [{ field: 'bodyBytes' }] },
      });

      const foreign = await directWallet(4);
      const foreignSigned = await signedDirect(payload, foreign.wallet, foreign.address);
      expect(codeOf(() => verifySignedCosmosTx(payload, foreignSigned))).toMatchObject({
        code: 'TX_REQUEST_MISMATCH',
        details: { mismatches: [{ field: 'signature' }] },
      });

      // A foreign wallet's own auth info (its key) is not the issued one.
      const foreignAuthInfo = makeAuthInfoBytes(
        [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(foreign.pubkey)), sequence: 3 }],
        [{ denom: 'uatom', amount: '1000' }],
        200000,
        granter,
        undefined,
      );
      const { signature } = await foreign.wallet.signDirect(foreign.address, {
        ...signDocOf(payload),
        authInfoBytes: foreignAuthInfo,
      });
      const ownAuthInfo = txRawBase64(tx.bodyBytes, foreignAuthInfo, [base64.decode(signature.signature)]);
      expect(codeOf(() => verifySignedCosmosTx(payload, ownAuthInfo)).details).toMatchObject({
        mismatches: [{ field: 'authInfoBytes' }],
      });

      const twice = txRawBase64(tx.bodyBytes, tx.authInfoBytes, [tx.signatures[0], tx.signatures[0]]);
      expect(codeOf(() => verifySignedCosmosTx(payload, twice)).details).toMatchObject({
        mismatches: [{ field: 'signatures', actual: '2' }],
      });

      for (const garbage of [
        '',
        'not base64!',
        base64.encode(new TextEncoder().encode('not a tx')),
        '0x' + 'ab'.repeat(40),
        base64.encode(Uint8Array.from([...rawTx, 0x50, 0x01])), // an unknown field
        txRawBase64(tx.bodyBytes, tx.authInfoBytes, []), // unsigned
      ]) {
        expect(codeOf(() => verifySignedCosmosTx(payload, garbage)).code).toBe('INVALID_SIGNED_TX');
      }
    });

    it('refuses an amino-mode tx when the payload has no amino form', async () => {
      const { rawTx } = await signedAmino();
      expect(
        codeOf(() => verifySignedCosmosTx({ ...payload, aminoSignDoc: null }, rawTx)).details,
      ).toMatchObject({
        mismatches: [{ field: 'authInfoBytes' }],
      });
    });
  });

  it('takes tx hashes as 64 hex digits in any case and names them in uppercase', () => {
    const hash = 'ab'.repeat(32);
    expect(canonicalCosmosTxHash('cosmoshub-devnet', hash)).toBe(hash.toUpperCase());
    for (const bad of ['0x' + hash, hash.slice(2), 'zz' + hash.slice(2), ''])
      expect(codeOf(() => canonicalCosmosTxHash('cosmoshub-devnet', bad)).code).toBe('INVALID_TX_HASH');
  });
});
