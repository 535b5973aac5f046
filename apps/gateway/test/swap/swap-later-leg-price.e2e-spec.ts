import { parseUnits, Wallet } from 'ethers';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import { poolAmountOut, tradeThroughPool } from '../support/pool-trades';
import {
  buildSwapId,
  handleEveryStep,
  signableTransaction,
  quoteFirstRoute,
  submitSigned,
} from '../support/swap-steps';

// Prices still true before each step that spends (issue 30, point 6): a cross-chain route bridges
// USDC from devnet-a and swaps it to DAI on devnet-b. The build only prices the bridge (a fixed
// amount); the devnet-b swap is priced again when its turn comes. Here another wallet trades
// through devnet-b's USDC/DAI pool after the quote, beyond the quote's slippage: the swap step is
// never issued (it would revert); the swap fails QUOTE_PRICE_CHANGED with the new figures and the
// user keeps the bridged USDC on devnet-b. (swap-flow's cross-chain test is the price that held.)
const devnet = new DevnetEvm({ cacheTimeout: -1 });
const providerA = devnet.provider('devnet-a');
const providerB = devnet.provider('devnet-b');
const USDC_B = devnet.chain('devnet-b').tokens.USDC.address;
/** Account 9 funds the fresh wallets (e2e files run one at a time). */
const funderA = devnet.account(9).connect(providerA);
const funderB = devnet.account(9).connect(providerB);
const SLIPPAGE_BPS = 100;
const dai = (human: string) => parseUnits(human, 18);

let mover: Wallet | undefined;

/** A new wallet holding gas on both chains and `usdc` base units of USDC on devnet-a. */
async function freshWallet(usdc: bigint): Promise<Wallet> {
  const wallet = Wallet.createRandom();
  await (await funderA.sendTransaction({ to: wallet.address, value: 10n ** 18n })).wait();
  await providerB.send('anvil_setBalance', [wallet.address, '0xDE0B6B3A7640000']);
  await (
    await devnet.token('devnet-a', 'USDC', funderA).getFunction('transfer')(wallet.address, usdc)
  ).wait();
  return wallet as unknown as Wallet;
}

/** Another wallet sells `usdc` base units of USDC for DAI through devnet-b's pool: DAI gets dearer. */
async function otherTraderSellsOnB(usdc: bigint): Promise<void> {
  if (!mover) {
    mover = Wallet.createRandom().connect(providerB) as unknown as Wallet;
    await providerB.send('anvil_setBalance', [mover.address, '0x8AC7230489E80000']);
  }
  await (await devnet.token('devnet-b', 'USDC', funderB).getFunction('transfer')(mover.address, usdc)).wait();
  await tradeThroughPool(devnet, 'devnet-b', mover, 'USDC', 'DAI', usdc);
}

/** The other trader sells its DAI back: the pool returns about where it was for the suites after this one. */
async function otherTraderBuysBack(trader: Wallet): Promise<void> {
  const held = await devnet.balanceOf('devnet-b', 'DAI', trader.address);
  if (held > 0n) await tradeThroughPool(devnet, 'devnet-b', trader, 'DAI', 'USDC', held);
}

interface QuotedRoute {
  routeId: string;
  providers: string[];
  expectedAmountOut: string;
  minAmountOut: string;
}

describe('a later leg is priced again before its step spends', () => {
  let swapApi: E2eApi;

  beforeAll(async () => {
    swapApi = await connectE2eApi('later-leg-price-e2e');
  });

  afterAll(async () => {
    if (mover) await otherTraderBuysBack(mover);
    devnet.destroy();
  });

  it('the destination swap moved beyond slippage after the quote: no swap payload; failed QUOTE_PRICE_CHANGED, the bridged USDC kept on devnet-b', async () => {
    const amount = 40_000_000n; // 40 USDC
    const wallet = await freshWallet(amount);
    const { quoteId, route } = await quoteFirstRoute<QuotedRoute>(swapApi, {
      fromChain: 'devnet-a',
      toChain: 'devnet-b',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '40',
      slippageBps: SLIPPAGE_BPS,
    });
    expect(route.providers).toEqual(['devnet-bridge', 'uniswap-v2']);

    // 120,000 USDC into a 3,000,000 USDC/DAI pool: DAI ~8 % dearer, far beyond the 1 % slippage.
    await otherTraderSellsOnB(120_000_000_000n);
    // The bridge pays a fixed amount: the build's own price check finds nothing moved.
    const swapId = await buildSwapId(swapApi, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });

    // approve and deposit on devnet-a, approve on devnet-b: none spends on devnet-b's pool.
    const handled = await handleEveryStep(
      swapApi,
      swapId,
      async (signing) => {
        const connected = wallet.connect(signing.step.current <= 2 ? providerA : providerB);
        const rawTx = await connected.signTransaction(signableTransaction(signing));
        expect((await submitSigned(swapApi, swapId, rawTx)).status).toBe(200);
      },
      { status: 'failed', reason: 'QUOTE_PRICE_CHANGED' },
    );
    const signedKinds = handled.map((signing) => `${signing.step.current}:${signing.clientHints.action}`);
    // The swap step (4) was never offered.
    expect(signedKinds).toEqual(['1:approve', '2:bridge', '3:approve']);

    const read = await swapApi.client.get(`/swap/${swapId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      status: 'failed',
      failure: {
        reason: 'QUOTE_PRICE_CHANGED',
        details: {
          step: { current: 4, total: 4 },
          chain: 'devnet-b',
          kind: 'swap',
          quotedExpectedAmountOut: route.expectedAmountOut,
          quotedMinAmountOut: route.minAmountOut,
          heldToken: { chain: 'devnet-b', symbol: 'USDC', address: USDC_B },
        },
      },
    });
    const details = read.body.data.failure.details as Record<string, string>;
    // The new figures are the pool's as it is now for what the bridge delivered.
    const bridged = await devnet.balanceOf('devnet-b', 'USDC', wallet.address);
    expect(bridged).toBeGreaterThan(0n);
    expect(dai(details.expectedAmountOut)).toBeLessThan(dai(route.minAmountOut));
    expect(dai(details.expectedAmountOut)).toBe(
      await poolAmountOut(devnet, 'devnet-b', 'USDC', 'DAI', bridged),
    );
    // The user holds the bridged USDC on devnet-b and no DAI: nothing reverted, nothing was swapped.
    expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    expect(await devnet.balanceOf('devnet-b', 'DAI', wallet.address)).toBe(0n);
  });
});
