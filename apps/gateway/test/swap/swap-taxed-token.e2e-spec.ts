import { formatUnits, parseUnits, Wallet } from 'ethers';
import { createGatewayClient, ethersSigner, GatewayClient, QuoteRoute, runSwap } from '@swapgw/sdk';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';

// A taxed token end to end: the devnet's TAX (300 bps on buys from its TAX/USDC pool, 500 bps on
// sells into it) is quoted with the taxes quote-service measured on chain, and user-paid swaps
// through the gateway land with what the quote said after taxes: buying TAX, then selling it back
// (which only works with Router02's fee-on-transfer functions: the wallet's own call, or the
// SwapGatewayRouter's, which a fee, a permit or covered gas go through).
// Fresh wallets only; the TAX/USDC pool is this suite's own.
const devnet = new DevnetEvm({ cacheTimeout: -1 });
const provider = devnet.provider('devnet-a');
/** Account 9 of the devnet mnemonic funds the fresh wallets (e2e files run one at a time). */
const funder = devnet.account(9).connect(provider);

async function freshWallet(usdc: bigint): Promise<Wallet> {
  const wallet = Wallet.createRandom().connect(provider) as unknown as Wallet;
  await (await funder.sendTransaction({ to: wallet.address, value: 10n ** 18n })).wait();
  const token = devnet.token('devnet-a', 'USDC', funder);
  await (await token.getFunction('transfer')(wallet.address, usdc)).wait();
  return wallet;
}

