import { makeCosmoshubPath, Secp256k1HdWallet } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { base64 } from '@scure/base';
import { DEVNET_MNEMONIC, type CosmosDevnetChainManifest } from '@swapgw/devnet';
import { cosmosSigner, createGatewayClient, type QuoteRoute, runSwap } from '@swapgw/sdk';
import { waitFor } from '@swapgw/testing';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { parseUnits } from 'ethers';
import { hubWalletHoldingOnly, signDocOf, devnetCosmosChain } from './support/cosmos-wallets';
import { connectE2eApi, type E2eApi } from './support/e2e-api';

// A Cosmos swap through the running stack (gateway → quote-service → execution-planner →
// signer-surface → the devnet's Hub and Osmosis): ATOM on the Hub for OSMO on Osmosis, one IBC
// transfer whose memo swaps on arrival, its fee paid by the service's fee granter (x/feegrant; its key
// handed to signer-surface from the devnet manifest as COSMOS_FEE_GRANTER_KEYS, tools/stack/lib.mjs).
// The wallet holds only the ATOM it swaps: it loses exactly that, and its Osmosis address gets the OSMO.
const chainOf = devnetCosmosChain;
const hub = chainOf('cosmoshub-devnet');
const osmosis = chainOf('osmosis-devnet');
const AMOUNT = 1_000_000n; // 1 ATOM

