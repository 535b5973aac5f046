import { HDNodeWallet, Interface, Wallet } from 'ethers';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmTransactionPayload } from '@swapgw/contracts';
import { createGatewayClient, ethersSigner, runSwap, RunSwapEvent, viemSigner } from '@swapgw/sdk';
import { ApiClient, ApiResponse } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import {
  buildSwapId,
  expectedOutBaseUnits,
  handleEveryStep,
  nextSigning,
  quoteFirstRoute,
} from '../support/swap-steps';

// An injected wallet (MetaMask and the like) cannot sign without sending: it takes an EIP-1193
// eth_sendTransaction with the payload's from, to, data and value, picks nonce and gas itself, sends
// the transaction and answers its hash. Such a wallet completes a user-paid swap by POSTing that
// hash ({ txHash }) instead of a signed rawTx. Here an ethers wallet sends like MetaMask does.
// Every read afresh: the funder and the wallet send several transactions in a row (pending nonces).
const devnet = new DevnetEvm({ cacheTimeout: -1 });
const provider = devnet.provider('devnet-a');
/** Account 9 of the devnet mnemonic funds the fresh wallets (e2e files run one at a time). */
const funder = devnet.account(9).connect(provider);
const ERC20 = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);

interface SigningBody {
  signing: {
    step: { current: number; total: number };
    payload: { type: string; transaction?: EvmTransactionPayload };
    executionHints: Record<string, string>;
  };
}

/** A new wallet on devnet-a holding `eth` wei and `tokens` (base units per symbol). */
async function freshWallet(eth: bigint, tokens: Record<string, bigint>): Promise<Wallet> {
  const wallet = Wallet.createRandom().connect(provider) as unknown as Wallet;
  if (eth > 0n) await (await funder.sendTransaction({ to: wallet.address, value: eth })).wait();
  for (const [symbol, amount] of Object.entries(tokens)) {
    const token = devnet.token('devnet-a', symbol, funder);
    await (await token.getFunction('transfer')(wallet.address, amount)).wait();
  }
  return wallet;
}

/** What MetaMask's eth_sendTransaction does with the request: it chooses nonce and gas, sends, answers the hash. */
async function sendAsInjectedWallet(
  wallet: Wallet | HDNodeWallet,
  tx: Pick<EvmTransactionPayload, 'to' | 'data' | 'value' | 'chainId'>,
): Promise<string> {
  const sent = await wallet.sendTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    chainId: BigInt(tx.chainId),
  });
  return sent.hash;
}

