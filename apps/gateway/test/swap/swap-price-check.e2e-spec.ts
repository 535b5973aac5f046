import { HDNodeWallet, parseUnits, Transaction, Wallet } from 'ethers';
import type { EvmTransactionPayload } from '@swapgw/contracts';
import { ApiClient } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import { poolAmountOut, tradeThroughPool, UNISWAP_V2_ROUTER } from '../support/pool-trades';
import { handleEveryStep, quoteFirstRoute, signableTransaction, submitSigned } from '../support/swap-steps';

// Prices still true at build (issue 30, point 6): between the quote and the build another wallet
// trades through the same Uniswap V2 pool of devnet-a. A move beyond the quote's slippage is a 409
// QUOTE_PRICE_CHANGED with the price the pool gives now; the client accepts it and the swap
// completes bound to the new minimum. A small move within slippage builds as quoted.
// Every read afresh: the funder and the mover send several transactions in a row (pending nonces).
const devnet = new DevnetEvm({ cacheTimeout: -1 });
const provider = devnet.provider('devnet-a');
const chainA = devnet.chain('devnet-a');
/** Account 9 funds the fresh wallets (e2e files run one at a time). */
const funder = devnet.account(9).connect(provider);
/**
 * The other trader: a wallet of its own, so that its router allowance and its sales touch no
 * account another suite signs with (account 8 was: its approval made swap-solana's approve step
 * skipped, and its balance was whatever earlier suites had left).
 */
let mover: Wallet | undefined;
async function otherTrader(): Promise<Wallet> {
  if (!mover) {
    const wallet = Wallet.createRandom().connect(provider) as unknown as Wallet;
    await provider.send('anvil_setBalance', [wallet.address, '0x8AC7230489E80000']);
    const usdc = devnet.token('devnet-a', 'USDC', funder);
    await (await usdc.getFunction('transfer')(wallet.address, 200_000_000_000n)).wait();
    mover = wallet;
  }
  return mover;
}
const SLIPPAGE_BPS = 100n;

interface QuotedRoute {
  routeId: string;
  providers: string[];
  expectedAmountOut: string;
  minAmountOut: string;
  tokenOutDecimals: number;
}

/** A new wallet on devnet-a holding 1 ETH and `usdc` base units. */
async function freshWallet(usdc: bigint): Promise<Wallet> {
  const wallet = Wallet.createRandom().connect(provider) as unknown as Wallet;
  await (await funder.sendTransaction({ to: wallet.address, value: 10n ** 18n })).wait();
  await (await devnet.token('devnet-a', 'USDC', funder).getFunction('transfer')(wallet.address, usdc)).wait();
  return wallet;
}

/** Another wallet sells `usdc` base units of USDC for WETH through the devnet-a pool: WETH gets dearer. */
async function otherTraderSells(usdc: bigint): Promise<void> {
  await tradeThroughPool(devnet, 'devnet-a', await otherTrader(), 'USDC', 'WETH', usdc);
}

/** The other trader sells all the WETH it bought back to the pool (the price returns, less the fees). */
async function otherTraderBuysBack(trader: Wallet): Promise<void> {
  const held = await devnet.balanceOf('devnet-a', 'WETH', trader.address);
  if (held > 0n) await tradeThroughPool(devnet, 'devnet-a', trader, 'WETH', 'USDC', held);
}

/** What the pool pays now for `usdc` of USDC, in WETH base units. */
const poolOut = (usdc: bigint) => poolAmountOut(devnet, 'devnet-a', 'USDC', 'WETH', usdc);

const withSlippage = (amount: bigint) => (amount * (10_000n - SLIPPAGE_BPS)) / 10_000n;
const weth = (human: string) => parseUnits(human, 18);

