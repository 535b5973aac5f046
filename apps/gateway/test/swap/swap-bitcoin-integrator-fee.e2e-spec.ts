import * as btc from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { getAddress, Interface, Wallet } from 'ethers';
import { BITCOIN_NETWORKS, parseThorchainSwapMemo } from '@swapgw/chains/bitcoin-bridge';
import { bitcoinDevnetKey, EsploraClient } from '@swapgw/devnet';
import { waitFor } from '@swapgw/testing';
import {
  BitcoinWallet,
  bitcoinWalletOf,
  DevnetBitcoinWallets,
  PsbtPayload,
  signPsbt as signWithWallet,
} from '../support/bitcoin-wallets';
import { DevnetEvm } from '../support/devnet-evm';
import { collectedFeesOf } from '../support/integrator-fees-collected';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import {
  buildSwapId,
  expectedOutBaseUnits,
  FeeRoute,
  firstPayment,
  nextSigning,
  quoteFirstRoute,
  signEveryTransaction,
  submitSigned,
} from '../support/swap-steps';

// Integrator fees on routes that start on Bitcoin: the PSBT the wallet signs pays each fee
// recipient an output of exactly its quoted fee beside the deposit into the bridge's vault (the
// service's fee wallet paying the miner, user-paid or sponsored alike). Each recipient's balance,
// read from the devnet's Esplora API, rises by exactly the route's `integratorFee[].amount`, the
// wallet spends exactly the quoted `amount`, and the bridge pays the quote for what is left.
const devnet = new DevnetEvm();
const manifest = devnet.manifest as typeof devnet.manifest & {
  bitcoin: { esploraUrl: string; bridge: { vault: string } };
};
const balanceOnA = (symbol: string, holder: string) => devnet.balanceOf('devnet-a', symbol, holder);
const providerA = devnet.provider('devnet-a');
const ERC20 = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);
const THORCHAIN_ROUTER = new Interface([
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
]);
/** A THORChain account (bech32 `thor1…`) an integrator collects its THORChain fees under. */
const THOR_ACCOUNT = 'thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq';
const esplora = new EsploraClient(manifest.bitcoin.esploraUrl);
const REGTEST = BITCOIN_NETWORKS.regtest;
const SATS_PER_BTC = 100_000_000;

/** Funders of fresh wallets (e2e files run one at a time): Bitcoin test wallet 7, EVM account 7. */
const btcFunder = () => bitcoinDevnetKey('wallet', 7);
const evmFunder = () => devnet.account(7).connect(providerA);

