import { Secp256k1Wallet } from '@cosmjs/amino';
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { createHash } from 'node:crypto';
import { base64 } from '@scure/base';
// The signed transaction is checked by the gateway's own verifier, not by a copy of its rules. The
// SDK does not depend on libs/chains, and the Cosmos family is on no entry point of it yet: only this
// spec reads it, by path.
// eslint-disable-next-line @nx/enforce-module-boundaries -- test code: the gateway's verifier is the oracle
import * as gateway from '../../chains/src/families/cosmos';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import {
  aminoAuthInfoBytes,
  CosmosAminoSignerLike,
  CosmosDirectSignerLike,
  type CosmosSignDirectPayload,
  cosmosSigner,
  CosmosSignerError,
  encodeTxRaw,
} from './cosmos-signers';

// The adapter against cosmjs's own wallets (what Keplr and Leap are to a dApp: an OfflineDirectSigner,
// or an OfflineAminoSigner for Ledger users): a payload built by the gateway's buildCosmosSignDoc is
// signed, and the submitted TxRaw passes the gateway's verifySignedCosmosTx.
describe('Cosmos signer adapter', () => {
  const CHAIN_ID = 'cosmoshub-devnet';
  const context = { swapId: 's1', step: { current: 1, total: 1 } };
  let direct: DirectSecp256k1Wallet;
  let amino: Secp256k1Wallet;
  let address: string;
  let other: string;
  // The gateway's type: that it is assignable to the SDK's CosmosSignDirectPayload is checked here.
  let payload: gateway.CosmosSignDirectPayload;

  // Wallets from fixed private keys: what is under test is signing, not BIP-39 derivation, whose
  // PBKDF2 (2,048 rounds per wallet) took over five seconds on a loaded CI machine.
  const keyOf = (index: number) => createHash('sha256').update(`swapgw cosmos signer spec ${index}`).digest();
  const wallet = <T extends typeof DirectSecp256k1Wallet | typeof Secp256k1Wallet>(kind: T, index = 0) =>
    kind.fromKey(keyOf(index), 'cosmos') as ReturnType<T['fromKey']>;

  function payloadOf(msgs: gateway.CosmosMsgJson[], pubkey: Uint8Array): gateway.CosmosSignDirectPayload {
    const built = gateway.buildCosmosSignDoc({
      chainId: CHAIN_ID,
      bech32Prefix: 'cosmos',
      signerAddress: address,
      signerPubkey: base64.encode(pubkey),
      accountNumber: '7',
      sequence: '3',
      msgs,
      gasLimit: '200000',
      fee: [{ denom: 'uatom', amount: '1000' }],
      feeGranter: other,
      memo: 'swapgw <&> test',
    });
    if (built.kind !== 'ready') throw new Error(built.reason);
    return built.payload;
  }

  beforeAll(async () => {
    direct = await wallet(DirectSecp256k1Wallet);
    amino = await wallet(Secp256k1Wallet);
    const [account] = await direct.getAccounts();
    address = account.address;
    other = (await (await wallet(DirectSecp256k1Wallet, 1)).getAccounts())[0].address;
    payload = payloadOf(
      [
        {
          typeUrl: gateway.MSG_SEND_TYPE_URL,
          value: { fromAddress: address, toAddress: other, amount: [{ denom: 'uatom', amount: '1000000' }] },
        },
      ],
      account.pubkey,
    );
  });

  it('direct: a DirectSecp256k1Wallet signs the issued SignDoc; the TxRaw passes the gateway verification', async () => {
    const calls: unknown[] = [];
    const signer: CosmosDirectSignerLike = {
      getAccounts: () => direct.getAccounts(),
      signDirect: (signerAddress, signDoc) => {
        calls.push({ signerAddress, signDoc });
        return direct.signDirect(signerAddress, signDoc);
      },
    };
    const issued: CosmosSignDirectPayload = payload; // the gateway's payload type is the SDK's
    const { rawTx } = await cosmosSigner(signer).sign(issued, context);
    expect(calls).toEqual([
      {
        signerAddress: address,
        signDoc: {
          bodyBytes: base64.decode(payload.signDoc.bodyBytes),
          authInfoBytes: base64.decode(payload.signDoc.authInfoBytes),
          chainId: CHAIN_ID,
          accountNumber: 7n, // a bigint, as cosmjs-types' SignDoc has it
        },
      },
    ]);
    const verified = gateway.verifySignedCosmosTx(payload, rawTx!);
    expect(verified.signMode).toBe('direct');
    expect(verified.rawTx).toBe(rawTx);
    // The wallet itself, unwrapped, is a signer (typed structurally: no @cosmjs import in the SDK).
    const again = await cosmosSigner(direct).sign(payload, context);
    expect(gateway.verifySignedCosmosTx(payload, again.rawTx!).signMode).toBe('direct');
  });

  it('amino (Ledger): a Secp256k1Wallet signs the amino sign doc; issued body, auth info in LEGACY_AMINO_JSON', async () => {
    const { rawTx } = await cosmosSigner(amino).sign(payload, context);
    const verified = gateway.verifySignedCosmosTx(payload, rawTx!);
    expect(verified.signMode).toBe('amino');
    const tx = TxRaw.decode(base64.decode(rawTx!));
    expect(base64.encode(tx.bodyBytes)).toBe(payload.signDoc.bodyBytes);
    expect(tx.authInfoBytes).toEqual(
      gateway.aminoAuthInfoBytes(base64.decode(payload.signDoc.authInfoBytes)),
    );

    // mode amino forces signAmino on a signer that has both (Keplr's getOfflineSigner).
    const both = Object.assign(Object.create(null) as object, {
      getAccounts: () => amino.getAccounts(),
      signAmino: amino.signAmino.bind(amino),
      signDirect: direct.signDirect.bind(direct),
    });
    const forced = await cosmosSigner(both, { mode: 'amino' }).sign(payload, context);
    expect(gateway.verifySignedCosmosTx(payload, forced.rawTx!).signMode).toBe('amino');
    expect(() => cosmosSigner(amino, { mode: 'direct' })).toThrow(/needs an OfflineDirectSigner/);
  });

  it('amino: an IBC transfer (timeout height kept zero) is signed and verified too', async () => {
    const [account] = await amino.getAccounts();
    const transfer = payloadOf(
      [
        {
          typeUrl: gateway.MSG_TRANSFER_TYPE_URL,
          value: {
            sourcePort: 'transfer',
            sourceChannel: 'channel-0',
            token: { denom: 'uatom', amount: '5' },
            sender: address,
            receiver: 'osmo1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu',
            timeoutTimestamp: '1900000000000000000',
          },
        },
      ],
      account.pubkey,
    );
    const { rawTx } = await cosmosSigner(amino).sign(transfer, context);
    expect(gateway.verifySignedCosmosTx(transfer, rawTx!).signMode).toBe('amino');
  });

  it('writes TxRaw and the amino auth info byte for byte as cosmjs-types and libs/chains do', () => {
    const issued = base64.decode(payload.signDoc.authInfoBytes);
    expect(aminoAuthInfoBytes(issued)).toEqual(gateway.aminoAuthInfoBytes(issued));
    const body = new Uint8Array(300).fill(1); // a length over one varint byte
    const signature = new Uint8Array(64).fill(2);
    expect(base64.decode(encodeTxRaw(body, issued, signature))).toEqual(
      TxRaw.encode({ bodyBytes: body, authInfoBytes: issued, signatures: [signature] }).finish(),
    );
  });

  it('refuses a signer that does not hold signerAddress, before asking it to sign', async () => {
    const stranger = await wallet(DirectSecp256k1Wallet, 2);
    const signDirect = jest.spyOn(stranger, 'signDirect');
    const refusal = cosmosSigner(stranger).sign(payload, context);
    await expect(refusal).rejects.toThrow(CosmosSignerError);
    await expect(refusal).rejects.toMatchObject({
      reason: 'unknown-signer',
      message: expect.stringContaining(`does not hold ${address}`),
    });
    expect(signDirect).not.toHaveBeenCalled();
  });

  it("several signers (one per chain, as a dApp holds Keplr's): the one holding signerAddress signs", async () => {
    // The same key under another chain's prefix holds another address: that signer is passed over.
    const noble = await DirectSecp256k1Wallet.fromKey(keyOf(0), 'noble');
    const stranger = await wallet(DirectSecp256k1Wallet, 2);
    const askedOf = (signer: DirectSecp256k1Wallet) => jest.spyOn(signer, 'signDirect');
    const [nobleAsked, strangerAsked] = [askedOf(noble), askedOf(stranger)];
    const { rawTx } = await cosmosSigner([noble, stranger, direct]).sign(payload, context);
    expect(gateway.verifySignedCosmosTx(payload, rawTx!).signMode).toBe('direct');
    expect(nobleAsked).not.toHaveBeenCalled();
    expect(strangerAsked).not.toHaveBeenCalled();

    const refusal = cosmosSigner([noble, stranger]).sign(payload, context);
    await expect(refusal).rejects.toMatchObject({
      reason: 'unknown-signer',
      message: expect.stringContaining(`does not hold ${address} (the signers given hold noble1`),
    });
    // A mode one of them cannot sign in is refused when the signers are given.
    expect(() => cosmosSigner([direct, amino], { mode: 'direct' })).toThrow(/needs an OfflineDirectSigner/);
  });

  it("a chain's signer on demand (Keplr's getOfflineSigner(chainId)): asked for the payload's chain", async () => {
    const chains: string[] = [];
    const signer = cosmosSigner((chainId) => {
      chains.push(chainId);
      return chainId === CHAIN_ID ? direct : amino;
    });
    const { rawTx } = await signer.sign(payload, context);
    expect(chains).toEqual([CHAIN_ID]);
    expect(gateway.verifySignedCosmosTx(payload, rawTx!).signMode).toBe('direct');

    const elsewhere = cosmosSigner(async () => wallet(DirectSecp256k1Wallet, 2));
    await expect(elsewhere.sign(payload, context)).rejects.toMatchObject({ reason: 'unknown-signer' });
  });

  it('refuses a wallet that changed the body, the fee or the amino doc (Keplr setting its own fee)', async () => {
    const alteringDirect = (change: 'bodyBytes' | 'authInfoBytes'): CosmosDirectSignerLike => ({
      getAccounts: () => direct.getAccounts(),
      signDirect: (signerAddress, signDoc) =>
        direct.signDirect(signerAddress, {
          ...signDoc,
          [change]: Uint8Array.from([...signDoc[change], 0x22, 0x00]), // an extra (empty) field
        }),
    });
    await expect(cosmosSigner(alteringDirect('bodyBytes')).sign(payload, context)).rejects.toMatchObject({
      name: 'CosmosSignerError',
      reason: 'altered-sign-doc',
      message: expect.stringMatching(/changed the transaction's body \(messages, memo\) before signing/),
    });
    await expect(cosmosSigner(alteringDirect('authInfoBytes')).sign(payload, context)).rejects.toMatchObject({
      reason: 'altered-sign-doc',
      message: expect.stringMatching(/auth info \(fee, gas, signer\).*preferNoSetFee/),
    });

    const higherFee: CosmosAminoSignerLike = {
      getAccounts: () => amino.getAccounts(),
      signAmino: (signerAddress, doc) =>
        amino.signAmino(signerAddress, {
          ...doc,
          fee: { ...doc.fee, amount: [{ denom: 'uatom', amount: '5000' }] },
        }),
    };
    await expect(cosmosSigner(higherFee).sign(payload, context)).rejects.toMatchObject({
      reason: 'altered-sign-doc',
      message: expect.stringContaining('changed the amino sign doc'),
    });
  });

  it('refuses amino for a payload without amino sign doc, and payloads of other families', async () => {
    await expect(cosmosSigner(amino).sign({ ...payload, aminoSignDoc: null }, context)).rejects.toMatchObject(
      {
        reason: 'no-amino-sign-doc',
      },
    );
    await expect(
      cosmosSigner(direct).sign({ type: 'solana-versioned-transaction', transaction: 'AA==' }, context),
    ).rejects.toThrow('the Cosmos signer cannot sign a solana-versioned-transaction payload');
  });
});
