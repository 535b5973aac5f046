import { createHash } from 'node:crypto';
import {
  BroadcastTxError,
  calculateFee,
  DeliverTxResponse,
  GasPrice,
  SigningStargateClient,
  StdFee,
} from '@cosmjs/stargate';
import { BasicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { COSMOS_TEST_WALLET_FUNDING } from './cosmos-chain-spec';
import type { CosmosDevnetChainManifest } from './cosmos-devnet';
import { cosmosDevnetForSpec, waitFor } from './cosmos-test-support';

/**
 * The devnet's Cosmos chains as wallets see them: unmodified cosmjs clients (a SIGN_MODE_DIRECT
 * wallet and a legacy amino one) against the CometBFT RPC, and the REST API read as explorers do.
 */
describe('local Cosmos devnet (in-process Cosmos SDK chains behind CometBFT RPC and REST)', () => {
  const devnet = cosmosDevnetForSpec();
  const { wallet, reader, rest } = devnet.clients;
  const gasPrice = (chain: CosmosDevnetChainManifest) => GasPrice.fromString(chain.minGasPrice);

  /**
   * Signs a MsgSend and broadcasts it without waiting for inclusion: broadcastTxSync rejects with
   * the CheckTx code (sendTokens would too, but leaves its 60 s inclusion timer running).
   */
  async function refusedSend(
    sender: { address: string; client: SigningStargateClient },
    to: string,
    denom: string,
    paid: StdFee,
  ): Promise<BroadcastTxError> {
    const signed = await sender.client.sign(
      sender.address,
      [sendMsg(sender.address, to, denom, '1')],
      paid,
      '',
    );
    return refusal(sender.client.broadcastTxSync(TxRaw.encode(signed).finish()));
  }

  async function refusal(promise: Promise<unknown>): Promise<BroadcastTxError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BroadcastTxError);
    return error as BroadcastTxError;
  }

  function fee(chain: CosmosDevnetChainManifest, gas: number, extra: Partial<StdFee> = {}): StdFee {
    return { ...calculateFee(gas, gasPrice(chain)), ...extra };
  }

  it('describes each chain as a wallet reads it and funds the test wallets', async () => {
    expect(
      devnet.handle.chains.map((c) => [c.manifest.id, c.manifest.bech32Prefix, c.manifest.nativeDenom]),
    ).toEqual([
      ['cosmoshub-devnet', 'cosmos', 'uatom'],
      ['osmosis-devnet', 'osmo', 'uosmo'],
      ['noble-devnet', 'noble', 'uusdc'],
    ]);
    for (const { manifest } of devnet.handle.chains) {
      const client = await reader(manifest);
      expect(await client.getChainId()).toBe(manifest.chainId);
      expect(await client.getHeight()).toBeGreaterThanOrEqual(1);
      const { address } = await wallet(manifest, manifest.accounts[0].index);
      expect(address).toBe(manifest.accounts[0].address);
      expect(await client.getBalance(address, manifest.nativeDenom)).toEqual({
        denom: manifest.nativeDenom,
        amount: COSMOS_TEST_WALLET_FUNDING.toString(),
      });
      const account = await client.getAccount(address);
      expect(account).toMatchObject({ address, sequence: 0, pubkey: null });
    }
  });

  it('sends tokens signed in SIGN_MODE_DIRECT with an "auto" (simulated) fee', async () => {
    const sender = await wallet(devnet.hub, 1);
    const recipient = devnet.hub.accounts[8].address;
    const client = await reader(devnet.hub);
    const before = BigInt((await client.getBalance(recipient, 'uatom')).amount);

    const result = await sender.client.sendTokens(
      sender.address,
      recipient,
      [{ denom: 'uatom', amount: '1234567' }],
      'auto',
      'devnet',
    );

    expect(result.code).toBe(0);
    expect(result.transactionHash).toMatch(/^[0-9A-F]{64}$/);
    expect(BigInt((await client.getBalance(recipient, 'uatom')).amount)).toBe(before + 1_234_567n);
    const tx = await client.getTx(result.transactionHash);
    expect(tx).toMatchObject({ code: 0, height: result.height, hash: result.transactionHash });
    expect(result.gasUsed).toBeLessThanOrEqual(result.gasWanted);
    const account = await client.getAccount(sender.address);
    expect(account?.sequence).toBe(1);
    expect(account?.pubkey?.type).toBe('tendermint/PubKeySecp256k1');
    const found = await client.searchTx([{ key: 'transfer.recipient', value: recipient }]);
    expect(found.map((t) => t.hash)).toContain(result.transactionHash);

    const { json } = await rest(devnet.hub, `/cosmos/tx/v1beta1/txs/${result.transactionHash}`);
    expect(json.tx_response).toMatchObject({
      code: 0,
      txhash: result.transactionHash,
      height: String(result.height),
    });
    expect(json.tx.body.messages[0]).toMatchObject({
      '@type': '/cosmos.bank.v1beta1.MsgSend',
      from_address: sender.address,
      to_address: recipient,
      amount: [{ denom: 'uatom', amount: '1234567' }],
    });
    expect(json.tx.body.memo).toBe('devnet');
    const account2 = await rest(devnet.hub, `/cosmos/auth/v1beta1/accounts/${sender.address}`);
    expect(account2.json.account).toMatchObject({ address: sender.address, sequence: '1' });
  });

  it('sends tokens signed in SIGN_MODE_LEGACY_AMINO_JSON', async () => {
    const sender = await wallet(devnet.osmosis, 2, 'amino');
    const recipient = devnet.osmosis.accounts[7].address;
    const client = await reader(devnet.osmosis);
    const before = BigInt((await client.getBalance(recipient, 'uosmo')).amount);
    const senderBefore = BigInt((await client.getBalance(sender.address, 'uosmo')).amount);
    const paid = fee(devnet.osmosis, 200_000);

    const result = await sender.client.sendTokens(
      sender.address,
      recipient,
      [{ denom: 'uosmo', amount: '5000000' }],
      paid,
      'amino & <json>',
    );

    expect(result.code).toBe(0);
    expect(BigInt((await client.getBalance(recipient, 'uosmo')).amount)).toBe(before + 5_000_000n);
    expect(BigInt((await client.getBalance(sender.address, 'uosmo')).amount)).toBe(
      senderBefore - 5_000_000n - BigInt(paid.amount[0].amount),
    );
    const balances = await rest(devnet.osmosis, `/cosmos/bank/v1beta1/balances/${recipient}`);
    expect(balances.json.balances).toEqual([{ denom: 'uosmo', amount: (before + 5_000_000n).toString() }]);
  });

  it('refuses a wrong sequence with code 32 and the SDK log', async () => {
    const sender = await wallet(devnet.hub, 3);
    const { accountNumber, sequence } = await sender.client.getSequence(sender.address);
    const signed = await sender.client.sign(
      sender.address,
      [sendMsg(sender.address, devnet.hub.accounts[0].address, 'uatom', '1')],
      fee(devnet.hub, 200_000),
      '',
      { accountNumber, sequence: sequence + 5, chainId: devnet.hub.chainId },
    );
    const error = await refusal(sender.client.broadcastTxSync(TxRaw.encode(signed).finish()));
    expect(error).toMatchObject({ code: 32, codespace: 'sdk' });
    expect(error.log).toBe(
      `account sequence mismatch, expected ${sequence}, got ${sequence + 5}: incorrect account sequence`,
    );
  });

  it('refuses a fee below gas limit × minimum gas price with code 13', async () => {
    const sender = await wallet(devnet.hub, 4);
    const error = await refusedSend(sender, devnet.hub.accounts[0].address, 'uatom', {
      amount: [{ denom: 'uatom', amount: '999' }],
      gas: '200000',
    });
    expect(error).toMatchObject({ code: 13, codespace: 'sdk' });
    expect(error.log).toBe('insufficient fees; got: 999uatom required: 1000uatom: insufficient fee');
  });

  it('runs out of gas with code 11: refused at CheckTx, or included with the fee taken and nothing sent', async () => {
    const sender = await wallet(devnet.hub, 5);
    const recipient = devnet.hub.accounts[1].address;
    const tooLow = await refusedSend(sender, recipient, 'uatom', fee(devnet.hub, 1_000));
    expect(tooLow).toMatchObject({ code: 11, codespace: 'sdk' });
    expect(tooLow.log).toMatch(/^out of gas in location: .*; gasWanted: 1000, gasUsed: \d+: out of gas$/);

    const client = await reader(devnet.hub);
    const senderBefore = BigInt((await client.getBalance(sender.address, 'uatom')).amount);
    const recipientBefore = BigInt((await client.getBalance(recipient, 'uatom')).amount);
    const paid = fee(devnet.hub, 20_000);
    const result: DeliverTxResponse = await sender.client.sendTokens(
      sender.address,
      recipient,
      [{ denom: 'uatom', amount: '1' }],
      paid,
    );
    expect(result.code).toBe(11);
    expect(result.rawLog).toMatch(/gasWanted: 20000, gasUsed: \d+: out of gas$/);
    expect(BigInt((await client.getBalance(sender.address, 'uatom')).amount)).toBe(
      senderBefore - BigInt(paid.amount[0].amount),
    );
    expect(BigInt((await client.getBalance(recipient, 'uatom')).amount)).toBe(recipientBefore);
  });

  it('refuses a bad signature with code 4 (unauthorized)', async () => {
    const sender = await wallet(devnet.hub, 6);
    const { accountNumber, sequence } = await sender.client.getSequence(sender.address);
    const msgs = [sendMsg(sender.address, devnet.hub.accounts[0].address, 'uatom', '1')];
    const signed = await sender.client.sign(sender.address, msgs, fee(devnet.hub, 200_000), '', {
      accountNumber,
      sequence,
      chainId: devnet.hub.chainId,
    });
    const tampered = TxRaw.fromPartial({
      ...signed,
      signatures: [Uint8Array.from(signed.signatures[0], (b, i) => (i === 10 ? b ^ 1 : b))],
    });
    const error = await refusal(sender.client.broadcastTxSync(TxRaw.encode(tampered).finish()));
    expect(error).toMatchObject({ code: 4, codespace: 'sdk' });
    expect(error.log).toMatch(
      /^signature verification failed; please verify account number \(\d+\) and chain-id \(cosmoshub-devnet\): unauthorized$/,
    );

    // Signed in amino for another chain id: the SDK's log then names the sequence too.
    const amino = await wallet(devnet.hub, 9, 'amino');
    const aminoAccount = await amino.client.getSequence(amino.address);
    const otherChain = await amino.client.sign(
      amino.address,
      [sendMsg(amino.address, devnet.hub.accounts[0].address, 'uatom', '1')],
      fee(devnet.hub, 200_000),
      '',
      { ...aminoAccount, chainId: 'cosmoshub-4' },
    );
    const wrongChain = await refusal(amino.client.broadcastTxSync(TxRaw.encode(otherChain).finish()));
    expect(wrongChain).toMatchObject({ code: 4, codespace: 'sdk' });
    expect(wrongChain.log).toBe(
      `signature verification failed; please verify account number (${aminoAccount.accountNumber}), sequence (${aminoAccount.sequence}) and chain-id (cosmoshub-devnet): unauthorized`,
    );
  });

  it('takes the fee from the granter under its allowance (fee.granter), down to the last token of the grantee', async () => {
    const granter = await wallet(devnet.hub, 7);
    const funder = await wallet(devnet.hub, 8);
    const grantee = await wallet(devnet.hub, 30);
    const recipient = devnet.hub.accounts[2].address;
    const client = await reader(devnet.hub);
    const limit = 100_000n;

    const grant = await granter.client.signAndBroadcast(
      granter.address,
      [
        {
          typeUrl: '/cosmos.feegrant.v1beta1.MsgGrantAllowance',
          value: {
            granter: granter.address,
            grantee: grantee.address,
            allowance: {
              typeUrl: '/cosmos.feegrant.v1beta1.BasicAllowance',
              value: BasicAllowance.encode({
                spendLimit: [{ denom: 'uatom', amount: limit.toString() }],
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
      grantee.address,
      [{ denom: 'uatom', amount: '777' }],
      'auto',
    );
    expect(funded.code).toBe(0);
    const granterBefore = BigInt((await client.getBalance(granter.address, 'uatom')).amount);
    const recipientBefore = BigInt((await client.getBalance(recipient, 'uatom')).amount);

    const paid = fee(devnet.hub, 200_000, { granter: granter.address });
    const sent = await grantee.client.sendTokens(
      grantee.address,
      recipient,
      [{ denom: 'uatom', amount: '777' }],
      paid,
    );

    expect(sent.code).toBe(0);
    const feeAmount = BigInt(paid.amount[0].amount);
    expect((await client.getBalance(grantee.address, 'uatom')).amount).toBe('0');
    expect(BigInt((await client.getBalance(recipient, 'uatom')).amount)).toBe(recipientBefore + 777n);
    expect(BigInt((await client.getBalance(granter.address, 'uatom')).amount)).toBe(
      granterBefore - feeAmount,
    );
    const allowance = await rest(
      devnet.hub,
      `/cosmos/feegrant/v1beta1/allowance/${granter.address}/${grantee.address}`,
    );
    expect(allowance.json.allowance).toMatchObject({
      granter: granter.address,
      grantee: grantee.address,
      allowance: {
        '@type': '/cosmos.feegrant.v1beta1.BasicAllowance',
        spend_limit: [{ denom: 'uatom', amount: (limit - feeAmount).toString() }],
      },
    });

    // A fee over what is left of the allowance, and a granter that granted nothing.
    const overLimit = await refusedSend(
      grantee,
      recipient,
      'uatom',
      fee(devnet.hub, 20_000_000, { granter: granter.address }),
    );
    expect(overLimit).toMatchObject({ code: 2, codespace: 'feegrant' });
    expect(overLimit.log).toBe(
      `${granter.address} does not allow to pay fees for ${grantee.address}: basic allowance: fee limit exceeded`,
    );
    const noGrant = await refusedSend(
      grantee,
      recipient,
      'uatom',
      fee(devnet.hub, 200_000, { granter: funder.address }),
    );
    expect(noGrant).toMatchObject({ code: 38, codespace: 'sdk' });
    expect(noGrant.log).toBe(
      `${funder.address} does not allow to pay fees for ${grantee.address}: fee-grant not found: not found`,
    );
    const noAllowance = await rest(
      devnet.hub,
      `/cosmos/feegrant/v1beta1/allowance/${funder.address}/${grantee.address}`,
    );
    expect(noAllowance).toMatchObject({
      status: 404,
      json: { code: 5, message: 'fee-grant not found: not found' },
    });
  });

  it('takes a tx as explorers and scripts do: REST simulate and broadcast, the RPC in its URI form', async () => {
    const noble = devnet.handle.chains.find((c) => c.manifest.id === 'noble-devnet')!.manifest;
    const sender = await wallet(noble, 4);
    const recipient = noble.accounts[5].address;
    const signed = await sender.client.sign(
      sender.address,
      [sendMsg(sender.address, recipient, 'uusdc', '2500000')],
      fee(noble, 100_000),
      '',
    );
    const txBytes = Buffer.from(TxRaw.encode(signed).finish()).toString('base64');

    const simulated = await rest(noble, '/cosmos/tx/v1beta1/simulate', { tx_bytes: txBytes });
    expect(simulated.status).toBe(200);
    const broadcast = await rest(noble, '/cosmos/tx/v1beta1/txs', {
      tx_bytes: txBytes,
      mode: 'BROADCAST_MODE_SYNC',
    });
    expect(broadcast.json.tx_response).toMatchObject({ code: 0, raw_log: '' });
    const hash: string = broadcast.json.tx_response.txhash;
    expect(hash).toBe(
      createHash('sha256').update(Buffer.from(txBytes, 'base64')).digest('hex').toUpperCase(),
    );
    const again = await rest(noble, '/cosmos/tx/v1beta1/txs', {
      tx_bytes: txBytes,
      mode: 'BROADCAST_MODE_SYNC',
    });
    expect(again.json.tx_response.code).not.toBe(0);

    const included = await waitFor(async () => {
      const { status, json } = await rest(noble, `/cosmos/tx/v1beta1/txs/${hash}`);
      return status === 200 ? json : undefined;
    });
    expect(included.tx_response).toMatchObject({
      code: 0,
      txhash: hash,
      gas_used: simulated.json.gas_info.gas_used,
    });
    const uri = (await (await fetch(`${noble.rpc}/tx?hash=0x${hash}`)).json()) as Record<string, any>;
    expect(uri.result).toMatchObject({ hash, height: included.tx_response.height, tx_result: { code: 0 } });
    const status = (await (await fetch(`${noble.rpc}/status`)).json()) as Record<string, any>;
    expect(status.result.node_info.network).toBe('noble-devnet');
    expect(Number(status.result.sync_info.latest_block_height)).toBeGreaterThanOrEqual(
      Number(uri.result.height),
    );
  });

  it('answers bad input with the SDK codes, never failing the chain', async () => {
    const garbage = await rest(devnet.hub, '/cosmos/tx/v1beta1/txs', {
      tx_bytes: Buffer.from('not a tx').toString('base64'),
      mode: 'BROADCAST_MODE_SYNC',
    });
    expect(garbage.status).toBe(200);
    expect(garbage.json.tx_response).toMatchObject({ code: 2, codespace: 'sdk' });
    const missing = await rest(
      devnet.hub,
      '/cosmos/auth/v1beta1/accounts/cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a',
    );
    expect(missing).toMatchObject({ status: 404, json: { code: 5 } });
    const badAddress = await rest(devnet.hub, '/cosmos/bank/v1beta1/balances/osmo1nope');
    expect(badAddress.status).toBe(400);
    const client = await reader(devnet.hub);
    expect(await client.getAccount('cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a')).toBeNull();
    expect(await client.getHeight()).toBeGreaterThan(0);
  });
});

function sendMsg(from: string, to: string, denom: string, amount: string) {
  return {
    typeUrl: '/cosmos.bank.v1beta1.MsgSend',
    value: { fromAddress: from, toAddress: to, amount: [{ denom, amount }] },
  };
}
