import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { Keypair } from '@solana/web3.js';
import { getAddress, HDNodeWallet, Interface, parseUnits, TransactionRequest, Wallet } from 'ethers';
import { BITCOIN_NETWORKS, parseThorchainSwapMemo } from '@swapgw/chains/bitcoin-bridge';
import { bitcoinDevnetKey, EsploraClient } from '@swapgw/devnet';
import {
  BitcoinWallet,
  bitcoinWalletOf,
  DevnetBitcoinWallets,
  offeredPsbt,
  PsbtPayload,
  signPsbt as signWithWallet,
  unisatWalletOf,
  WalletAddressKind,
} from '../support/bitcoin-wallets';
import { createGatewayClient, runSwap, unisatSigner } from '@swapgw/sdk';
import { e2eGatewayUrl, waitFor } from '@swapgw/testing';
import { btcForUsdcOnA } from '../support/bitcoin-swaps';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import { openSseStream } from '../support/sse-client';
import {
  buildSwapId,
  expectedOutBaseUnits,
  firstPayment,
  handleEveryStep,
  nextSigning as nextSigningOf,
  quoteFirstRoute,
  signableTransaction,
  submitSigned,
} from '../support/swap-steps';

// Native Bitcoin through the spec's flow: a wallet signs a PSBT (BIP174) in which the service's fee
// wallet adds an input that pays the whole miner fee, so the wallet's BTC drops by exactly the
// amount swapped; THORChain (the devnet's local THORNode over the bridge's vault) swaps it for USDC
// on devnet-a: a payment to its inbound address with THORChain's swap memo as OP_RETURN. BTC to and
// from Solana, which THORChain does not serve, has no route (the devnet bridge's Bitcoin end reaches
// Noble only, docs/chains.md). The other way, USDC on devnet-a
// goes through THORChain's router too: a wallet with USDC and no ETH sends the two transactions
// THORChain documents (approve the router, depositWithExpiry to the vault with the swap memo), the
// service covering their gas, and BTC arrives at its bcrt1 (or 2…) address.
const devnet = new DevnetEvm();
const manifest = devnet.manifest as typeof devnet.manifest & {
  bitcoin: { esploraUrl: string; bridge: { vault: string; outboundFeeSats: number } };
};
const providerA = devnet.provider('devnet-a');
const tokenOnA = (symbol: string, runner?: HDNodeWallet) => devnet.token('devnet-a', symbol, runner);
const balanceOnA = (symbol: string, holder: string) => devnet.balanceOf('devnet-a', symbol, holder);
const esplora = new EsploraClient(manifest.bitcoin.esploraUrl);
const REGTEST = BITCOIN_NETWORKS.regtest;
const ERC20 = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);
const THORCHAIN_ROUTER = new Interface([
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
]);

/** Funders (e2e files run one at a time): EVM account 7, Bitcoin test wallet 7. */
const evmFunder = () => devnet.account(7).connect(providerA);
const btcFunder = () => bitcoinDevnetKey('wallet', 7);

