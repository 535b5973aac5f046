import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { base64 } from '@scure/base';
import type { RouteLeg } from '@swapgw/contracts';
import {
  type CosmosDevnetChainManifest,
  type CosmosDevnetHandle,
  DEVNET_MNEMONIC,
  startCosmosDevnet,
} from '@swapgw/devnet';
import { BasicAllowance } from 'cosmjs-types/cosmos/feegrant/v1beta1/feegrant';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { cosmosAddressOfPubkey } from './cosmos-address';
import { ibcVoucherDenom, ics20EscrowAddress } from './cosmos-denoms';
import { ibcSwapOnArrivalMsg, osmosisSwapMsg } from './cosmos-route-msgs';
import { buildCosmosSignDoc, type CosmosMsgJson, type CosmosSignDirectPayload } from './cosmos-sign-doc';
import { verifySignedCosmosTx } from './cosmos-signed-tx';
import { CosmosStatusClient } from './cosmos-status-client';

const GAS_LIMIT = 400_000n;

/**
 * A Cosmos route's one signature against the devnet's chains, as a wallet holding only the coin it
 * swaps goes through it: the messages built from the route's legs (an IBC transfer with the
 * crosschain-swaps `wasm` memo, an Osmosis MsgSwapExactAmountIn), the SignDoc with the service's fee
 * granter as `fee.granter`, signed by an unmodified cosmjs DIRECT wallet, verified, broadcast, and
 * the balances read on both chains: the wallet loses exactly what it swaps and receives exactly what
 * Osmosis estimated.
 */
