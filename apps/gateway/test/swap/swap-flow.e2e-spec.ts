import { randomUUID } from 'node:crypto';
import { HDNodeWallet, Transaction, TransactionRequest, Wallet } from 'ethers';
import { api, ApiClient, createApiKey, waitFor } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import { nextSigning, quoteFirstRoute, submitSigned, expectedOutBaseUnits } from '../support/swap-steps';

// A user's whole swap through HTTP on the devnet: quote, build, then for each step GET the payload,
// sign it with an ethers wallet (anvil account 1) and POST it, until the swap is terminal.
const devnet = new DevnetEvm();
const balanceOf = (chain: string, symbol: string, holder: string) => devnet.balanceOf(chain, symbol, holder);
const accountWallet = (index: number) => devnet.account(index);

interface SigningBody {
  swapId: string;
  mode: 'sync' | 'async';
  status: string;
  signing: {
    step: { current: number; total: number } | null;
    payload?: { type: string; transaction: TransactionRequest };
    expiresAtMs: number | null;
  };
}

describe('swap execution through HTTP on the devnet', () => {
  /** Polls go to the second gateway instance when the stack runs two; every answer is checked against the OpenAPI document. */
  let swapApi: E2eApi;
  let client: ApiClient;
  let poller: ApiClient;
  let documented: E2eApi['documented'];

  beforeAll(async () => {
    swapApi = await connectE2eApi('swap-e2e');
    ({ client, poller, documented } = swapApi);
  });

  afterAll(() => devnet.destroy());

  const quote = (body: Record<string, unknown>) =>
    quoteFirstRoute<{
      routeId: string;
      expectedAmountOut: string;
      tokenOutDecimals: number;
      stepCount: number;
    }>(swapApi, body);

  /** Signs and submits every step; returns the steps signed and the terminal status. */
  async function signEveryStep(swapId: string, wallet: Wallet | HDNodeWallet) {
    const signed: Array<{ current: number; total: number; to: string; txHash: string }> = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning(swapApi, swapId, step);
      if (res.status === 409) return { signed, terminal: res.body.error };
      const { signing } = res.body.data as SigningBody;
      expect(res.body.data.mode).toBe('sync');
      expect(signing.payload!.type).toBe('evm-transaction');
      const rawTx = await wallet.signTransaction(signing.payload!.transaction);
      const submitted = await submitSigned(swapApi, swapId, rawTx);
      expect(submitted.status).toBe(200);
      expect(submitted.body.data).toMatchObject({
        swapId,
        status: 'submitted',
        nextAction: 'poll',
        step: signing.step,
        txHash: Transaction.from(rawTx).hash,
      });
      signed.push({
        ...signing.step!,
        to: String(signing.payload!.transaction.to),
        txHash: submitted.body.data.txHash as string,
      });
      step = signing.step!.current;
    }
  }

  it('same chain: approve then swap USDC → WETH, balances move as quoted within slippage', async () => {
    const wallet = accountWallet(1);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '25',
      slippageBps: 100,
    });
    const usdcBefore = await balanceOf('devnet-a', 'USDC', wallet.address);
    const wethBefore = await balanceOf('devnet-a', 'WETH', wallet.address);

    const build = documented(
      'POST',
      '/swap/build',
      await client.post('/swap/build', {
        quoteId,
        routeId: route.routeId,
        userAddress: wallet.address,
        gasPayment: 'user',
        waitForTxRequestMs: 20_000,
      }),
    );
    expect([200, 202]).toContain(build.status);
    expect(build.body.data).toMatchObject({
      mode: build.status === 200 ? 'sync' : 'async',
      nextAction: build.status === 200 ? 'sign' : 'poll',
    });
    const swapId = build.body.data.swapId as string;

    const { signed, terminal } = await signEveryStep(swapId, wallet);

    expect(signed.map((s) => `${s.current}/${s.total}`)).toEqual(['1/2', '2/2']);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    const usdcSpent = usdcBefore - (await balanceOf('devnet-a', 'USDC', wallet.address));
    const wethGained = (await balanceOf('devnet-a', 'WETH', wallet.address)) - wethBefore;
    expect(usdcSpent).toBe(25_000_000n);
    const expected = expectedOutBaseUnits(route);
    expect(wethGained).toBeGreaterThanOrEqual((expected * 9_900n) / 10_000n);

    // The finished swap stays readable as a resource (the signing endpoint answers 409 for it):
    // every step with the transaction the wallet sent, confirmed, and what the quote promised.
    const read = documented('GET', `/swap/${swapId}`, await poller.get(`/swap/${swapId}`));
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      swapId,
      status: 'completed',
      failure: null,
      quoted: {
        quoteId,
        routeId: route.routeId,
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        amountIn: '25',
        expectedAmountOut: route.expectedAmountOut,
      },
      steps: [
        {
          index: 1,
          kind: 'approve',
          chain: 'devnet-a',
          status: 'confirmed',
          txHash: signed[0].txHash,
          submittedAtMs: expect.any(Number),
          confirmedAtMs: expect.any(Number),
        },
        {
          index: 2,
          kind: 'swap',
          chain: 'devnet-a',
          status: 'confirmed',
          txHash: signed[1].txHash,
          submittedAtMs: expect.any(Number),
          confirmedAtMs: expect.any(Number),
        },
      ],
    });
    expect(read.body.data.quoted.tokenIn).toMatchObject({
      symbol: 'USDC',
      address: devnet.chain('devnet-a').tokens.USDC.address,
      decimals: 6,
    });

    // Nobody else reads it: the same 404 SWAP_NOT_FOUND as an unknown swap.
    const stranger = api(client.baseUrl, await createApiKey(`swap-e2e-stranger-${randomUUID().slice(0, 8)}`));
    const foreign = documented('GET', `/swap/${swapId}`, await stranger.get(`/swap/${swapId}`));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('SWAP_NOT_FOUND');
    expect((await client.get(`/swap/${randomUUID()}`)).body.error.code).toBe('SWAP_NOT_FOUND');

    // Listed among the owner's completed swaps.
    const completed = documented(
      'GET',
      '/swaps?status=completed',
      await client.get('/swaps?status=completed&limit=100'),
    );
    expect(completed.status).toBe(200);
    expect(completed.body.data.map((s: { swapId: string }) => s.swapId)).toContain(swapId);
    expect(completed.body.data.every((s: { status: string }) => s.status === 'completed')).toBe(true);
  });

  it('lists the owner’s swaps newest first, a page at a time, filtered by status; refuses an unknown status and a foreign cursor', async () => {
    // A fresh API key owns exactly the swaps built here.
    const owner = api(client.baseUrl, await createApiKey(`swap-e2e-lister-${randomUUID().slice(0, 8)}`));
    const wallet = accountWallet(5);
    const built: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const quoted = await owner.post('/quote', {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '1',
      });
      expect(quoted.status).toBe(200);
      const build = await owner.post('/swap/build', {
        quoteId: quoted.body.data.quoteId,
        routeId: quoted.body.data.routes[0].routeId,
        userAddress: wallet.address,
        gasPayment: 'user',
        waitForTxRequestMs: 0,
      });
      expect([200, 202]).toContain(build.status);
      built.push(build.body.data.swapId as string);
    }
    const newestFirst = [...built].reverse();

    const first = documented('GET', '/swaps', await owner.get('/swaps?limit=2'));
    expect(first.status).toBe(200);
    expect(first.body.data.map((s: { swapId: string }) => s.swapId)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.meta.nextCursor).toEqual(expect.any(String));
    const second = documented(
      'GET',
      '/swaps',
      await owner.get(`/swaps?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`),
    );
    expect(second.body.data.map((s: { swapId: string }) => s.swapId)).toEqual(newestFirst.slice(2));
    expect(second.body.meta.nextCursor).toBeNull();

    // None of them completed; each is planning or awaiting its first signature.
    const none = documented('GET', '/swaps', await owner.get('/swaps?status=completed'));
    expect(none.body).toMatchObject({ data: [], meta: { nextCursor: null } });
    const open = await waitFor(
      async () => {
        const res = await owner.get('/swaps?status=awaiting_signature');
        return res.body.data.length === 3 ? res : null;
      },
      { timeoutMs: 60_000, intervalMs: 300, description: 'the three swaps to await their first signature' },
    );
    expect(open.body.data.map((s: { swapId: string }) => s.swapId)).toEqual(newestFirst);

    const unknown = documented('GET', '/swaps', await owner.get('/swaps?status=finished'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_FAILED');
    const tooMany = await owner.get('/swaps?limit=101');
    expect(tooMany.status).toBe(400);
    const foreignCursor = documented(
      'GET',
      '/swaps',
      await owner.get(`/swaps?status=planning&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`),
    );
    expect(foreignCursor.status).toBe(400);
    expect(foreignCursor.body.error.code).toBe('INVALID_CURSOR');
    // Another owner's list does not hold them.
    const others = await client.get('/swaps?limit=100');
    expect(others.body.data.map((s: { swapId: string }) => s.swapId)).not.toEqual(
      expect.arrayContaining([built[0]]),
    );
  });

  it('cross chain: approve → bridge deposit on devnet-a, then approve → swap on devnet-b once the relayer delivered', async () => {
    const wallet = accountWallet(2);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-b',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '40',
      slippageBps: 100,
    });
    const usdcBeforeA = await balanceOf('devnet-a', 'USDC', wallet.address);
    const daiBeforeB = await balanceOf('devnet-b', 'DAI', wallet.address);

    const build = await client.post('/swap/build', {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });
    expect([200, 202]).toContain(build.status);
    const { signed, terminal } = await signEveryStep(build.body.data.swapId, wallet);

    expect(signed.map((s) => `${s.current}/${s.total}`)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    expect(usdcBeforeA - (await balanceOf('devnet-a', 'USDC', wallet.address))).toBe(40_000_000n);
    const daiGained = (await balanceOf('devnet-b', 'DAI', wallet.address)) - daiBeforeB;
    expect(daiGained).toBeGreaterThanOrEqual((expectedOutBaseUnits(route) * 9_900n) / 10_000n);
  });

  it('refuses a signed transaction that differs from the payload with 409, a retried build answers the same swap and another build under its key 409 IDEMPOTENCY_CONFLICT', async () => {
    const wallet = accountWallet(3);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '5',
    });
    const key = `tamper-${randomUUID()}`;
    const body = {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    };
    const build = await client.post('/swap/build', body, { idempotencyKey: key });
    const again = await client.post('/swap/build', body, { idempotencyKey: key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.swapId).toBe(build.body.data.swapId);
    const swapId = build.body.data.swapId as string;
    // The same key with another build (another payer) is a conflict on the real endpoint, not a second swap.
    const conflicting = documented(
      'POST',
      '/swap/build',
      await client.post(
        '/swap/build',
        { ...body, userAddress: accountWallet(4).address },
        { idempotencyKey: key },
      ),
    );
    expect(conflicting.status).toBe(409);
    expect(conflicting.body.error.code).toBe('IDEMPOTENCY_CONFLICT');

    const ready = await nextSigning(swapApi, swapId);
    expect(ready.status).toBe(200);
    const transaction = {
      ...ready.body.data.signing.payload!.transaction,
      data: '0x095ea7b3' + '00'.repeat(64),
    };
    const tampered = documented(
      'POST',
      `/swap/${swapId}/signing`,
      await client.post(`/swap/${swapId}/signing`, { rawTx: await wallet.signTransaction(transaction) }),
    );
    expect(tampered.status).toBe(409);
    expect(tampered.body.error.code).toBe('TX_REQUEST_MISMATCH');

    const notHex = await client.post(`/swap/${swapId}/signing`, { rawTx: 'not-a-transaction' });
    expect(notHex.status).toBe(400);
    const otherOwner = api(client.baseUrl, await createApiKey(`swap-e2e-other-${randomUUID().slice(0, 8)}`));
    expect((await otherOwner.get(`/swap/${swapId}/signing`)).status).toBe(404);
    expect((await client.get(`/swap/${randomUUID()}/signing`)).status).toBe(404);
  });

  it('answers a zero-wait build 202 at once, and its retry with the same key replays that answer; another build under the key is a conflict', async () => {
    const wallet = accountWallet(5);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '2',
    });
    const key = `zero-wait-${randomUUID()}`;
    const body = {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 0,
    };

    const build = documented(
      'POST',
      '/swap/build',
      await client.post('/swap/build', body, { idempotencyKey: key }),
    );
    expect(build.status).toBe(202);
    expect(build.body.data).toMatchObject({ mode: 'async', nextAction: 'poll', status: 'planning' });
    // The answer was stored with the swap's row: a retry right after it is its replay, not a second run.
    const again = await client.post('/swap/build', body, { idempotencyKey: key });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(build.body.data);
    const other = await client.post(
      '/swap/build',
      { ...body, userAddress: accountWallet(4).address },
      { idempotencyKey: key },
    );
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');

    const ready = await nextSigning(swapApi, build.body.data.swapId as string);
    expect(ready.status).toBe(200);
  });

  it('answers 400 without userAddress and 404 QUOTE_NOT_FOUND for an unknown quote or another API key’s', async () => {
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '1',
    });
    const missing = documented(
      'POST',
      '/swap/build',
      await client.post('/swap/build', { quoteId, routeId: route.routeId }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    const unknown = documented(
      'POST',
      '/swap/build',
      await client.post('/swap/build', {
        quoteId: 'q_unknown',
        routeId: route.routeId,
        userAddress: accountWallet(4).address,
      }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('QUOTE_NOT_FOUND');
    const otherOwner = api(client.baseUrl, await createApiKey(`swap-e2e-thief-${randomUUID().slice(0, 8)}`));
    const borrowed = await otherOwner.post('/swap/build', {
      quoteId,
      routeId: route.routeId,
      userAddress: accountWallet(4).address,
    });
    expect(borrowed.status).toBe(404);
    expect(borrowed.body.error.code).toBe('QUOTE_NOT_FOUND');
  });
});