describe('native Bitcoin: BTC out and USDC into Bitcoin through THORChain, the miner fee paid by the service', () => {
  let api: E2eApi;

  beforeAll(async () => {
    api = await connectE2eApi('bitcoin-e2e');
  });

  afterAll(() => devnet.destroy());

  const bitcoin = new DevnetBitcoinWallets(esplora, btcFunder);
  const satsOf = (address: string) => bitcoin.satsOf(address);
  const confirmed = (txid: string) => bitcoin.confirmed(txid);
  const freshBitcoinWalletWith = (sats: bigint, kind?: WalletAddressKind) =>
    bitcoin.freshWalletWith(sats, kind);
  const signPsbt = (payload: PsbtPayload, wallet: BitcoinWallet) =>
    Buffer.from(signWithWallet(payload, wallet).toPSBT()).toString('base64');

  /** A new EVM wallet holding `amount` USDC on devnet-a and no ETH. */
  async function freshEvmWalletWith(amount: bigint): Promise<Wallet> {
    const wallet = Wallet.createRandom();
    if (amount > 0n)
      await (await tokenOnA('USDC', evmFunder()).getFunction('transfer')(wallet.address, amount)).wait();
    return wallet as unknown as Wallet;
  }

  async function quoteAndBuild(
    body: Record<string, unknown>,
    userAddress: string,
    recipient: string,
    userPublicKey?: string,
  ) {
    const { quoteId, route } = await quoteFirstRoute<{
      routeId: string;
      expectedAmountOut: string;
      minAmountOut: string;
      tokenOutDecimals: number;
      providers: string[];
      signatures: { chain: string; kind: string; payloadType: string }[];
      gasCoverage: { chains: { chain: string; breakdown: { kind: string }[] }[] };
    }>(api, body);
    const swapId = await buildSwapId(api, {
      quoteId,
      routeId: route.routeId,
      userAddress,
      ...(userPublicKey !== undefined ? { userPublicKey } : {}),
      recipient,
      waitForTxRequestMs: 20_000,
    });
    return { swapId, route };
  }

  /** THORNode's inbound_addresses entry of devnet-a (THORChain's `ETH` on the devnet): its vault and router. */
  async function thorchainEntryOfA(): Promise<{ address: string; router: string }> {
    const url = (manifest.bitcoin as { bridge: { thornode?: { url: string } } }).bridge.thornode!.url;
    const entries = (await (await fetch(`${url}/thorchain/inbound_addresses`)).json()) as {
      chain: string;
      address: string;
      router: string;
    }[];
    return entries.find((entry) => entry.chain === 'ETH')!;
  }

  /**
   * USDC into Bitcoin through THORChain: the wallet (no ETH) signs the two transactions the swap
   * offers, the service sending each one's gas first: the approve of THORChain's router and the
   * router's depositWithExpiry crediting the vault with THORChain's memo, whose arguments are checked
   * against THORNode's inbound_addresses, the recipient and the route's minimum (the memo's limit).
   */
  async function depositThroughThorchainRouter(
    swapId: string,
    wallet: Wallet,
    recipient: string,
    route: { minAmountOut: string },
    /** Called once the deposit (the second step) was submitted, before the swap may end. */
    deposited: () => Promise<void> = async () => undefined,
  ): Promise<void> {
    const entry = await thorchainEntryOfA();
    const signed: TransactionRequest[] = [];
    await handleEveryStep(api, swapId, async (signing) => {
      expect(signing.executionHints).toMatchObject({
        gasPaidBy: 'service',
        gasCoveredWei: expect.any(String),
      });
      const transaction = signableTransaction(signing);
      signed.push(transaction);
      const submitted = await submitSigned(
        api,
        swapId,
        await wallet.connect(providerA).signTransaction(transaction),
      );
      expect(submitted.status).toBe(200);
      if (signing.step.current === 2) await deposited();
    });
    expect(signed).toHaveLength(2);
    const [approve, deposit] = signed;
    const usdc = await tokenOnA('USDC').getAddress();
    expect(getAddress(String(approve.to))).toBe(usdc);
    const [spender] = ERC20.decodeFunctionData('approve', String(approve.data));
    expect(getAddress(spender as string)).toBe(getAddress(entry.router));
    expect(getAddress(String(deposit.to))).toBe(getAddress(entry.router));
    const [vault, asset, amount, memo] = THORCHAIN_ROUTER.decodeFunctionData(
      'depositWithExpiry',
      String(deposit.data),
    );
    expect(getAddress(vault as string)).toBe(getAddress(entry.address));
    expect(asset).toBe(usdc);
    expect(amount).toBeGreaterThan(0n);
    expect(parseThorchainSwapMemo(memo as string)).toMatchObject({
      asset: 'BTC.BTC',
      destination: recipient,
      limit: parseUnits(route.minAmountOut, 8),
    });
  }

  it('BTC → USDC on devnet-a: one PSBT signed by the wallet, its miner fee paid by the service; BTC drops by exactly the amount, the recipient gets the quote', async () => {
    const wallet = await freshBitcoinWalletWith(5_000_000n);
    const recipient = await freshEvmWalletWith(0n);
    const before = await satsOf(wallet.address);
    expect(before).toBe(5_000_000n);

    const { swapId, route } = await quoteAndBuild(
      {
        fromChain: 'bitcoin-devnet',
        toChain: 'devnet-a',
        tokenIn: 'BTC',
        tokenOut: 'USDC',
        amount: '0.01',
        recipient: recipient.address,
      },
      wallet.address,
      recipient.address,
    );
    expect(route.providers).toEqual(['thorchain']);
    expect(route.signatures).toEqual([
      expect.objectContaining({ chain: 'bitcoin-devnet', kind: 'bridge', payloadType: 'bitcoin-psbt' }),
    ]);
    expect(route.gasCoverage.chains[0]).toMatchObject({
      chain: 'bitcoin-devnet',
      breakdown: [expect.objectContaining({ kind: 'bitcoin-transaction' })],
    });

    const ready = await nextSigningOf(api, swapId, 0);
    expect(ready.status).toBe(200);
    const { signing } = ready.body.data;
    expect(signing.step).toEqual({ current: 1, total: 1 });
    // The wallet's one UTXO and the fee wallet's; the payment to the vault carries the memo.
    const { payload, issued } = offeredPsbt(signing, wallet.address, 'regtest');
    const vault = btc.OutScript.encode(btc.Address(REGTEST).decode(manifest.bitcoin.bridge.vault));
    expect(Buffer.from(issued.getOutput(0).script!).equals(Buffer.from(vault))).toBe(true);
    expect(issued.getOutput(0).amount).toBe(1_000_000n);
    // THORChain's swap memo: devnet-a is THORChain's `ETH` on the devnet, the USDC contract shortened
    // to its last digits to fit 80 bytes, the limit the route's minimum out in 1e8 units.
    const memo = Buffer.from(issued.getOutput(1).script!.subarray(2)).toString('utf8');
    const usdcContract = (await tokenOnA('USDC').getAddress()).toUpperCase();
    expect(parseThorchainSwapMemo(memo)).toMatchObject({
      asset: expect.stringMatching(/^ETH\.USDC-[0-9A-F]+$/),
      destination: recipient.address,
      limit:
        parseUnits(route.minAmountOut, route.tokenOutDecimals) * 10n ** BigInt(8 - route.tokenOutDecimals),
    });
    expect(usdcContract.endsWith(parseThorchainSwapMemo(memo)!.asset.split('-')[1])).toBe(true);

    const signed = signPsbt(payload, wallet);
    const submitted = await submitSigned(api, swapId, signed);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ swapId, status: 'submitted', txHash: issued.id });
    // The same signed PSBT again answers the same transaction.
    const again = await submitSigned(api, swapId, signed);
    expect(again.status).toBe(200);
    expect(again.body.data.txHash).toBe(issued.id);

    const terminal = await nextSigningOf(api, swapId, 1);
    expect(terminal.status).toBe(409);
    expect(terminal.body.error).toMatchObject({
      code: 'EXECUTION_TERMINAL',
      details: { status: 'completed' },
    });
    const status = await api.client.get(`/status/transaction/${issued.id}?chainRef=bitcoin-devnet`);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'confirmed' });
    const read = await api.client.get(`/swap/${swapId}`);
    expect(read.status).toBe(200);
    expect(read.body.data.steps).toEqual([
      expect.objectContaining({
        chain: 'bitcoin-devnet',
        kind: 'bridge',
        status: 'confirmed',
        txHash: issued.id,
      }),
    ]);

    // The wallet paid the amount and nothing else: the fee wallet's input paid the miner.
    expect(await satsOf(wallet.address)).toBe(before - 1_000_000n);
    const usdc = await firstPayment(
      () => balanceOnA('USDC', recipient.address),
      'the USDC the bridge pays for the BTC',
    );
    expect(usdc).toBe(expectedOutBaseUnits(route));
    expect(await providerA.getBalance(recipient.address)).toBe(0n);
  });

  it('refuses a tampered PSBT, one signed by another key and garbage with the codes EVM uses; then takes the right one', async () => {
    const wallet = await freshBitcoinWalletWith(3_000_000n);
    const recipient = await freshEvmWalletWith(0n);
    const { swapId } = await quoteAndBuild(
      {
        fromChain: 'bitcoin-devnet',
        toChain: 'devnet-a',
        tokenIn: 'BTC',
        tokenOut: 'USDC',
        amount: '0.005',
        recipient: recipient.address,
      },
      wallet.address,
      recipient.address,
    );
    const ready = await nextSigningOf(api, swapId, 0);
    const payload = ready.body.data.signing.payload as PsbtPayload;

    // The payment to the vault lowered after signing: not the transaction issued.
    const tampered = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), {
      allowUnknownOutputs: true,
    });
    tampered.updateOutput(0, { amount: 400_000n });
    tampered.signIdx(wallet.privateKey, 0, [btc.SigHash.ALL]);
    tampered.finalizeIdx(0);
    const refusedTamper = await submitSigned(api, swapId, Buffer.from(tampered.toPSBT()).toString('base64'));
    expect(refusedTamper.status).toBe(409);
    expect(refusedTamper.body.error.code).toBe('TX_REQUEST_MISMATCH');

    // Signed by a key that does not own the input.
    const stranger = { privateKey: secp256k1.utils.randomSecretKey(), address: wallet.address };
    const foreign = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), {
      allowUnknownOutputs: true,
    });
    expect(() => foreign.signIdx(stranger.privateKey, 0, [btc.SigHash.ALL])).toThrow();
    const forged = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), {
      allowUnknownOutputs: true,
    });
    const pubkey = secp256k1.getPublicKey(wallet.privateKey, true);
    // A signature by the stranger's key placed under the owner's public key.
    const sighash = forged.preimageWitnessV0(
      0,
      btc.p2pkh(pubkey).script,
      btc.SigHash.ALL,
      forged.getInput(0).witnessUtxo!.amount,
    );
    const signature = secp256k1.sign(sighash, stranger.privateKey, { prehash: false, format: 'der' });
    forged.updateInput(0, {
      partialSig: [[pubkey, Uint8Array.from([...signature, btc.SigHash.ALL])]],
    });
    const refusedForeign = await submitSigned(api, swapId, Buffer.from(forged.toPSBT()).toString('base64'));
    expect(refusedForeign.status).toBe(409);
    expect(refusedForeign.body.error.code).toBe('TX_REQUEST_MISMATCH');

    const garbage = await submitSigned(api, swapId, 'cHNidP8BAHECAAAAAf');
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.code).toBe('INVALID_SIGNED_TX');

    const accepted = await submitSigned(api, swapId, signPsbt(payload, wallet));
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.status).toBe('submitted');
  });

  /** The local THORNode's control of THORChain's signing of BTC outbounds (its HaltSigningBTC mimir). */
  async function setBitcoinSigningHalted(halted: boolean): Promise<void> {
    const thornode = (manifest.bitcoin as { bridge: { thornode?: { url: string } } }).bridge.thornode!.url;
    const res = await fetch(`${thornode}/devnet/thornode/signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'BTC', halted }),
    });
    expect(res.status).toBe(200);
  }

  it('USDC on devnet-a → BTC through THORChain’s router: a wallet with no ETH sends approve and depositWithExpiry, gas covered; the bcrt1 recipient gets exactly the quote, THORChain’s phases shown on the way', async () => {
    const wallet = await freshEvmWalletWith(900_000_000n);
    const recipient = bitcoinWalletOf(secp256k1.utils.randomSecretKey());

    const { swapId, route } = await quoteAndBuild(
      {
        fromChain: 'devnet-a',
        toChain: 'bitcoin-devnet',
        tokenIn: 'USDC',
        tokenOut: 'BTC',
        amount: '900',
        recipient: recipient.address,
      },
      wallet.address,
      recipient.address,
    );
    expect(route.providers).toEqual(['thorchain']);
    const stream = await openSseStream(`${e2eGatewayUrl()}/swap/${swapId}/events`, api.apiKey);
    expect(stream.status).toBe(200);
    // THORChain's signers hold the BTC outbound until the client has seen the swap wait for it.
    await setBitcoinSigningHalted(true);
    let waiting: unknown;
    try {
      await depositThroughThorchainRouter(swapId, wallet, recipient.address, route, async () => {
        const read = await waitFor(
          async () => {
            const res = await api.client.get(`/swap/${swapId}`);
            return res.body.data.steps[1]?.thorchain?.phase === 'outbound-signing' ? res : null;
          },
          { timeoutMs: 30_000, description: "THORChain's outbound waiting for its signers" },
        );
        api.documented('GET', `/swap/${swapId}`, read);
        waiting = read.body.data;
        expect(await satsOf(recipient.address)).toBe(0n);
        await setBitcoinSigningHalted(false);
      });
    } finally {
      await setBitcoinSigningHalted(false);
    }
    // Swapped by THORChain, its outbound scheduled: the deposit confirmed on devnet-a, the swap confirming.
    expect(waiting).toMatchObject({
      status: 'confirming',
      steps: [
        { kind: 'approve', status: 'confirmed', thorchain: null },
        {
          chain: 'devnet-a',
          kind: 'bridge',
          thorchain: { phase: 'outbound-signing', streaming: null, outTxIds: [] },
        },
      ],
    });
    expect(await balanceOnA('USDC', wallet.address)).toBe(0n);
    // The swap completed when THORNode's tx/status said the outbound was signed, not when the deposit
    // confirmed: the BTC is already on its way to the recipient (in the mempool or a block), no wait.
    expect(await satsOf(recipient.address)).toBe(expectedOutBaseUnits(route));
    const read = api.documented('GET', `/swap/${swapId}`, await api.client.get(`/swap/${swapId}`));
    expect(read.body.data).toMatchObject({ status: 'completed' });
    // The outbound as THORNode writes it: the vault's BTC payment to the recipient, upper-case txid.
    const deposit = read.body.data.steps[1];
    expect(deposit.thorchain).toEqual({
      phase: 'completed',
      streaming: null,
      outTxIds: [expect.stringMatching(/^[0-9A-F]{64}$/)],
    });
    const payout = await esplora.json<{ vout: { scriptpubkey_address?: string; value: number }[] }>(
      `/tx/${deposit.thorchain.outTxIds[0].toLowerCase()}`,
    );
    expect(payout.vout.find((o) => o.scriptpubkey_address === recipient.address)?.value).toBe(
      Number(expectedOutBaseUnits(route)),
    );

    // The event stream told each phase once, the outbound waiting for its signers, then completed.
    await stream.ended;
    const told = stream.events.filter((e) => e.event === 'swap.step-thorchain');
    expect(told.map((e) => e.data.thorchain.phase)).toContain('outbound-signing');
    expect(told.at(-1)?.data).toMatchObject({
      swapId,
      status: 'confirming',
      step: { current: 2, total: 2 },
      transaction: { chain: 'devnet-a', txHash: deposit.txHash },
      thorchain: deposit.thorchain,
    });
    const phases = told.map((e) => e.data.thorchain.phase);
    expect(new Set(phases).size).toBe(phases.length);
    const names = stream.events.map((e) => e.event);
    expect(names.indexOf('swap.step-thorchain')).toBeGreaterThan(names.lastIndexOf('swap.step-submitted'));
    expect(names.slice(-2)).toEqual(['swap.step-confirmed', 'swap.completed']);
  });

  it('USDC on devnet-a → BTC while THORChain halts Bitcoin: THORChain refunds the deposit and the swap fails BRIDGE_REFUNDED, the USDC back in the wallet', async () => {
    const wallet = await freshEvmWalletWith(90_000_000n);
    const recipient = bitcoinWalletOf(secp256k1.utils.randomSecretKey());
    const { swapId, route } = await quoteAndBuild(
      {
        fromChain: 'devnet-a',
        toChain: 'bitcoin-devnet',
        tokenIn: 'USDC',
        tokenOut: 'BTC',
        amount: '90',
        recipient: recipient.address,
      },
      wallet.address,
      recipient.address,
    );
    expect(route.providers).toEqual(['thorchain']);
    const thornode = (manifest.bitcoin as { bridge: { thornode?: { url: string } } }).bridge.thornode!.url;
    const setBitcoinHalted = async (halted: boolean) => {
      const res = await fetch(`${thornode}/devnet/thornode/trading`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain: 'BTC', halted }),
      });
      expect(res.status).toBe(200);
    };
    try {
      // Halted after the quote, before the deposit: THORChain takes the deposit and refunds it.
      await handleEveryStep(
        api,
        swapId,
        async (signing) => {
          if (signing.step.current === 2) await setBitcoinHalted(true);
          const rawTx = await wallet.connect(providerA).signTransaction(signableTransaction(signing));
          expect((await submitSigned(api, swapId, rawTx)).status).toBe(200);
        },
        { status: 'failed', reason: 'BRIDGE_REFUNDED' },
      );
    } finally {
      await setBitcoinHalted(false);
    }
    const read = await api.client.get(`/swap/${swapId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      status: 'failed',
      failure: {
        reason: 'BRIDGE_REFUNDED',
        details: expect.objectContaining({
          chain: 'devnet-a',
          refundTxIds: [expect.stringMatching(/^[0-9A-F]{64}$/)],
        }),
      },
    });
    // The router's refund paid the wallet back in full (the devnet's EVM outbound fee is 0); no BTC went out.
    expect(await balanceOnA('USDC', wallet.address)).toBe(90_000_000n);
    expect(await satsOf(recipient.address)).toBe(0n);
  });

  it.each([
    ['Unisat: a Taproot (bcrt1p) wallet', 'p2tr' as const],
    ['Xverse: a nested-SegWit (P2SH-P2WPKH, 2…) wallet', 'p2sh-p2wpkh' as const],
  ])(
    'BTC → USDC on devnet-a from %s: the build names its public key, the PSBT carries what the wallet signs with; BTC drops by exactly the amount',
    async (_, kind) => {
      const wallet = await freshBitcoinWalletWith(3_000_000n, kind);
      const recipient = await freshEvmWalletWith(0n);
      const quote = btcForUsdcOnA(recipient.address);

      // Without the key the wallet cannot sign (Taproot's internal key, the nested redeem script): 400.
      const { quoteId, route: unbuilt } = await quoteFirstRoute<{ routeId: string }>(api, quote);
      const keyless = await api.client.post('/swap/build', {
        quoteId,
        routeId: unbuilt.routeId,
        userAddress: wallet.address,
        recipient: recipient.address,
        waitForTxRequestMs: 20_000,
      });
      expect(keyless.status).toBe(400);
      expect(keyless.body.error).toMatchObject({
        code: 'INVALID_ADDRESS',
        details: expect.objectContaining({ field: 'userPublicKey' }),
      });

      const { swapId, route } = await quoteAndBuild(
        quote,
        wallet.address,
        recipient.address,
        wallet.publicKey,
      );
      const ready = await nextSigningOf(api, swapId, 0);
      expect(ready.status).toBe(200);
      const payload = ready.body.data.signing.payload as PsbtPayload;
      const issued = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), {
        allowUnknownOutputs: true,
      });
      expect(payload.inputsToSign).toEqual([
        { index: 0, address: wallet.address, sighashTypes: [kind === 'p2tr' ? 0 : 1] },
      ]);
      if (kind === 'p2tr')
        expect(Buffer.from(issued.getInput(0).tapInternalKey!).toString('hex')).toBe(wallet.publicKey);
      else expect(issued.getInput(0).redeemScript).toBeDefined();

      const submitted = await submitSigned(api, swapId, signPsbt(payload, wallet));
      expect(submitted.status).toBe(200);
      // The txid told before signing is the one mined (a nested input's scriptSig included).
      const txid = submitted.body.data.txHash as string;
      await confirmed(txid);
      expect((await esplora.json<{ txid: string }>(`/tx/${txid}`)).txid).toBe(txid);
      const terminal = await nextSigningOf(api, swapId, 1);
      expect(terminal.body.error).toMatchObject({
        code: 'EXECUTION_TERMINAL',
        details: { status: 'completed' },
      });

      expect(await satsOf(wallet.address)).toBe(3_000_000n - 400_000n);
      const usdc = await firstPayment(
        () => balanceOnA('USDC', recipient.address),
        'the USDC the bridge pays for the BTC',
      );
      expect(usdc).toBe(expectedOutBaseUnits(route));
    },
  );

  it("runSwap with unisatSigner: a Taproot (bcrt1p) wallet signs through Unisat's signPsbt, BTC → USDC on devnet-a; BTC drops by exactly the amount, the recipient gets the quote", async () => {
    const wallet = await freshBitcoinWalletWith(3_000_000n, 'p2tr');
    const recipient = await freshEvmWalletWith(0n);
    const client = createGatewayClient({ baseUrl: e2eGatewayUrl(), apiKey: api.apiKey });
    const quoted = await client.POST('/quote', { body: btcForUsdcOnA(recipient.address) });
    expect(quoted.response.status).toBe(200);
    const quote = quoted.data!.data;
    const [route] = quote.routes;
    const { swap, submitted } = await runSwap({
      client,
      quote,
      route: route.routeId,
      userAddress: wallet.address,
      build: { userPublicKey: wallet.publicKey, recipient: recipient.address, waitForTxRequestMs: 20_000 },
      signers: [unisatSigner(unisatWalletOf(wallet))],
    });
    expect(swap.status).toBe('completed');
    expect(submitted).toHaveLength(1);
    await confirmed(submitted[0].txHash as string);
    expect(await satsOf(wallet.address)).toBe(3_000_000n - 400_000n);
    const usdc = await firstPayment(
      () => balanceOnA('USDC', recipient.address),
      'the USDC the bridge pays for the BTC',
    );
    expect(usdc).toBe(expectedOutBaseUnits(route));
  });

  it('USDC on devnet-a → BTC to an Xverse payment address (P2SH, 2…): paid there, exactly the quote', async () => {
    const wallet = await freshEvmWalletWith(450_000_000n);
    const recipient = bitcoinWalletOf(secp256k1.utils.randomSecretKey(), 'p2sh-p2wpkh');
    expect(recipient.address).toMatch(/^2/);
    const { swapId, route } = await quoteAndBuild(
      {
        fromChain: 'devnet-a',
        toChain: 'bitcoin-devnet',
        tokenIn: 'USDC',
        tokenOut: 'BTC',
        amount: '450',
        recipient: recipient.address,
      },
      wallet.address,
      recipient.address,
    );
    expect(route.providers).toEqual(['thorchain']);
    await depositThroughThorchainRouter(swapId, wallet, recipient.address, route);
    const sats = await firstPayment(() => satsOf(recipient.address), 'the BTC THORChain pays for the USDC');
    expect(sats).toBe(expectedOutBaseUnits(route));
  });

  it('BTC ⇄ USDC on Solana: no route either way (THORChain serves no Solana, the devnet bridge’s Bitcoin end only Noble)', async () => {
    const recipient = Keypair.generate();
    for (const request of [
      {
        fromChain: 'bitcoin-devnet',
        toChain: 'solana-devnet',
        tokenIn: 'BTC',
        tokenOut: 'USDC',
        amount: '0.002',
        recipient: recipient.publicKey.toBase58(),
      },
      {
        fromChain: 'solana-devnet',
        toChain: 'bitcoin-devnet',
        tokenIn: 'USDC',
        tokenOut: 'BTC',
        amount: '450',
        recipient: bitcoinWalletOf(secp256k1.utils.randomSecretKey()).address,
      },
    ]) {
      const quote = await api.client.post('/quote', request);
      expect(quote.status).toBe(200);
      expect(quote.body.data.routes).toEqual([]);
      const providers = quote.body.data.unavailableRoutes.map((e: { provider: string }) => e.provider);
      expect(providers).toEqual(expect.arrayContaining(['devnet-bridge', 'thorchain']));
      for (const entry of quote.body.data.unavailableRoutes)
        expect(entry).toMatchObject({ reason: 'PAIR_NOT_SUPPORTED' });
    }
  });

  it('lists the Bitcoin chain, BTC and its pairs in the catalog', async () => {
    const chains = await api.client.get('/chains');
    expect(chains.status).toBe(200);
    expect(chains.body.data.chains).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'bitcoin-devnet', family: 'bitcoin', nativeSymbol: 'BTC' }),
      ]),
    );
    const tokens = await api.client.get('/tokens?chainRef=bitcoin-devnet');
    expect(tokens.status).toBe(200);
    expect(tokens.body.data.tokens).toEqual([
      expect.objectContaining({ chain: 'bitcoin-devnet', symbol: 'BTC', name: 'Bitcoin', decimals: 8 }),
    ]);
    const pairs = await api.client.get('/pairs?tokenIn=BTC&supportedOnly=true');
    expect(pairs.status).toBe(200);
    const routes = (pairs.body.data.pairs as { fromChain: string; toChain: string; tokenOut: string }[]).map(
      (pair) => `${pair.fromChain}→${pair.toChain}:${pair.tokenOut}`,
    );
    expect(routes).toContain('bitcoin-devnet→devnet-a:USDC');
    // THORChain carries BTC but to Noble (the devnet bridge's, docs/chains.md): it serves no Solana,
    // so no Solana pair is offered.
    expect(routes.filter((route) => route.includes('solana-devnet'))).toEqual([]);
    // Its pools (the local THORNode's GET /thorchain/pools) have USDC only: no BTC ⇄ WETH pair.
    expect(routes).not.toContain('bitcoin-devnet→devnet-a:WETH');
    expect(routes.filter((route) => route.startsWith('bitcoin-devnet→')).sort()).toEqual([
      'bitcoin-devnet→devnet-a:USDC',
      'bitcoin-devnet→devnet-b:USDC',
      'bitcoin-devnet→noble-devnet:USDC',
    ]);
  });

  it('refuses a recipient of another network or family with INVALID_ADDRESS', async () => {
    const wallet = await freshEvmWalletWith(0n);
    const mainnet = btc.p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true)).address!;
    for (const recipient of [mainnet, wallet.address]) {
      const res = await api.client.post('/quote', {
        fromChain: 'devnet-a',
        toChain: 'bitcoin-devnet',
        tokenIn: 'USDC',
        tokenOut: 'BTC',
        amount: '10',
        recipient,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_ADDRESS');
    }
  });
});