describe('Cosmos route messages on the local Cosmos devnet (fee granted, one signature)', () => {
  let devnet: CosmosDevnetHandle;
  let hub: CosmosDevnetChainManifest;
  let osmosis: CosmosDevnetChainManifest;
  const clients: StargateClient[] = [];

  beforeAll(async () => {
    devnet = await startCosmosDevnet({ standardPorts: false, blockMs: 300 });
    hub = devnet.chains.find((c) => c.manifest.id === 'cosmoshub-devnet')!.manifest;
    osmosis = devnet.chains.find((c) => c.manifest.id === 'osmosis-devnet')!.manifest;
  });
  afterAll(async () => {
    clients.forEach((c) => c.disconnect());
    await devnet?.stop();
  });

  const osmosisAtom = () => ibcVoucherDenom(`transfer/${osmosis.ibcChannels['cosmoshub-devnet']}/uatom`);
  const osmosisUsdc = () => ibcVoucherDenom(`transfer/${osmosis.ibcChannels['noble-devnet']}/uusdc`);

  async function reader(chain: CosmosDevnetChainManifest): Promise<StargateClient> {
    const client = await StargateClient.connect(chain.rpc);
    clients.push(client);
    return client;
  }
  const balance = async (chain: CosmosDevnetChainManifest, address: string, denom: string) =>
    BigInt((await (await reader(chain)).getBalance(address, denom)).amount);

  /** A funded test wallet through an unmodified cosmjs client (the service's granter, a funder). */
  async function testWallet(chain: CosmosDevnetChainManifest, index: number) {
    const signer = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
      prefix: chain.bech32Prefix,
      hdPaths: [makeCosmoshubPath(index)],
    });
    const [{ address }] = await signer.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(chain.rpc, signer, {
      gasPrice: GasPrice.fromString(chain.minGasPrice),
      broadcastPollIntervalMs: 100,
    });
    clients.push(client);
    return { address, client };
  }

  /** A fresh wallet (Keplr's DIRECT signer) holding exactly `amount` of `denom`, its fees granted. */
  async function walletHoldingOnly(chain: CosmosDevnetChainManifest, denom: string, amount: bigint) {
    const wallet = await DirectSecp256k1HdWallet.generate(12, { prefix: chain.bech32Prefix });
    const [user] = await wallet.getAccounts();
    const granter = await testWallet(chain, 7);
    const funder = await testWallet(chain, 8);
    const grant = await granter.client.signAndBroadcast(
      granter.address,
      [
        {
          typeUrl: '/cosmos.feegrant.v1beta1.MsgGrantAllowance',
          value: {
            granter: granter.address,
            grantee: user.address,
            allowance: {
              typeUrl: '/cosmos.feegrant.v1beta1.BasicAllowance',
              value: BasicAllowance.encode({ spendLimit: [] }).finish(),
            },
          },
        },
      ],
      'auto',
    );
    expect(grant.code).toBe(0);
    const funded = await funder.client.sendTokens(
      funder.address,
      user.address,
      [{ denom, amount: amount.toString() }],
      'auto',
    );
    expect(funded.code).toBe(0);
    return { wallet, user, granter: granter.address };
  }

  /** Osmosis's own estimate of a route, over REST as a front end reads it. */
  async function estimate(tokenIn: string, poolId: string, outDenom: string): Promise<bigint> {
    const response = await fetch(
      `${osmosis.rest}/osmosis/poolmanager/v1beta1/${poolId}/estimate/swap_exact_amount_in_with_primitive_types?token_in=${tokenIn}&routes_pool_id=${poolId}&routes_token_out_denom=${encodeURIComponent(outDenom)}`,
    );
    return BigInt(((await response.json()) as { token_out_amount: string }).token_out_amount);
  }

  /** The SignDoc the gateway issues: account number and sequence from the chain, the granter pays. */
  async function issue(
    chain: CosmosDevnetChainManifest,
    user: { address: string; pubkey: Uint8Array },
    granter: string,
    msg: CosmosMsgJson,
  ): Promise<CosmosSignDirectPayload> {
    const account = await (await reader(chain)).getAccount(user.address);
    if (!account) throw new Error(`${user.address} has no account`);
    const price = GasPrice.fromString(chain.minGasPrice);
    const built = buildCosmosSignDoc({
      chainId: chain.chainId,
      bech32Prefix: chain.bech32Prefix,
      signerAddress: user.address,
      signerPubkey: account.pubkey?.value ?? base64.encode(user.pubkey),
      accountNumber: String(account.accountNumber),
      sequence: String(account.sequence),
      msgs: [msg],
      gasLimit: GAS_LIMIT.toString(),
      fee: [
        {
          denom: chain.nativeDenom,
          amount: String(Math.ceil(Number(GAS_LIMIT) * Number(price.amount.toString()))),
        },
      ],
      feeGranter: granter,
    });
    if (built.kind !== 'ready') throw new Error(built.reason);
    return built.payload;
  }

  /** The wallet signs the issued SignDoc as Keplr's signDirect does; verified and broadcast; confirmed. */
  async function signAndSend(
    chain: CosmosDevnetChainManifest,
    wallet: DirectSecp256k1HdWallet,
    payload: CosmosSignDirectPayload,
  ) {
    const { signed, signature } = await wallet.signDirect(payload.signerAddress, {
      bodyBytes: base64.decode(payload.signDoc.bodyBytes),
      authInfoBytes: base64.decode(payload.signDoc.authInfoBytes),
      chainId: payload.signDoc.chainId,
      accountNumber: BigInt(payload.signDoc.accountNumber),
    });
    const rawTx = base64.encode(
      TxRaw.encode({
        bodyBytes: signed.bodyBytes,
        authInfoBytes: signed.authInfoBytes,
        signatures: [base64.decode(signature.signature)],
      }).finish(),
    );
    const verified = verifySignedCosmosTx(payload, rawTx);
    const status = new CosmosStatusClient({ id: chain.id, rpcUrl: chain.rpc }, 5_000);
    expect(await status.broadcastTxSync(rawTx)).toEqual({ kind: 'sent' });
    for (let attempt = 0; attempt < 60; attempt++) {
      const result = await status.transactionStatus(verified.hash).catch(() => null);
      if (result && result.status !== 'pending') return result;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${verified.hash} never landed`);
  }

  it('ATOM on the Hub → OSMO: one MsgTransfer with the wasm memo; the wallet loses exactly its ATOM, receives what Osmosis estimated', async () => {
    const amount = 3_000_000n;
    const { wallet, user, granter } = await walletHoldingOnly(hub, 'uatom', amount);
    const receiver = cosmosAddressOfPubkey('osmo', user.pubkey);
    const expected = await estimate(`${amount}${osmosisAtom()}`, '1', 'uosmo');
    const transfer = {
      kind: 'bridge',
      chain: hub.id,
      provider: 'ibc',
      tokenIn: { chain: hub.id, symbol: 'ATOM', address: 'uatom', decimals: 6 },
      tokenOut: { chain: osmosis.id, symbol: 'ATOM', address: osmosisAtom(), decimals: 6 },
      amountIn: amount.toString(),
      expectedAmountOut: amount.toString(),
      minAmountOut: amount.toString(),
      spender: ics20EscrowAddress('cosmos', hub.ibcChannels[osmosis.id]),
      destinationChain: osmosis.id,
      estimatedDurationSeconds: 10,
    } as RouteLeg;
    const swap = {
      kind: 'swap',
      chain: osmosis.id,
      provider: 'osmosis',
      tokenIn: transfer.tokenOut,
      tokenOut: { chain: osmosis.id, symbol: 'OSMO', address: 'uosmo', decimals: 6 },
      amountIn: amount.toString(),
      expectedAmountOut: expected.toString(),
      minAmountOut: ((expected * 9_950n) / 10_000n).toString(),
      spender: osmosis.crosschainSwapsContract as string,
      path: [osmosisAtom(), 'uosmo'],
      estimatedDurationSeconds: 5,
    } as RouteLeg;
    const msg = ibcSwapOnArrivalMsg({
      transfer,
      swap,
      sourceChannel: hub.ibcChannels[osmosis.id],
      sender: user.address,
      receiver,
      recoveryAddress: receiver,
      timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n,
    });
    const payload = await issue(hub, user, granter, msg);
    expect(payload.msgs).toEqual([msg]);
    const escrow = ics20EscrowAddress('cosmos', hub.ibcChannels[osmosis.id]);
    const escrowBefore = await balance(hub, escrow, 'uatom');

    expect(await signAndSend(hub, wallet, payload)).toMatchObject({ status: 'confirmed' });
    expect(await balance(hub, user.address, 'uatom')).toBe(0n);
    expect(await balance(hub, escrow, 'uatom')).toBe(escrowBefore + amount);
    let received = 0n;
    for (let attempt = 0; attempt < 100 && received === 0n; attempt++) {
      received = await balance(osmosis, receiver, 'uosmo');
      if (received === 0n) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(received).toBe(expected);
  });

  it('OSMO → USDC on Osmosis: MsgSwapExactAmountIn signed as issued; exactly the estimate, fees by the granter', async () => {
    const amount = 5_000_000n;
    const { wallet, user, granter } = await walletHoldingOnly(osmosis, 'uosmo', amount);
    const expected = await estimate(`${amount}uosmo`, '3', osmosisUsdc());
    const swap = {
      kind: 'swap',
      chain: osmosis.id,
      provider: 'osmosis',
      tokenIn: { chain: osmosis.id, symbol: 'OSMO', address: 'uosmo', decimals: 6 },
      tokenOut: { chain: osmosis.id, symbol: 'USDC', address: osmosisUsdc(), decimals: 6 },
      amountIn: amount.toString(),
      expectedAmountOut: expected.toString(),
      minAmountOut: expected.toString(),
      spender: 'pool',
      path: ['uosmo', osmosisUsdc()],
      estimatedDurationSeconds: 5,
    } as RouteLeg;
    const msg = osmosisSwapMsg({
      swap,
      sender: user.address,
      routes: [{ poolId: '3', tokenOutDenom: osmosisUsdc() }],
    });
    const payload = await issue(osmosis, user, granter, msg);
    // Ledger users get the amino form of the swap too.
    expect(payload.aminoSignDoc?.msgs).toEqual([
      {
        type: 'osmosis/poolmanager/swap-exact-amount-in',
        value: {
          sender: user.address,
          routes: [{ pool_id: '3', token_out_denom: osmosisUsdc() }],
          token_in: { denom: 'uosmo', amount: amount.toString() },
          token_out_min_amount: expected.toString(),
        },
      },
    ]);

    expect(await signAndSend(osmosis, wallet, payload)).toMatchObject({ status: 'confirmed' });
    expect(await balance(osmosis, user.address, 'uosmo')).toBe(0n);
    expect(await balance(osmosis, user.address, osmosisUsdc())).toBe(expected);
  });
});
