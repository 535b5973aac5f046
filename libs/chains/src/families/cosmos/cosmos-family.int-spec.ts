import { makeCosmoshubPath, Secp256k1HdWallet } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { base64 } from '@scure/base';
import { CodedError } from '@swapgw/contracts';
import {
  type CosmosDevnetChainManifest,
  type CosmosDevnetHandle,
  DEVNET_MNEMONIC,
  startCosmosDevnet,
} from '@swapgw/devnet';
import { BasicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { AuthInfo, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { buildCosmosSignDoc, type CosmosSignDirectPayload, MSG_SEND_TYPE_URL } from './cosmos-sign-doc';
import { verifySignedCosmosTx } from './cosmos-signed-tx';
import { CosmosStatusClient } from './cosmos-status-client';

const SENT = 777n;
const GAS_LIMIT = 200_000n;

/**
 * The gateway's side of a Cosmos step against the devnet's Cosmos chain: a payload issued for a
 * wallet whose fee the service's granter pays, signed by unmodified cosmjs wallets (Keplr's DIRECT,
 * a Ledger's amino), verified, broadcast and followed to its block.
 */
describe('Cosmos family on the local Cosmos devnet', () => {
  let devnet: CosmosDevnetHandle;
  let hub: CosmosDevnetChainManifest;
  let status: CosmosStatusClient;
  let reader: StargateClient;
  const clients: StargateClient[] = [];

  beforeAll(async () => {
    devnet = await startCosmosDevnet({ standardPorts: false, blockMs: 300 });
    hub = devnet.chains.find((c) => c.manifest.id === 'cosmoshub-devnet')!.manifest;
    status = new CosmosStatusClient({ id: hub.id, rpcUrl: hub.rpc }, 5_000);
    reader = await StargateClient.connect(hub.rpc);
    clients.push(reader);
  });
  afterAll(async () => {
    clients.forEach((c) => c.disconnect());
    await devnet?.stop();
  });

  const options = (index: number) => ({ prefix: hub.bech32Prefix, hdPaths: [makeCosmoshubPath(index)] });
  const balance = async (address: string) =>
    BigInt((await reader.getBalance(address, hub.nativeDenom)).amount);
  const feeFor = (gas: bigint) => {
    const price = GasPrice.fromString(hub.minGasPrice);
    const amount = Number(gas) * Number(price.amount.toString());
    return { denom: hub.nativeDenom, amount: String(Math.ceil(amount)) };
  };

  /** A funded test wallet, through an unmodified cosmjs client (the service's granter, a funder). */
  async function serviceWallet(index: number) {
    const signer = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, options(index));
    const [{ address }] = await signer.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(hub.rpc, signer, {
      gasPrice: GasPrice.fromString(hub.minGasPrice),
      broadcastPollIntervalMs: 100,
    });
    clients.push(client);
    return { address, client };
  }

  /** A user wallet that holds exactly SENT and whose fees the granter allows. */
  async function fundedGrantee(address: string) {
    const granter = await serviceWallet(7);
    const funder = await serviceWallet(8);
    const grant = await granter.client.signAndBroadcast(
      granter.address,
      [
        {
          typeUrl: '/cosmos.feegrant.v1beta1.MsgGrantAllowance',
          value: {
            granter: granter.address,
            grantee: address,
            allowance: {
              typeUrl: '/cosmos.feegrant.v1beta1.BasicAllowance',
              value: BasicAllowance.encode({
                spendLimit: [{ denom: hub.nativeDenom, amount: '100000' }],
              }).finish(),
            },
          },
        },
      ],
      'auto',
    );
    expect(grant.code).toBe(0);
    const funded = await funder.client.sendTokens(
      funder.address,
      address,
      [{ denom: hub.nativeDenom, amount: SENT.toString() }],
      'auto',
    );
    expect(funded.code).toBe(0);
    return granter.address;
  }

  /**
   * The payload the gateway issues for a MsgSend: account number and sequence read from the chain,
   * the pubkey from the chain's account when it has one, else the one the wallet gave (a first tx).
   */
  async function issue(
    signer: { address: string; pubkey: Uint8Array },
    send: { recipient: string; amount: string; granter?: string; fee?: { denom: string; amount: string } },
  ) {
    const account = await reader.getAccount(signer.address);
    if (!account) throw new Error(`${signer.address} has no account`);
    const built = buildCosmosSignDoc({
      chainId: hub.chainId,
      bech32Prefix: hub.bech32Prefix,
      signerAddress: signer.address,
      signerPubkey: account.pubkey?.value ?? base64.encode(signer.pubkey),
      accountNumber: String(account.accountNumber),
      sequence: String(account.sequence),
      msgs: [
        {
          typeUrl: MSG_SEND_TYPE_URL,
          value: {
            fromAddress: signer.address,
            toAddress: send.recipient,
            amount: [{ denom: hub.nativeDenom, amount: send.amount }],
          },
        },
      ],
      gasLimit: GAS_LIMIT.toString(),
      fee: [send.fee ?? feeFor(GAS_LIMIT)],
      feeGranter: send.granter,
      memo: 'swapgw step',
    });
    if (built.kind !== 'ready') throw new Error(built.reason);
    return built.payload;
  }

  const signDocOf = (payload: CosmosSignDirectPayload) => ({
    bodyBytes: base64.decode(payload.signDoc.bodyBytes),
    authInfoBytes: base64.decode(payload.signDoc.authInfoBytes),
    chainId: payload.signDoc.chainId,
    accountNumber: BigInt(payload.signDoc.accountNumber),
  });
  const txRaw = (bodyBytes: Uint8Array, authInfoBytes: Uint8Array, signature: string) =>
    base64.encode(
      TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [base64.decode(signature)] }).finish(),
    );

  function refusal(fn: () => unknown): CodedError {
    try {
      fn();
    } catch (error) {
      if (error instanceof CodedError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  }

  async function landed(hash: string) {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        const result = await status.transactionStatus(hash.toLowerCase());
        if (result.status !== 'pending') return result;
      } catch (error) {
        if ((error as CodedError).code !== 'TRANSACTION_NOT_FOUND') throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${hash} never landed`);
  }

  it('issues a fee-granted MsgSend that a DIRECT wallet signs as issued, verified, broadcast and confirmed', async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, options(40));
    const [user] = await wallet.getAccounts();
    const recipient = hub.accounts[2].address;
    const granter = await fundedGrantee(user.address);
    const payload = await issue(user, { recipient, amount: SENT.toString(), granter });
    const granterBefore = await balance(granter);
    const recipientBefore = await balance(recipient);

    const { signed, signature } = await wallet.signDirect(user.address, signDocOf(payload));
    const rawTx = txRaw(signed.bodyBytes, signed.authInfoBytes, signature.signature);

    // Tampered (one byte of the body), foreign-signed and garbage artifacts are refused.
    const body = Uint8Array.from(signed.bodyBytes);
    body[body.length - 1] ^= 1;
    expect(
      refusal(() => verifySignedCosmosTx(payload, txRaw(body, signed.authInfoBytes, signature.signature))),
    ).toMatchObject({ code: 'TX_REQUEST_MISMATCH', details: { mismatches: [{ field: 'bodyBytes' }] } });
    const foreign = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, options(3));
    const [foreignAccount] = await foreign.getAccounts();
    const foreignSigned = await foreign.signDirect(foreignAccount.address, signDocOf(payload));
    expect(
      refusal(() =>
        verifySignedCosmosTx(
          payload,
          txRaw(signed.bodyBytes, signed.authInfoBytes, foreignSigned.signature.signature),
        ),
      ),
    ).toMatchObject({ code: 'TX_REQUEST_MISMATCH', details: { mismatches: [{ field: 'signature' }] } });
    expect(refusal(() => verifySignedCosmosTx(payload, 'bm90IGEgdHg='))).toMatchObject({
      code: 'INVALID_SIGNED_TX',
    });

    const verified = verifySignedCosmosTx(payload, rawTx);
    expect(verified).toMatchObject({ signMode: 'direct', rawTx });
    await expect(status.transactionStatus(verified.hash)).rejects.toMatchObject({
      code: 'TRANSACTION_NOT_FOUND',
    });
    expect(await status.broadcastTxSync(verified.rawTx)).toEqual({ kind: 'sent' });
    expect(await status.broadcastTxSync(verified.rawTx)).toMatchObject({ kind: 'already-known' });

    const result = await landed(verified.hash);
    expect(result).toMatchObject({ txHash: verified.hash, chain: hub.id, status: 'confirmed' });
    expect(result.confirmedAtMs).toBeGreaterThan(Date.now() - 60_000);
    expect(await balance(user.address)).toBe(0n);
    expect(await balance(recipient)).toBe(recipientBefore + SENT);
    expect(await balance(granter)).toBe(granterBefore - BigInt(feeFor(GAS_LIMIT).amount));
    // Landed, the same bytes are known, not refused.
    expect((await status.broadcastTxSync(verified.rawTx)).kind).toBe('already-known');
  });

  it('verifies and lands what a Ledger (amino) wallet signed over the amino sign doc', async () => {
    const wallet = await Secp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, options(41));
    const [user] = await wallet.getAccounts();
    const recipient = hub.accounts[3].address;
    const granter = await fundedGrantee(user.address);
    const payload = await issue(user, { recipient, amount: SENT.toString(), granter });

    const { signature } = await wallet.signAmino(user.address, payload.aminoSignDoc!);
    const authInfo = AuthInfo.decode(base64.decode(payload.signDoc.authInfoBytes));
    authInfo.signerInfos[0].modeInfo = { single: { mode: SignMode.SIGN_MODE_LEGACY_AMINO_JSON } };
    const rawTx = txRaw(
      base64.decode(payload.signDoc.bodyBytes),
      AuthInfo.encode(authInfo).finish(),
      signature.signature,
    );

    const verified = verifySignedCosmosTx(payload, rawTx);
    expect(verified.signMode).toBe('amino');
    expect(await status.broadcastTxSync(verified.rawTx)).toEqual({ kind: 'sent' });
    expect(await landed(verified.hash)).toMatchObject({ status: 'confirmed' });
    expect(await balance(user.address)).toBe(0n);
  });

  it('reports a tx that executed and failed with its code, and a refused one as rejected', async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, options(5));
    const [user] = await wallet.getAccounts();
    const sign = async (payload: CosmosSignDirectPayload) => {
      const { signed, signature } = await wallet.signDirect(user.address, signDocOf(payload));
      return verifySignedCosmosTx(
        payload,
        txRaw(signed.bodyBytes, signed.authInfoBytes, signature.signature),
      );
    };

    // Below the fee floor: refused at CheckTx.
    const recipient = hub.accounts[4].address;
    const underpaid = await issue(user, {
      recipient,
      amount: '1',
      fee: { denom: hub.nativeDenom, amount: '1' },
    });
    const refused = await status.broadcastTxSync((await sign(underpaid)).rawTx);
    expect(refused).toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/^sdk\/13: insufficient fees/),
    });

    // More than the wallet holds: included, the message failing (code 5), its fee paid.
    const tooMuch = await sign(
      await issue(user, { recipient, amount: (await balance(user.address)).toString() }),
    );
    expect(await status.broadcastTxSync(tooMuch.rawTx)).toEqual({ kind: 'sent' });
    const result = await landed(tooMuch.hash);
    expect(result).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^sdk\/5: .*insufficient funds/),
    });
  });

  it('answers STATUS_UPSTREAM_ERROR and unreachable when the node cannot be reached', async () => {
    const down = new CosmosStatusClient({ id: hub.id, rpcUrl: 'http://127.0.0.1:1' }, 1_000);
    await expect(down.transactionStatus('AB'.repeat(32))).rejects.toMatchObject({
      code: 'STATUS_UPSTREAM_ERROR',
    });
    expect((await down.broadcastTxSync('AAAA')).kind).toBe('unreachable');
    await expect(status.transactionStatus('0x' + 'AB'.repeat(32))).rejects.toMatchObject({
      code: 'INVALID_TX_HASH',
    });
  });
});