describe('injected wallets: a user-paid swap completed with the hashes of transactions the wallet sent itself', () => {
  let swapApi: E2eApi;
  let client: ApiClient;
  let documented: E2eApi['documented'];

  beforeAll(async () => {
    swapApi = await connectE2eApi('injected-wallet-e2e');
    ({ client, documented } = swapApi);
  });

  afterAll(() => devnet.destroy());

  const submitTxHash = async (swapId: string, txHash: string): Promise<ApiResponse> => {
    const path = `/swap/${swapId}/signing`;
    return documented('POST', path, await client.post(path, { txHash }));
  };

  it('USDC → WETH on devnet-a: approve and swap each sent by the wallet, POSTed as { txHash }; a transaction other than the issued one is 409', async () => {
    const amount = 20_000_000n; // 20 USDC
    const wallet = await freshWallet(10n ** 18n, { USDC: amount });
    const { quoteId, route } = await quoteFirstRoute<{
      routeId: string;
      expectedAmountOut: string;
      tokenOutDecimals: number;
    }>(swapApi, {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '20',
      slippageBps: 100,
    });
    const swapId = await buildSwapId(swapApi, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });

    const steps: string[] = [];
    await handleEveryStep(swapApi, swapId, async (signing) => {
      expect(signing.payload.type).toBe('evm-transaction');
      const tx = signing.payload.transaction!;

      if (signing.step.current === 1) {
        // The same wallet sends another transaction to the same contract (an approve of another
        // amount): its hash is refused, naming the field that differs; the step stays to be done.
        const [spender] = ERC20.decodeFunctionData('approve', tx.data) as unknown as [string];
        const other = await sendAsInjectedWallet(wallet, {
          ...tx,
          data: ERC20.encodeFunctionData('approve', [spender, 1n]),
        });
        const refused = await submitTxHash(swapId, other);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toMatchObject({
          code: 'TX_REQUEST_MISMATCH',
          details: { mismatches: [{ field: 'data', expected: tx.data }] },
        });
      }

      const txHash = await sendAsInjectedWallet(wallet, tx);
      const submitted = await submitTxHash(swapId, txHash);
      expect(submitted.status).toBe(200);
      expect(submitted.body.data).toMatchObject({ swapId, txHash, status: 'submitted', step: signing.step });
      // The same hash again answers the same, nothing more happens.
      const again = await submitTxHash(swapId, txHash);
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ txHash, step: signing.step });
      steps.push(`${signing.step.current}/${signing.step.total} ${txHash}`);
    });

    expect(steps).toHaveLength(2);
    expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    expect(await devnet.balanceOf('devnet-a', 'WETH', wallet.address)).toBeGreaterThanOrEqual(
      (expectedOutBaseUnits(route) * 9_900n) / 10_000n,
    );
    // The swap followed the wallet's own transactions, confirmed as any other.
    const read = await client.get(`/swap/${swapId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      status: 'completed',
      steps: steps.map((s, i) => ({ index: i + 1, status: 'confirmed', txHash: s.split(' ')[1] })),
    });
  });

  it.each([
    ['an ethers signer', 'ethers'],
    ['a viem WalletClient', 'viem'],
  ])(
    'through @swapgw/sdk runSwap, %s in send mode: each step sent by the wallet and submitted as { txHash }',
    async (_, library) => {
      const amount = 15_000_000n; // 15 USDC
      const wallet = await freshWallet(10n ** 18n, { USDC: amount });
      const signer =
        library === 'ethers'
          ? ethersSigner(wallet, { mode: 'send' })
          : viemSigner(
              createWalletClient({
                account: privateKeyToAccount(wallet.privateKey as `0x${string}`),
                transport: http(devnet.chain('devnet-a').rpcUrl),
              }),
              { mode: 'send' },
            );
      const seen: RunSwapEvent[] = [];
      const { swap, submitted } = await runSwap({
        client: createGatewayClient({ baseUrl: process.env.GATEWAY_URL!, apiKey: swapApi.apiKey }),
        quoteRequest: {
          fromChain: 'devnet-a',
          toChain: 'devnet-a',
          tokenIn: 'USDC',
          tokenOut: 'WETH',
          amount: '15',
          slippageBps: 100,
        },
        userAddress: wallet.address,
        build: { gasPayment: 'user', waitForTxRequestMs: 20_000 },
        signers: [signer],
        timeoutMs: 120_000,
        onEvent: (event) => seen.push(event),
      });

      expect(swap.status).toBe('completed');
      expect(submitted.map((s) => `${s.step.current}/${s.step.total}`)).toEqual(['1/2', '2/2']);
      // The hashes are of transactions the wallet sent itself, confirmed as the swap's steps.
      for (const { txHash } of submitted) {
        const tx = await provider.getTransaction(txHash);
        expect(tx?.from).toBe(wallet.address);
      }
      expect(swap.steps.map((step) => [step.status, step.txHash])).toEqual(
        submitted.map((s) => ['confirmed', s.txHash]),
      );
      expect(seen.filter((e) => e.type === 'signing').map((e) => e.payload.type)).toEqual([
        'evm-transaction',
        'evm-transaction',
      ]);
      const route = (seen[0] as Extract<RunSwapEvent, { type: 'quoted' }>).route;
      expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
      expect(await devnet.balanceOf('devnet-a', 'WETH', wallet.address)).toBeGreaterThanOrEqual(
        (expectedOutBaseUnits(route) * 9_900n) / 10_000n,
      );
    },
  );

  it('a sponsored step refuses a txHash with 400 TX_HASH_NOT_ACCEPTED: the service sends those', async () => {
    // WETH9 has no permit: the sponsored swap's first step is the wallet's own approve of Permit2,
    // its gas sent by the service first; the service broadcasts it, the wallet only signs.
    const amount = 10n ** 16n;
    const wallet = await freshWallet(0n, { WETH: amount });
    const { quoteId, route } = await quoteFirstRoute(swapApi, {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '0.01',
      slippageBps: 100,
    });
    const swapId = await buildSwapId(swapApi, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      waitForTxRequestMs: 20_000,
    });
    const res = await nextSigning(swapApi, swapId, 0);
    expect(res.status).toBe(200);
    const { signing } = res.body.data as SigningBody;
    expect(signing.payload.type).toBe('evm-transaction');
    expect(signing.executionHints).toMatchObject({ gasPaidBy: 'service' });

    // Any transaction the chain knows: the hash of the gas the service sent the wallet.
    const refused = await submitTxHash(swapId, signing.executionHints.gasDropTxHash);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'TX_HASH_NOT_ACCEPTED',
      details: { payloadType: 'evm-transaction', gasPaidBy: 'service' },
    });
    // Both fields, or neither: 400 VALIDATION_FAILED before anything is read.
    const path = `/swap/${swapId}/signing`;
    const both = await client.post(path, { rawTx: '0x02', txHash: signing.executionHints.gasDropTxHash });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('VALIDATION_FAILED');
    expect((await client.post(path, {})).body.error.code).toBe('VALIDATION_FAILED');
  });
});
