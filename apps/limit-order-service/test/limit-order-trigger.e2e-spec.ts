import { randomUUID } from 'node:crypto';
import { Contract, JsonRpcProvider, NonceManager, parseUnits } from 'ethers';
import {
  devnetChain,
  devnetWallet,
  ERC20_PERMIT_ABI,
  loadDevnetManifest,
  sellThroughUniswapV2,
  UNISWAP_V2_ROUTER_ABI,
} from '@swapgw/devnet';
import { api, ApiClient, createApiKey, e2eGatewayUrl, testEnv, waitFor } from '@swapgw/testing';

/**
 * The trigger path on the devnet: a GTC order whose limit sits just above the market stays open;
 * a trade on the pool moves the price past it; the watcher re-quotes, builds the swap for the
 * order's recipient through execution-planner and the order turns `triggered` with its swapId,
 * which the owner then polls on GET /swap/{swapId}/signing.
 */
const gatewayUrl = e2eGatewayUrl();

describe('limit order trigger on the devnet', () => {
  const manifest = loadDevnetManifest(testEnv().devnetManifest);
  const chain = devnetChain(manifest, 'devnet-a');
  const provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true });
  // Account 3 moves the market; account 1 is the order's wallet.
  const trader = new NonceManager(devnetWallet(manifest.mnemonic, 3, provider));
  const signer = manifest.accounts.find((a) => a.index === 1)?.address as string;
  const router = new Contract(chain.uniswapV2.router, UNISWAP_V2_ROUTER_ABI, trader);
  const usdc = new Contract(chain.tokens.USDC.address, ERC20_PERMIT_ABI, trader);
  const weth = new Contract(chain.tokens.WETH.address, ERC20_PERMIT_ABI, trader);
  let client: ApiClient;
  let wethBought = 0n;

  beforeAll(async () => {
    client = api(gatewayUrl, await createApiKey(`lo-trigger-${randomUUID().slice(0, 8)}`));
  });

  afterAll(async () => {
    // Put the pool back roughly where it was, for the suites that run after this one.
    if (wethBought > 0n) await swap(weth, usdc, wethBought);
    provider.destroy();
  });

  const expectStatus = (res: { status: number }, status: number) => expect(res.status).toBe(status);

  async function swap(from: Contract, to: Contract, amountIn: bigint): Promise<bigint> {
    const trader3 = await trader.getAddress();
    const before: bigint = await to.balanceOf(trader3);
    await sellThroughUniswapV2({
      router: chain.uniswapV2.router,
      trader,
      path: [await from.getAddress(), await to.getAddress()],
      amountIn,
    });
    return (await to.balanceOf(trader3)) - before;
  }

  it('FOK expires when the whole amount misses the limit; IOC triggers the largest part that meets it', async () => {
    // 100 WETH at >= 2900 USDC each: the pool (1000 WETH deep at ~3000) cannot fill it all.
    const order = {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '100',
      minAmountOut: '290000',
      recipient: signer,
    };
    const fok = await client.post(
      '/limit-orders/limit',
      { ...order, timeInForce: 'FOK' },
      { idempotencyKey: `fok-${randomUUID()}` },
    );
    expect(fok.status).toBe(200);
    expect(fok.body.data).toMatchObject({ status: 'expired', minAmountOut: '290000' });
    const fokView = (await client.get(`/limit-orders/limit/${fok.body.data.limitOrderId}`)).body.data;
    expect(fokView).toMatchObject({
      status: 'expired',
      timeInForce: 'FOK',
      swapId: null,
      filledAmount: null,
    });

    const ioc = await client.post(
      '/limit-orders/limit',
      { ...order, timeInForce: 'IOC' },
      { idempotencyKey: `ioc-${randomUUID()}` },
    );
    expect(ioc.status).toBe(200);
    expect(ioc.body.data.status).toBe('triggered');
    const iocView = (await client.get(`/limit-orders/limit/${ioc.body.data.limitOrderId}`)).body.data;
    expect(iocView.swapId).toMatch(/^[0-9a-f-]{36}$/);
    const filled = parseUnits(iocView.filledAmount, 18);
    expect(filled).toBeGreaterThan(0n);
    expect(filled).toBeLessThan(parseUnits('100', 18));
    // What was filled meets the limit price on the pool as it is now.
    const [, out]: bigint[] = await router.getAmountsOut(filled, [
      chain.tokens.WETH.address,
      chain.tokens.USDC.address,
    ]);
    expect(out * parseUnits('100', 18)).toBeGreaterThanOrEqual(parseUnits('290000', 6) * filled);

    expectStatus(
      await client.post(
        '/limit-orders/limit',
        { ...order, recipient: undefined, timeInForce: 'IOC' },
        { idempotencyKey: `ioc-${randomUUID()}` },
      ),
      400,
    );
  });

  it('an order just above the market triggers after a trade moves the price, with a swap built for its wallet', async () => {
    // The market as the pool prices 1 WETH now (what quote-service's Uniswap V2 provider reads too).
    const [, marketOut]: bigint[] = await router.getAmountsOut(parseUnits('1', 18), [
      chain.tokens.WETH.address,
      chain.tokens.USDC.address,
    ]);
    // 2% better than the market: not met now.
    const limit = (marketOut * 102n) / 100n;
    const minAmountOut = (Number(limit) / 1e6).toFixed(6);

    const created = await client.post(
      '/limit-orders/limit',
      {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '1',
        minAmountOut,
        recipient: signer,
      },
      { idempotencyKey: `trigger-${randomUUID()}` },
    );
    expect(created.status).toBe(200);
    expect(created.body.data.status).toBe('open');
    const id = created.body.data.limitOrderId;

    // Someone buys WETH with 150,000 USDC: WETH gets ~10% dearer in USDC.
    wethBought = await swap(usdc, weth, parseUnits('150000', 6));
    expect(wethBought).toBeGreaterThan(0n);

    const triggered = await waitFor(
      async () => {
        const res = await client.get(`/limit-orders/limit/${id}`);
        return res.body.data.status === 'triggered' ? res.body.data : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, description: `limit order ${id} to trigger` },
    );
    expect(triggered.swapId).toMatch(/^[0-9a-f-]{36}$/);
    expect(triggered.filledAmount).toBe('1');

    // The swap exists for the owner: its signing endpoint answers (ready or still building).
    const signing = await waitFor(
      async () => {
        const res = await client.get(`/swap/${triggered.swapId}/signing`);
        return res.status === 200 || res.status === 202 ? res : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the triggered swap to be readable' },
    );
    expect(signing.body.data.swapId).toBe(triggered.swapId);
  });
});