describe('POST /swap/build re-checks the route price on the chain', () => {
  let swapApi: E2eApi;
  let client: ApiClient;
  let documented: E2eApi['documented'];

  beforeAll(async () => {
    swapApi = await connectE2eApi('price-check-e2e');
    ({ client, documented } = swapApi);
  });

  afterAll(async () => {
    // The pool is the whole e2e run's: sell back what the other trader bought, so the suites after
    // this one (limit-order triggers among them) find the price about where it was.
    if (mover) await otherTraderBuysBack(mover);
    devnet.destroy();
  });

  const quote20Usdc = () =>
    quoteFirstRoute<QuotedRoute>(swapApi, {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '20',
      slippageBps: Number(SLIPPAGE_BPS),
    });

  const build = async (body: Record<string, unknown>, idempotencyKey: string) =>
    documented('POST', '/swap/build', await client.post('/swap/build', body, { idempotencyKey }));

  /** Signs and submits every step (the wallet pays its gas) until the swap completes; the payloads signed. */
  async function signEveryStep(
    swapId: string,
    wallet: Wallet | HDNodeWallet,
  ): Promise<EvmTransactionPayload[]> {
    const handled = await handleEveryStep(swapApi, swapId, async (signing) => {
      // The payload's transaction as the API gives it is what ethers signs (nonce and amounts as strings).
      const rawTx = await wallet.signTransaction(signableTransaction(signing));
      const submitted = await submitSigned(swapApi, swapId, rawTx);
      expect(submitted.status).toBe(200);
      expect(submitted.body.data.txHash).toBe(Transaction.from(rawTx).hash);
    });
    return handled.map((signing) => signing.payload.transaction as EvmTransactionPayload);
  }

  it('a move beyond slippage is 409 QUOTE_PRICE_CHANGED with the pool’s new price; accepted, the swap completes bound to the new minimum', async () => {
    const amount = 20_000_000n; // 20 USDC
    const wallet = await freshWallet(amount);
    const { quoteId, route } = await quote20Usdc();
    expect(route.providers).toEqual(['uniswap-v2']);
    const quotedOut = weth(route.expectedAmountOut);

    // 60,000 USDC into a 3,000,000 USDC pool: WETH ~4 % dearer, beyond the 1 % slippage.
    await otherTraderSells(60_000_000_000n);
    const nowOut = await poolOut(amount);
    expect(nowOut).toBeLessThan(withSlippage(quotedOut));

    const key = `price-check-${Date.now()}`;
    const body = {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    };
    const refused = await build(body, key);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'QUOTE_PRICE_CHANGED',
      details: {
        routeId: route.routeId,
        quotedExpectedAmountOut: route.expectedAmountOut,
        quotedMinAmountOut: route.minAmountOut,
      },
    });
    const details = refused.body.error.details as Record<string, string>;
    // The figures are the pool's as it is now, through the quote's own pricing and slippage.
    expect(weth(details.expectedAmountOut)).toBe(nowOut);
    expect(weth(details.minAmountOut)).toBe(withSlippage(nowOut));
    // Nothing was built.
    const swaps = await client.get('/swaps');
    expect(swaps.status).toBe(200);
    expect(swaps.body.data).toEqual([]);

    // The client accepts: the same Idempotency-Key, the new minimum.
    const accepted = await build({ ...body, acceptedMinAmountOut: details.minAmountOut }, key);
    expect([200, 202]).toContain(accepted.status);
    expect(accepted.body.data.priceCheck).toMatchObject({
      outcome: 'accepted',
      expectedAmountOut: details.expectedAmountOut,
      minAmountOut: details.minAmountOut,
      quotedExpectedAmountOut: route.expectedAmountOut,
    });
    const swapId = accepted.body.data.swapId as string;

    const signed = await signEveryStep(swapId, wallet);
    const swapTx = signed.find((tx) => tx.to.toLowerCase() === chainA.uniswapV2.router.toLowerCase());
    expect(swapTx).toBeDefined();
    const [, amountOutMin] = UNISWAP_V2_ROUTER.decodeFunctionData(
      'swapExactTokensForTokens',
      swapTx!.data,
    ) as unknown as [bigint, bigint];
    // The payload binds the accepted price's minimum, not the quote's (which would have reverted).
    expect(amountOutMin).toBe(weth(details.minAmountOut));

    expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    const received = await devnet.balanceOf('devnet-a', 'WETH', wallet.address);
    expect(received).toBeGreaterThanOrEqual(weth(details.minAmountOut));
    expect(received).toBeLessThan(weth(route.minAmountOut));
    const read = await client.get(`/swap/${swapId}`);
    expect(read.body.data).toMatchObject({ status: 'completed' });
  });

  it('accepting a minimum the price no longer meets is 409 again, with the newer figures', async () => {
    const amount = 20_000_000n;
    const wallet = await freshWallet(amount);
    const { quoteId, route } = await quote20Usdc();
    await otherTraderSells(60_000_000_000n);
    const body = { quoteId, routeId: route.routeId, userAddress: wallet.address, gasPayment: 'user' };
    const key = `price-check-again-${Date.now()}`;
    const first = await build(body, key);
    expect(first.status).toBe(409);
    const seen = first.body.error.details as Record<string, string>;

    await otherTraderSells(60_000_000_000n);
    const again = await build({ ...body, acceptedMinAmountOut: seen.minAmountOut }, key);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('QUOTE_PRICE_CHANGED');
    const newer = again.body.error.details as Record<string, string>;
    expect(weth(newer.expectedAmountOut)).toBe(await poolOut(amount));
    expect(weth(newer.minAmountOut)).toBeLessThan(weth(seen.minAmountOut));
    expect(newer.acceptedMinAmountOut).toBe(seen.minAmountOut);
  });

  it('a small move within slippage builds as quoted, bound to the quote’s minimum, with the fresh price reported', async () => {
    const amount = 20_000_000n;
    const wallet = await freshWallet(amount);
    const { quoteId, route } = await quote20Usdc();
    const quotedOut = weth(route.expectedAmountOut);

    // 1,000 USDC into the pool: well within 1 %.
    await otherTraderSells(1_000_000_000n);
    const nowOut = await poolOut(amount);
    expect(nowOut).toBeLessThan(quotedOut);
    expect(nowOut).toBeGreaterThanOrEqual(withSlippage(quotedOut));

    const built = await build(
      {
        quoteId,
        routeId: route.routeId,
        userAddress: wallet.address,
        gasPayment: 'user',
        waitForTxRequestMs: 20_000,
      },
      `price-check-small-${Date.now()}`,
    );
    expect([200, 202]).toContain(built.status);
    const { priceCheck } = built.body.data;
    expect(priceCheck).toMatchObject({
      outcome: 'within-slippage',
      minAmountOut: route.minAmountOut,
      quotedExpectedAmountOut: route.expectedAmountOut,
      quotedMinAmountOut: route.minAmountOut,
    });
    expect(weth(priceCheck.expectedAmountOut)).toBe(nowOut);

    const signed = await signEveryStep(built.body.data.swapId as string, wallet);
    const swapTx = signed.find((tx) => tx.to.toLowerCase() === chainA.uniswapV2.router.toLowerCase());
    const [, amountOutMin] = UNISWAP_V2_ROUTER.decodeFunctionData(
      'swapExactTokensForTokens',
      swapTx!.data,
    ) as unknown as [bigint, bigint];
    expect(amountOutMin).toBe(weth(route.minAmountOut));
    expect(await devnet.balanceOf('devnet-a', 'WETH', wallet.address)).toBe(nowOut);
  });
});