describe('taxed tokens: quoted with the measured taxes, swapped user-paid or sponsored with fee-on-transfer support', () => {
  let swapApi: E2eApi;
  let client: GatewayClient;

  beforeAll(async () => {
    swapApi = await connectE2eApi('taxed-token-e2e');
    client = createGatewayClient({ baseUrl: process.env.GATEWAY_URL!, apiKey: swapApi.apiKey });
  });

  afterAll(() => devnet.destroy());

  /** A user-paid swap on devnet-a through the gateway's Uniswap V2 route; the route it took. */
  async function swap(
    wallet: Wallet,
    tokenIn: string,
    tokenOut: string,
    amount: string,
    integratorFee?: { bps: number; recipient: string },
    gasPayment: 'user' | 'sponsored' = 'user',
  ) {
    let chosen: QuoteRoute | undefined;
    const result = await runSwap({
      client,
      quoteRequest: {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn,
        tokenOut,
        amount,
        slippageBps: 100,
        ...(integratorFee ? { integratorFee } : {}),
      },
      route: (routes) => (chosen = routes.find((route) => route.provider === 'uniswap-v2')),
      userAddress: wallet.address,
      build: { gasPayment, waitForTxRequestMs: 20_000 },
      signers: [ethersSigner(wallet)],
      timeoutMs: 120_000,
    });
    expect(result.swap.status).toBe('completed');
    return chosen!;
  }

  it('USDC → TAX lands net of the 3% buy tax, TAX → USDC net of the 5% sell tax, each at least minAmountOut', async () => {
    const wallet = await freshWallet(parseUnits('50', 6));

    const buy = await swap(wallet, 'USDC', 'TAX', '50');
    expect(buy).toMatchObject({ buyTaxBps: 300, sellTaxBps: 0 });
    expect(buy.warnings).toContain('TOKEN_TAXED');
    const tax = await devnet.balanceOf('devnet-a', 'TAX', wallet.address);
    expect(tax).toBeGreaterThanOrEqual(parseUnits(buy.minAmountOut, 18));
    // Nobody else trades the TAX pool: what arrived is exactly what the quote expected after the tax.
    expect(tax).toBe(parseUnits(buy.expectedAmountOut, 18));

    const sell = await swap(wallet, 'TAX', 'USDC', formatUnits(tax, 18));
    expect(sell).toMatchObject({ sellTaxBps: 500, buyTaxBps: 0 });
    const usdc = await devnet.balanceOf('devnet-a', 'USDC', wallet.address);
    expect(usdc).toBeGreaterThanOrEqual(parseUnits(sell.minAmountOut, 6));
    expect(usdc).toBe(parseUnits(sell.expectedAmountOut, 6));
  });

  it('USDC → TAX with an integrator fee: the SwapGatewayRouter pays the recipient exactly the fee in USDC and swaps the rest, the TAX landing net of the buy tax', async () => {
    const wallet = await freshWallet(parseUnits('30', 6));
    const feeRecipient = Wallet.createRandom().address;
    const routerUsdcBefore = await devnet.balanceOf(
      'devnet-a',
      'USDC',
      devnet.chain('devnet-a').permits!.permitRouter,
    );

    const buy = await swap(wallet, 'USDC', 'TAX', '30', { bps: 100, recipient: feeRecipient });
    expect(buy).toMatchObject({ buyTaxBps: 300, sellTaxBps: 0 });
    expect(buy.integratorFee).toEqual([
      { bps: 100, amount: '0.3', token: 'USDC', chain: 'devnet-a', recipient: feeRecipient },
    ]);
    expect(await devnet.balanceOf('devnet-a', 'USDC', feeRecipient)).toBe(parseUnits('0.3', 6));
    expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    expect(await devnet.balanceOf('devnet-a', 'USDC', devnet.chain('devnet-a').permits!.permitRouter)).toBe(
      routerUsdcBefore,
    );
    const tax = await devnet.balanceOf('devnet-a', 'TAX', wallet.address);
    expect(tax).toBeGreaterThanOrEqual(parseUnits(buy.minAmountOut, 18));
    // Quoted for the 29.7 USDC the fee leaves, net of the 3% tax; nobody else trades the pool.
    expect(tax).toBe(parseUnits(buy.expectedAmountOut, 18));
  });

  it('an untaxed pair reports 0 taxes', async () => {
    const { data } = await client.POST('/quote', {
      body: { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'WETH', amount: '10' },
    });
    const route = data!.data.routes.find((r) => r.provider === 'uniswap-v2')!;
    expect(route).toMatchObject({ buyTaxBps: 0, sellTaxBps: 0 });
  });

  it('TAX → USDC sponsored with an integrator fee, from a wallet holding no ETH: the fee recipient gets exactly the fee in TAX, the wallet at least minAmountOut after the sell tax', async () => {
    // The TAX comes from a wallet that bought it; a transfer between wallets is not taxed.
    const buyer = await freshWallet(parseUnits('20', 6));
    await swap(buyer, 'USDC', 'TAX', '20');
    const held = await devnet.balanceOf('devnet-a', 'TAX', buyer.address);
    const wallet = Wallet.createRandom().connect(provider) as unknown as Wallet;
    await (await devnet.token('devnet-a', 'TAX', buyer).getFunction('transfer')(wallet.address, held)).wait();
    expect(await provider.getBalance(wallet.address)).toBe(0n);
    const feeRecipient = Wallet.createRandom().address;

    const sell = await swap(
      wallet,
      'TAX',
      'USDC',
      formatUnits(held, 18),
      { bps: 50, recipient: feeRecipient },
      'sponsored',
    );
    expect(sell).toMatchObject({ sellTaxBps: 500, buyTaxBps: 0 });
    const [fee] = sell.integratorFee!;
    expect(fee).toMatchObject({ bps: 50, token: 'TAX', chain: 'devnet-a', recipient: feeRecipient });
    expect(await devnet.balanceOf('devnet-a', 'TAX', feeRecipient)).toBe(parseUnits(fee.amount, 18));
    expect(await devnet.balanceOf('devnet-a', 'TAX', wallet.address)).toBe(0n);
    const usdc = await devnet.balanceOf('devnet-a', 'USDC', wallet.address);
    expect(usdc).toBeGreaterThanOrEqual(parseUnits(sell.minAmountOut, 6));
    // Quoted for what the fee leaves, less the sell tax on its way into the pool; nobody else trades it.
    expect(usdc).toBe(parseUnits(sell.expectedAmountOut, 6));
    // It never held ETH of its own: its approve of Permit2 ran on the service's gas top-up.
  });
});
