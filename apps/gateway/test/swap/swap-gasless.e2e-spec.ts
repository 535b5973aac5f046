import { HDNodeWallet, TransactionRequest, Wallet } from 'ethers';
import { ethersTypedDataArgs, TypedDataV4 } from '@swapgw/chains';
import { api, ApiClient, createApiKey, waitFor } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import {
  buildSwapId,
  nextSigning as nextSigningOf,
  quoteFirstRoute,
  submitSigned,
  expectedOutBaseUnits,
} from '../support/swap-steps';

// Gas covered by the service (the default, gasPayment sponsored): fresh wallets that hold the input
// token and not one wei of ETH complete swaps through the spec's flow (build → poll signing → sign
// outside → POST signing, per step). Their ETH balance never drops on any chain, and the input
// token leaves them for exactly `amount`.
const devnet = new DevnetEvm();
const chainOf = (id: string) => devnet.chain(id);
const providerOf = (chain: string) => devnet.provider(chain);
const tokenOn = (chain: string, symbol: string, runner?: Wallet | HDNodeWallet) =>
  devnet.token(chain, symbol, runner);
const balanceOf = (chain: string, symbol: string, holder: string) => devnet.balanceOf(chain, symbol, holder);
const ethOf = (chain: string, holder: string) => devnet.ethOf(chain, holder);

/** Account 6 of the devnet mnemonic pays for funding the fresh wallets (e2e files run one at a time). */
const funder = (chain: string) => devnet.account(6).connect(providerOf(chain));

/** A new wallet holding `amount` of `symbol` on `chain` and no ETH anywhere. */
async function freshWalletWith(chain: string, symbol: string, amount: bigint): Promise<Wallet> {
  const wallet = Wallet.createRandom();
  await (await tokenOn(chain, symbol, funder(chain)).getFunction('transfer')(wallet.address, amount)).wait();
  return wallet as unknown as Wallet;
}

interface SigningPayload {
  type: 'evm-transaction' | 'evm-typed-data';
  transaction?: TransactionRequest;
  typedData?: TypedDataV4;
}
interface SigningBody {
  swapId: string;
  signing: {
    step: { current: number; total: number } | null;
    payload?: SigningPayload;
    executionHints?: Record<string, string>;
  };
}