describe('Cosmos swaps: ATOM → OSMO, fee granted', () => {
  let e2e: E2eApi;
  const readers: StargateClient[] = [];
  const signers: SigningStargateClient[] = [];

  beforeAll(async () => {
    e2e = await connectE2eApi('swap-cosmos-e2e');
  });
  afterAll(() => {
    readers.forEach((c) => c.disconnect());
    signers.forEach((c) => c.disconnect());
  });

  const balance = async (chain: CosmosDevnetChainManifest, address: string, denom: string) => {
    const reader = await StargateClient.connect(chain.rpc);
    readers.push(reader);
    return BigInt((await reader.getBalance(address, denom)).amount);
  };

  /** A fresh Keplr-like wallet (DIRECT) on the Hub, holding exactly AMOUNT uatom and no other coin. */
  const walletHoldingOnlyAtom = () => hubWalletHoldingOnly(hub, AMOUNT, 8, (c) => signers.push(c));

  it('runSwap with cosmosSigner: the wallet loses exactly 1 ATOM, no fee; its Osmosis address receives at least the minimum; the quote priced the fee the granter paid', async () => {
    const { wallet, user, receiver, publicKey } = await walletHoldingOnlyAtom();
    const client = createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey });
    let minAmountOut = '';
    let gasCoverage: QuoteRoute['gasCoverage'] | undefined;
    const result = await runSwap({
      client,
      quoteRequest: {
        fromChain: hub.id,
        toChain: osmosis.id,
        tokenIn: 'ATOM',
        tokenOut: 'OSMO',
        amount: '1',
      },
      route: (routes) => routes.find((route) => route.providers.includes('osmosis')),
      userAddress: user.address,
      build: { gasPayment: 'user', recipient: receiver, userPublicKey: publicKey },
      signers: [cosmosSigner(wallet)],
      timeoutMs: 120_000,
      onEvent: (event) => {
        if (event.type === 'quoted') {
          minAmountOut = event.route.minAmountOut;
          gasCoverage = event.route.gasCoverage;
        }
      },
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    expect(result.swap.steps).toHaveLength(1);
    expect(result.swap.steps[0]).toMatchObject({ status: 'confirmed', txHash: result.submitted[0].txHash });
    // The transfer's hash as the Hub names it, and its packet as the chains' events tell it: received
    // on Osmosis (the swap on arrival ran there) and acknowledged back on the Hub before the swap completed.
    const [step] = result.swap.steps;
    expect(step.txHash).toMatch(/^[0-9A-F]{64}$/);
    expect(step.packet).toMatchObject({
      state: 'acknowledged',
      sourceChannel: hub.ibcChannels[osmosis.id],
      destinationChain: osmosis.id,
      destinationChannel: osmosis.ibcChannels[hub.id],
      acknowledgementError: null,
      refunded: false,
    });
    expect(step.packet?.receivedTxHash).toMatch(/^[0-9A-F]{64}$/);
    expect(step.packet?.settledTxHash).toMatch(/^[0-9A-F]{64}$/);
    const osmosisReader = await StargateClient.connect(osmosis.rpc);
    readers.push(osmosisReader);
    const recvTx = await osmosisReader.getTx(step.packet!.receivedTxHash!);
    expect(recvTx?.events.some((e) => e.type === 'recv_packet')).toBe(true);

    // The quote's gasCoverage priced the Hub's step at the Hub's minimum gas price, in uatom: the
    // grant the granter may send first and the transfer's fee; the swap on arrival costs nothing.
    expect(gasCoverage?.chains.map((c) => c.chain)).toEqual([hub.id, osmosis.id]);
    const [onHub, onOsmosis] = gasCoverage!.chains;
    expect(onHub).toMatchObject({ nativeSymbol: 'ATOM', nativeDecimals: 6, gasPrice: hub.minGasPrice });
    expect(onHub.breakdown.map((item) => [item.kind, item.leg])).toEqual([
      ['cosmos-fee-grant', 0],
      ['cosmos-transaction', 0],
    ]);
    const priced = onHub.breakdown.reduce((sum, item) => sum + BigInt(item.estimatedCostBaseUnits), 0n);
    expect(BigInt(onHub.estimatedCostBaseUnits)).toBe(priced);
    expect(onOsmosis).toMatchObject({ estimatedCostBaseUnits: '0', breakdown: [] });
    // What the granter paid for the transfer (its fee, the granter named) is within what was quoted for it.
    const hubReader = await StargateClient.connect(hub.rpc);
    readers.push(hubReader);
    const sent = await hubReader.getTx(step.txHash!);
    const { fee } = AuthInfo.decode(TxRaw.decode(sent!.tx).authInfoBytes);
    expect(fee?.granter).toMatch(/^cosmos1/);
    const [paid] = fee!.amount;
    expect(paid.denom).toBe('uatom');
    expect(BigInt(paid.amount)).toBeGreaterThan(0n);
    expect(BigInt(paid.amount)).toBeLessThanOrEqual(BigInt(onHub.breakdown[1].estimatedCostBaseUnits));

    expect(await balance(hub, user.address, 'uatom')).toBe(0n);
    // What the quote guaranteed (OSMO, 6 decimals), the memo's min_output_amount.
    const minOut = parseUnits(minAmountOut, 6);
    expect(minOut).toBeGreaterThan(0n);
    const received = await waitFor(
      async () => {
        const got = await balance(osmosis, receiver, 'uosmo');
        return got > 0n ? got : null;
      },
      { timeoutMs: 60_000, description: 'the OSMO swapped on arrival' },
    );
    expect(received).toBeGreaterThanOrEqual(minOut);
  });

  it('OSMO → USDC on Osmosis, signed by a Ledger-style amino wallet: MsgSwapExactAmountIn over the quoted pool; the wallet loses exactly its 5 OSMO', async () => {
    const amount = 5_000_000n;
    const wallet = await Secp256k1HdWallet.generate(12, { prefix: 'osmo' });
    const [user] = await wallet.getAccounts();
    const funderSigner = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
      prefix: 'osmo',
      hdPaths: [makeCosmoshubPath(8)],
    });
    const [funder] = await funderSigner.getAccounts();
    const funding = await SigningStargateClient.connectWithSigner(osmosis.rpc, funderSigner, {
      gasPrice: GasPrice.fromString(osmosis.minGasPrice),
      broadcastPollIntervalMs: 100,
    });
    signers.push(funding);
    const sent = await funding.sendTokens(
      funder.address,
      user.address,
      [{ denom: 'uosmo', amount: amount.toString() }],
      'auto',
    );
    expect(sent.code).toBe(0);
    let minAmountOut = '';
    const result = await runSwap({
      client: createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey }),
      quoteRequest: {
        fromChain: osmosis.id,
        toChain: osmosis.id,
        tokenIn: 'OSMO',
        tokenOut: 'USDC',
        amount: '5',
      },
      route: (routes) => routes.find((route) => route.providers.includes('osmosis')),
      userAddress: user.address,
      build: { gasPayment: 'user', userPublicKey: Buffer.from(user.pubkey).toString('hex') },
      signers: [cosmosSigner(wallet, { mode: 'amino' })],
      timeoutMs: 120_000,
      onEvent: (event) => {
        if (event.type === 'quoted') minAmountOut = event.route.minAmountOut;
      },
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    // A swap on Osmosis sends no packet: nothing to follow after its transaction.
    expect(result.swap.steps[0].packet).toBeNull();
    expect(await balance(osmosis, user.address, 'uosmo')).toBe(0n);
    const reader = await StargateClient.connect(osmosis.rpc);
    readers.push(reader);
    const held = await reader.getAllBalances(user.address);
    expect(held).toHaveLength(1);
    expect(held[0].denom).toMatch(/^ibc\//);
    expect(BigInt(held[0].amount)).toBeGreaterThanOrEqual(parseUnits(minAmountOut, 6));
  });

  it('refuses a tampered (409 TX_REQUEST_MISMATCH), foreign-signed (409) and garbage (400 INVALID_SIGNED_TX) rawTx, then takes the one signed as issued', async () => {
    const { wallet, user, receiver, publicKey } = await walletHoldingOnlyAtom();
    const { client, openApi } = e2e;
    const quoted = await client.post('/quote', {
      fromChain: hub.id,
      toChain: osmosis.id,
      tokenIn: 'ATOM',
      tokenOut: 'OSMO',
      amount: '1',
    });
    expect(quoted.status).toBe(200);
    const route = quoted.body.data.routes.find((r: { providers: string[] }) =>
      r.providers.includes('osmosis'),
    );
    const built = await client.post('/swap/build', {
      quoteId: quoted.body.data.quoteId,
      routeId: route.routeId,
      userAddress: user.address,
      userPublicKey: publicKey,
      recipient: receiver,
      gasPayment: 'user',
    });
    expect([200, 202]).toContain(built.status);
    const swapId = built.body.data.swapId as string;
    const ready = await waitFor(
      async () => {
        const polled = await client.get(`/swap/${swapId}/signing`);
        return polled.status === 200 && polled.body.data.signing?.payload ? polled : null;
      },
      { timeoutMs: 60_000, description: 'the Cosmos payload' },
    );
    openApi.assertResponse('GET', `/swap/${swapId}/signing`, ready.status, ready.body);
    const payload = ready.body.data.signing.payload;
    expect(payload).toMatchObject({ type: 'cosmos-sign-direct', signerAddress: user.address });
    expect(payload.aminoSignDoc.fee.granter).toMatch(/^cosmos1/);

    const signDoc = signDocOf(payload.signDoc);
    const { signed, signature } = await wallet.signDirect(user.address, signDoc);
    const raw = {
      bodyBytes: signed.bodyBytes,
      authInfoBytes: signed.authInfoBytes,
      signatures: [base64.decode(signature.signature)],
    };
    const submit = (rawTx: string) => client.post(`/swap/${swapId}/signing`, { rawTx });

    const tampered = TxBody.encode({ ...TxBody.decode(raw.bodyBytes), memo: 'pay me instead' }).finish();
    const refusedTampered = await submit(
      base64.encode(TxRaw.encode({ ...raw, bodyBytes: tampered }).finish()),
    );
    expect([refusedTampered.status, refusedTampered.body.error.code]).toEqual([409, 'TX_REQUEST_MISMATCH']);

    const foreign = await DirectSecp256k1HdWallet.generate(12, { prefix: 'cosmos' });
    const [other] = await foreign.getAccounts();
    const foreignSigned = await foreign.signDirect(other.address, signDoc);
    const refusedForeign = await submit(
      base64.encode(
        TxRaw.encode({ ...raw, signatures: [base64.decode(foreignSigned.signature.signature)] }).finish(),
      ),
    );
    expect([refusedForeign.status, refusedForeign.body.error.code]).toEqual([409, 'TX_REQUEST_MISMATCH']);

    const garbage = await submit('Cgdnarbage==');
    expect([garbage.status, garbage.body.error.code]).toEqual([400, 'INVALID_SIGNED_TX']);

    const accepted = await submit(base64.encode(TxRaw.encode(raw).finish()));
    expect(accepted.status).toBe(200);
    const done = await waitFor(
      async () => {
        const read = await client.get(`/swap/${swapId}`);
        return read.body.data.status === 'completed' || read.body.data.status === 'failed' ? read : null;
      },
      { timeoutMs: 60_000, description: 'the swap completed' },
    );
    expect(done.body.data.status).toBe('completed');
    expect(await balance(hub, user.address, 'uatom')).toBe(0n);
  });
});