describe('integrator fees on routes from Bitcoin', () => {
  let api: E2eApi;

  beforeAll(async () => {
    api = await connectE2eApi('bitcoin-integrator-fee-e2e');
  });

  afterAll(() => devnet.destroy());

  const bitcoin = new DevnetBitcoinWallets(esplora, btcFunder);
  const satsOf = (address: string) => bitcoin.satsOf(address);
  const feeSats = (route: FeeRoute) =>
    route.integratorFee.map((fee) => BigInt(Math.round(Number(fee.amount) * SATS_PER_BTC)));
  const scriptOf = (address: string) =>
    Buffer.from(btc.OutScript.encode(btc.Address(REGTEST).decode(address)));

  /**
   * Builds the quoted route for the wallet and reads the PSBT it is offered: the swap, the payload
   * and the transaction it describes, whose first output must pay the vault `deposit` sats.
   */
  async function builtPsbt(
    quoteId: string,
    route: FeeRoute,
    wallet: BitcoinWallet,
    evmRecipient: string,
    deposit: bigint,
    gasPayment?: 'user' | 'sponsored',
  ): Promise<{ swapId: string; payload: PsbtPayload; issued: btc.Transaction }> {
    const swapId = await buildSwapId(api, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      recipient: evmRecipient,
      ...(gasPayment ? { gasPayment } : {}),
      waitForTxRequestMs: 20_000,
    });
    const ready = await nextSigning(api, swapId, 0);
    expect(ready.status).toBe(200);
    const payload = ready.body.data.signing.payload as PsbtPayload;
    const issued = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), {
      allowUnknownOutputs: true,
    });
    expect(scriptOf(manifest.bitcoin.bridge.vault).equals(Buffer.from(issued.getOutput(0).script!))).toBe(
      true,
    );
    expect(issued.getOutput(0).amount).toBe(deposit);
    return { swapId, payload, issued };
  }

  /** Submits the wallet's signature of the PSBT offered, waits for the swap to complete: the txid. */
  async function signAndComplete(
    swapId: string,
    payload: PsbtPayload,
    wallet: BitcoinWallet,
  ): Promise<string> {
    const submitted = await submitSigned(
      api,
      swapId,
      Buffer.from(signWithWallet(payload, wallet).toPSBT()).toString('base64'),
    );
    expect(submitted.status).toBe(200);
    const terminal = await nextSigning(api, swapId, 1);
    expect(terminal.body.error).toMatchObject({
      code: 'EXECUTION_TERMINAL',
      details: { status: 'completed' },
    });
    return submitted.body.data.txHash as string;
  }

  /**
   * The wallet spent exactly the amount (0.01 BTC), the recipient got exactly the quote, and the fees
   * are recorded under the key's owner like the other families' fees, with the deposit's txid
   * (`fees` by recipient).
   */
  async function expectSettled(
    swapId: string,
    spent: bigint,
    evmRecipient: string,
    route: FeeRoute,
    txid: string,
    fees: { recipient: string; amount: string }[],
  ): Promise<void> {
    expect(spent).toBe(1_000_000n);
    const bridged = await firstPayment(
      () => balanceOnA('USDC', evmRecipient),
      'the bridged USDC on devnet-a',
    );
    expect(bridged).toBe(expectedOutBaseUnits(route));
    const collected = await waitFor(
      async () => {
        const rows = (await collectedFeesOf(swapId)) as { recipient: string }[];
        return rows.length === fees.length ? rows : null;
      },
      { timeoutMs: 30_000, intervalMs: 300, description: 'the integrator fees recorded' },
    );
    expect([...collected].sort((a, b) => a.recipient.localeCompare(b.recipient))).toEqual(
      [...fees]
        .sort((a, b) => a.recipient.localeCompare(b.recipient))
        .map(({ recipient, amount }) => ({
          owner: api.owner,
          chain: 'bitcoin-devnet',
          token_symbol: 'BTC',
          recipient,
          amount,
          tx_hash: txid,
        })),
    );
  }

  it.each([
    ['user-paid', 'user'],
    ['sponsored', 'sponsored'],
  ] as const)(
    '%s BTC → devnet-a USDC with two recipients: the PSBT pays each its quoted fee, their balances rise by exactly that, the wallet spends exactly the amount',
    async (_, gasPayment) => {
      const wallet = await bitcoin.freshWalletWith(3_000_000n);
      const recipientA = bitcoinWalletOf(secp256k1.utils.randomSecretKey()).address;
      const recipientB = bitcoinWalletOf(secp256k1.utils.randomSecretKey(), 'p2tr').address;
      const evmRecipient = Wallet.createRandom();
      const { quoteId, route } = await quoteFirstRoute<FeeRoute>(api, {
        fromChain: 'bitcoin-devnet',
        toChain: 'devnet-a',
        tokenIn: 'BTC',
        tokenOut: 'USDC',
        amount: '0.01',
        recipient: evmRecipient.address,
        integratorFee: [
          { bps: 30, recipient: recipientA },
          { bps: 20, recipient: recipientB },
        ],
      });
      expect(route.integratorFee).toEqual([
        { bps: 30, amount: '0.00003', token: 'BTC', chain: 'bitcoin-devnet', recipient: recipientA },
        { bps: 20, amount: '0.00002', token: 'BTC', chain: 'bitcoin-devnet', recipient: recipientB },
      ]);
      expect(feeSats(route)).toEqual([3_000n, 2_000n]);
      const before = await satsOf(wallet.address);

      // The deposit carries the amount net of the fees; an output per recipient follows it.
      const { swapId, payload, issued } = await builtPsbt(
        quoteId,
        route,
        wallet,
        evmRecipient.address,
        995_000n,
        gasPayment,
      );
      expect([1, 2].map((i) => issued.getOutputAddress(i, REGTEST))).toEqual([recipientA, recipientB]);
      expect([1, 2].map((i) => issued.getOutput(i).amount)).toEqual([3_000n, 2_000n]);

      // A wallet that lowers a fee output is refused like any other change to the PSBT.
      const lowered = btc.Transaction.fromPSBT(Buffer.from(payload.psbt, 'base64'), {
        allowUnknownOutputs: true,
      });
      lowered.updateOutput(1, { amount: 1_000n });
      const loweredPayload = { ...payload, psbt: Buffer.from(lowered.toPSBT()).toString('base64') };
      const refused = await submitSigned(
        api,
        swapId,
        Buffer.from(signWithWallet(loweredPayload, wallet).toPSBT()).toString('base64'),
      );
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'TX_REQUEST_MISMATCH' });

      expect(await signAndComplete(swapId, payload, wallet)).toBe(issued.id);
      expect(await satsOf(recipientA)).toBe(3_000n);
      expect(await satsOf(recipientB)).toBe(2_000n);
      // The bridge is quoted for what is left after the fees.
      await expectSettled(
        swapId,
        before - (await satsOf(wallet.address)),
        evmRecipient.address,
        route,
        issued.id,
        [
          { recipient: recipientA, amount: '3000' },
          { recipient: recipientB, amount: '2000' },
        ],
      );
    },
  );

  it("BTC → devnet-a USDC with fees to two THORNames: THORChain's affiliate fields carry them, the whole amount goes to the vault, the recipient gets the quote; a thor1 address does not fit the OP_RETURN", async () => {
    const wallet = await bitcoin.freshWalletWith(3_000_000n);
    const evmRecipient = Wallet.createRandom();
    const quoted = await api.client.post('/quote', {
      fromChain: 'bitcoin-devnet',
      toChain: 'devnet-a',
      tokenIn: 'BTC',
      tokenOut: 'USDC',
      amount: '0.01',
      recipient: evmRecipient.address,
      integratorFee: [
        { bps: 25, recipient: 'wl' },
        { bps: 25, recipient: 'pt' },
      ],
    });
    expect(quoted.status).toBe(200);
    const quoteId = quoted.body.data.quoteId as string;
    const route = quoted.body.data.routes[0] as FeeRoute & { providers: string[] };
    expect(route.providers).toEqual(['thorchain']);
    expect(route.integratorFee).toEqual([
      { bps: 25, amount: '0.000025', token: 'BTC', chain: 'bitcoin-devnet', recipient: 'wl' },
      { bps: 25, amount: '0.000025', token: 'BTC', chain: 'bitcoin-devnet', recipient: 'pt' },
    ]);
    const before = await satsOf(wallet.address);

    // The deposit is the whole amount: THORChain takes the fees from it. No output pays them.
    const { swapId, payload, issued } = await builtPsbt(
      quoteId,
      route,
      wallet,
      evmRecipient.address,
      1_000_000n,
    );
    const memoOutput = Array.from({ length: issued.outputsLength }, (_, i) => issued.getOutput(i)).find(
      (output) => output.script?.[0] === 0x6a,
    );
    const memo = Buffer.from(btc.Script.decode(memoOutput!.script!)[1] as Uint8Array).toString('utf8');
    // Equal shares are written once (`wl/pt:25`), as THORChain reads them: 80 bytes are scarce.
    expect(memo).toMatch(/:wl\/pt:25$/);
    expect(parseThorchainSwapMemo(memo)?.affiliates).toEqual([
      { name: 'wl', bps: 25 },
      { name: 'pt', bps: 25 },
    ]);

    expect(await signAndComplete(swapId, payload, wallet)).toBe(issued.id);
    // THORChain swapped what was left after its affiliates' bps: exactly the quote.
    await expectSettled(
      swapId,
      before - (await satsOf(wallet.address)),
      evmRecipient.address,
      route,
      issued.id,
      [
        { recipient: 'pt', amount: '2500' },
        { recipient: 'wl', amount: '2500' },
      ],
    );

    // A thor1 address (43 characters) beside a 42-character EVM recipient does not fit Bitcoin's
    // 80-byte OP_RETURN: THORNode refuses the memo, and the route says why.
    const long = await api.client.post('/quote', {
      fromChain: 'bitcoin-devnet',
      toChain: 'devnet-a',
      tokenIn: 'BTC',
      tokenOut: 'USDC',
      amount: '0.01',
      recipient: evmRecipient.address,
      integratorFee: { bps: 30, recipient: THOR_ACCOUNT },
    });
    expect(long.status).toBe(200);
    expect(long.body.data.routes).toEqual([]);
    expect(long.body.data.unavailableRoutes).toContainEqual(
      expect.objectContaining({
        provider: 'thorchain',
        reason: 'INTEGRATOR_FEE_NOT_SUPPORTED',
        details: expect.objectContaining({ message: expect.stringContaining('short THORName') }),
      }),
    );
  });

  it("USDC on devnet-a → BTC with a fee to a THORName: the router's depositWithExpiry carries the gross amount and the memo names the affiliate; a fee to an EVM address gets no THORChain route", async () => {
    const wallet = Wallet.createRandom();
    await (
      await devnet.token('devnet-a', 'USDC', evmFunder()).getFunction('transfer')(
        wallet.address,
        900_000_000n,
      )
    ).wait();
    const recipient = bitcoinWalletOf(secp256k1.utils.randomSecretKey());
    const terms = {
      fromChain: 'devnet-a',
      toChain: 'bitcoin-devnet',
      tokenIn: 'USDC',
      tokenOut: 'BTC',
      amount: '900',
      recipient: recipient.address,
    };
    // No provider but THORChain pays a THORName: a Uniswap swap on devnet-a says so.
    const sameChain = await api.client.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '100',
      integratorFee: { bps: 50, recipient: 'wl' },
    });
    expect(sameChain.status).toBe(200);
    expect(sameChain.body.data.routes).toEqual([]);
    expect(sameChain.body.data.unavailableRoutes).toContainEqual(
      expect.objectContaining({ provider: 'uniswap-v2', reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' }),
    );
    const toEvmAddress = await api.client.post('/quote', {
      ...terms,
      integratorFee: { bps: 50, recipient: Wallet.createRandom().address },
    });
    expect(toEvmAddress.status).toBe(200);
    expect(toEvmAddress.body.data.routes).toEqual([]);
    expect(toEvmAddress.body.data.unavailableRoutes).toContainEqual(
      expect.objectContaining({ provider: 'thorchain', reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' }),
    );

    const { quoteId, route } = await quoteFirstRoute<FeeRoute & { providers: string[] }>(api, {
      ...terms,
      integratorFee: { bps: 50, recipient: 'wl' },
    });
    expect(route.providers).toEqual(['thorchain']);
    expect(route.integratorFee).toEqual([
      { bps: 50, amount: '4.5', token: 'USDC', chain: 'devnet-a', recipient: 'wl' },
    ]);
    const swapId = await buildSwapId(api, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      recipient: recipient.address,
      waitForTxRequestMs: 20_000,
    });
    const signed = await signEveryTransaction(api, swapId, (transaction) =>
      wallet.connect(providerA).signTransaction(transaction),
    );
    expect(signed).toHaveLength(2);
    const [approve, deposit] = signed;
    // The wallet approves THORChain's router for the gross amount and deposits it all through it.
    const [spender, allowance] = ERC20.decodeFunctionData('approve', String(approve.data));
    expect(getAddress(spender as string)).toBe(getAddress(String(deposit.to)));
    expect(allowance).toBe(900_000_000n);
    const [, , amount, memo] = THORCHAIN_ROUTER.decodeFunctionData('depositWithExpiry', String(deposit.data));
    expect(amount).toBe(900_000_000n);
    expect(parseThorchainSwapMemo(memo as string)?.affiliates).toEqual([{ name: 'wl', bps: 50 }]);
    expect(await balanceOnA('USDC', wallet.address)).toBe(0n);
    // THORChain took its affiliate's 50 bps from the deposit and paid the rest: exactly the quote.
    expect(await satsOf(recipient.address)).toBe(expectedOutBaseUnits(route));
    const read = await api.client.get(`/swap/${swapId}`);
    expect(read.body.data).toMatchObject({ status: 'completed' });
  });

  it('refuses at quote a fee a Bitcoin output cannot carry (below 546 sat) and a recipient of another network', async () => {
    const dust = await api.client.post('/quote', {
      fromChain: 'bitcoin-devnet',
      toChain: 'devnet-a',
      tokenIn: 'BTC',
      tokenOut: 'USDC',
      amount: '0.001',
      integratorFee: { bps: 5, recipient: bitcoinWalletOf(secp256k1.utils.randomSecretKey()).address },
    });
    expect(dust.status).toBe(400);
    expect(dust.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'integratorFee' } });
    const mainnet = btc.p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true)).address!;
    const foreign = await api.client.post('/quote', {
      fromChain: 'bitcoin-devnet',
      toChain: 'devnet-a',
      tokenIn: 'BTC',
      tokenOut: 'USDC',
      amount: '0.01',
      integratorFee: { bps: 30, recipient: mainnet },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'INVALID_ADDRESS' });
  });
});