describe('gas covered by the service: zero-ETH wallets swap on one chain and across chains', () => {
  let swapApi: E2eApi;
  let client: ApiClient;
  let documented: E2eApi['documented'];

  beforeAll(async () => {
    swapApi = await connectE2eApi('gasless-e2e');
    ({ client, documented } = swapApi);
  });

  afterAll(() => devnet.destroy());

  const quote = (body: Record<string, unknown>) =>
    quoteFirstRoute<{
      routeId: string;
      expectedAmountOut: string;
      tokenOutDecimals: number;
      signatures: Array<{ chain: string; kind: string; payloadType: string; mayBeSkipped: boolean }>;
    }>(swapApi, body);

  const nextSigning = (swapId: string, afterStep: number) => nextSigningOf(swapApi, swapId, afterStep);

  /** Signs every step as a wallet would (typed data or its own transaction); returns what each step asked for. */
  async function signEveryStep(swapId: string, walletOn: (chainId: number) => Wallet) {
    const asked: string[] = [];
    /** The wallet's own transactions: their hash and the gas the service sent ahead of each. */
    const covered: Array<{ txHash: string; gasCoveredWei: bigint }> = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning(swapId, step);
      if (res.status === 409) return { asked, covered, terminal: res.body.error };
      const { signing } = res.body.data as SigningBody;
      const payload = signing.payload!;
      let rawTx: string;
      if (payload.type === 'evm-typed-data') {
        const typedData = payload.typedData!;
        expect(signing.executionHints).toMatchObject({ gasPaidBy: 'service', userPaysWei: '0' });
        const { domain, types, value } = ethersTypedDataArgs(typedData);
        rawTx = await walletOn(Number(typedData.domain.chainId)).signTypedData(domain, types, value);
        asked.push(
          `${signing.step!.current}/${signing.step!.total} ${typedData.primaryType}${typedData.primaryType === 'Permit' ? '' : `:${String((typedData.types.PermitWitnessTransferFrom ?? []).find((f: { name: string; type: string }) => f.name === 'witness')?.type)}`}`,
        );
      } else {
        // Only where nothing else works, with the transaction's maximum fee sent to the wallet first.
        expect(signing.executionHints).toMatchObject({
          gasPaidBy: 'service',
          gasCoveredWei: expect.any(String),
        });
        const wallet = walletOn(Number(payload.transaction!.chainId));
        rawTx = await wallet.signTransaction(payload.transaction!);
        asked.push(`${signing.step!.current}/${signing.step!.total} transaction`);
      }
      const submitted = await submitSigned(swapApi, swapId, rawTx);
      expect(submitted.status).toBe(200);
      expect(submitted.body.data).toMatchObject({ swapId, status: 'submitted', step: signing.step });
      if (payload.type === 'evm-transaction')
        covered.push({
          txHash: submitted.body.data.txHash,
          gasCoveredWei: BigInt(signing.executionHints!.gasCoveredWei),
        });
      step = signing.step!.current;
    }
  }

  const build = (quoteId: string, routeId: string, wallet: Wallet) =>
    buildSwapId(swapApi, { quoteId, routeId, userAddress: wallet.address, waitForTxRequestMs: 20_000 });

  it('USDC (EIP-2612) → WETH on devnet-a: a permit and a Permit2 witness, both signed only; no ETH before or after, exactly amount spent', async () => {
    const wallet = await freshWalletWith('devnet-a', 'USDC', 50_000_000n);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '20',
      slippageBps: 100,
    });

    const { asked, terminal } = await signEveryStep(
      await build(quoteId, route.routeId, wallet),
      () => wallet,
    );

    expect(asked).toEqual(['1/2 Permit', '2/2 PermitWitnessTransferFrom:SwapIntent']);
    // The quote told it before the first signature: two typed-data signatures on devnet-a, the permit skippable.
    expect(route.signatures).toEqual([
      { chain: 'devnet-a', kind: 'approve', payloadType: 'evm-typed-data', mayBeSkipped: true },
      { chain: 'devnet-a', kind: 'swap', payloadType: 'evm-typed-data', mayBeSkipped: false },
    ]);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    expect(await ethOf('devnet-a', wallet.address)).toBe(0n);
    expect(await balanceOf('devnet-a', 'USDC', wallet.address)).toBe(30_000_000n);
    expect(await balanceOf('devnet-a', 'WETH', wallet.address)).toBeGreaterThanOrEqual(
      (expectedOutBaseUnits(route) * 9_900n) / 10_000n,
    );
  });

  it('WETH9 (no permit) → USDC on devnet-a: the approve of Permit2 is the wallet’s own transaction with its gas sent first; its ETH never drops', async () => {
    const amount = 10n ** 16n; // 0.01 WETH
    const wallet = await freshWalletWith('devnet-a', 'WETH', 3n * amount);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '0.01',
      slippageBps: 100,
    });

    const { asked, covered, terminal } = await signEveryStep(
      await build(quoteId, route.routeId, wallet),
      () => wallet,
    );

    expect(asked).toEqual(['1/2 transaction', '2/2 PermitWitnessTransferFrom:SwapIntent']);
    expect(route.signatures.map((s) => `${s.kind}:${s.payloadType}${s.mayBeSkipped ? '?' : ''}`)).toEqual([
      'approve:evm-transaction?',
      'swap:evm-typed-data',
    ]);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    // The wallet started with 0 ETH: what it holds now is what the service sent minus what its
    // approve cost, never less than nothing it had.
    const approve = (await providerOf('devnet-a').getTransactionReceipt(covered[0].txHash))!;
    expect(await ethOf('devnet-a', wallet.address)).toBe(
      covered[0].gasCoveredWei - approve.gasUsed * approve.gasPrice,
    );
    expect(await balanceOf('devnet-a', 'WETH', wallet.address)).toBe(2n * amount);
    expect(await balanceOf('devnet-a', 'USDC', wallet.address)).toBeGreaterThanOrEqual(
      (expectedOutBaseUnits(route) * 9_900n) / 10_000n,
    );

    // A second swap of the same token needs no approve: Permit2 keeps its allowance, one signature.
    const again = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '0.01',
      slippageBps: 100,
    });
    const secondSwapId = await build(again.quoteId, again.route.routeId, wallet);
    const second = await signEveryStep(secondSwapId, () => wallet);
    expect(second.asked).toEqual(['2/2 PermitWitnessTransferFrom:SwapIntent']);
    // The quote's list is an upper bound: the build still counts the approve, which reads skipped.
    expect(again.route.signatures).toHaveLength(2);
    const read = documented('GET', `/swap/${secondSwapId}`, await client.get(`/swap/${secondSwapId}`));
    expect(read.body.data).toMatchObject({
      status: 'completed',
      steps: [
        { index: 1, kind: 'approve', status: 'skipped', txHash: null },
        { index: 2, kind: 'swap', status: 'confirmed', txHash: expect.any(String) },
      ],
    });
    expect(await balanceOf('devnet-a', 'WETH', wallet.address)).toBe(amount);
  });

  it('USDC devnet-a → DAI devnet-b: the wallet signs only on devnet-a, the destination swap runs from that signature; no ETH on either chain', async () => {
    const wallet = await freshWalletWith('devnet-a', 'USDC', 50_000_000n);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-b',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '40',
      slippageBps: 100,
    });
    const minimum = (expectedOutBaseUnits(route) * 9_900n) / 10_000n;
    const daiBefore = await balanceOf('devnet-b', 'DAI', wallet.address);
    const signedOn: number[] = [];

    const { asked, terminal } = await signEveryStep(
      await build(quoteId, route.routeId, wallet),
      (chainId) => {
        signedOn.push(chainId);
        return wallet;
      },
    );

    // One permit and one BridgeSwapIntent, both on devnet-a: nothing to sign on devnet-b.
    expect(asked).toEqual(['1/2 Permit', '2/2 PermitWitnessTransferFrom:BridgeSwapIntent']);
    expect(signedOn).toEqual([chainOf('devnet-a').chainId, chainOf('devnet-a').chainId]);
    // Completed once the deposit confirmed on devnet-a (as a bridge-only route); the bridge relayer
    // then releases it to devnet-b's router, which swaps it for the wallet.
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    await waitFor(async () => (await balanceOf('devnet-b', 'DAI', wallet.address)) > daiBefore, {
      timeoutMs: 60_000,
      intervalMs: 300,
      description: 'the DAI of the destination swap to reach the wallet on devnet-b',
    });
    expect(await ethOf('devnet-a', wallet.address)).toBe(0n);
    expect(await ethOf('devnet-b', wallet.address)).toBe(0n);
    expect(await balanceOf('devnet-a', 'USDC', wallet.address)).toBe(10_000_000n);
    expect(await balanceOf('devnet-b', 'USDC', wallet.address)).toBe(0n);
    expect((await balanceOf('devnet-b', 'DAI', wallet.address)) - daiBefore).toBeGreaterThanOrEqual(minimum);
  });

  it('refuses a signature by another key with 409 before any gas is spent; the same signature twice answers the same transaction', async () => {
    const wallet = await freshWalletWith('devnet-a', 'USDC', 5_000_000n);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '5',
    });
    const swapId = await build(quoteId, route.routeId, wallet);
    const ready = await nextSigning(swapId, 0);
    const typedData = ready.body.data.signing.payload!.typedData!;
    const { domain, types, value } = ethersTypedDataArgs(typedData);

    const impostor = documented(
      'POST',
      `/swap/${swapId}/signing`,
      await client.post(`/swap/${swapId}/signing`, {
        rawTx: await Wallet.createRandom().signTypedData(domain, types, value),
      }),
    );
    expect(impostor.status).toBe(409);
    expect(impostor.body.error).toMatchObject({
      code: 'TX_REQUEST_MISMATCH',
      details: { mismatches: [{ field: 'signer', expected: wallet.address }] },
    });

    const rawTx = await wallet.signTypedData(domain, types, value);
    const first = await client.post(`/swap/${swapId}/signing`, { rawTx });
    const second = await client.post(`/swap/${swapId}/signing`, { rawTx });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.data.txHash).toBe(first.body.data.txHash);
  });

  it('a key whose daily sponsorship budget is spent gets 503 SPONSORSHIP_BUDGET_EXHAUSTED, never a payload', async () => {
    // The stack gives this owner a budget of 1 wei per chain per day (SPONSORSHIP_BUDGET_OVERRIDES).
    const broke = api(client.baseUrl, await createApiKey('gasless-e2e-no-budget'));
    const wallet = await freshWalletWith('devnet-a', 'USDC', 5_000_000n);
    const res = await broke.post('/quote', {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '5',
    });
    const refused = documented(
      'POST',
      '/swap/build',
      await broke.post('/swap/build', {
        quoteId: res.body.data.quoteId,
        routeId: res.body.data.routes[0].routeId,
        userAddress: wallet.address,
        waitForTxRequestMs: 20_000,
      }),
    );
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('SPONSORSHIP_BUDGET_EXHAUSTED');
  });
});
