import { ChainFamilies, encodeApprove, encodeUniswapV2Swap, isTaxedLeg } from '@swapgw/chains/families';
import { QuoteResult } from '@swapgw/contracts';
import {
  DEVNET_MNEMONIC,
  DevnetManifest,
  devnetWallet,
  GasHeadroomSigner,
  TAXED_TOKEN,
  UNISWAP_V2_ROUTER_ABI,
} from '@swapgw/devnet';
import {
  Contract,
  ContractRunner,
  formatUnits,
  JsonRpcProvider,
  NonceManager,
  parseUnits,
  toQuantity,
  Wallet,
} from 'ethers';
import { SystemClock } from '@swapgw/runtime';
import {
  planOf,
  QuoteServiceOnDevnet,
  quoteServiceOnDevnet,
  QuoteTestApp,
} from '../../test/support/quote-service-test-support';
import { TokenTaxProbe } from '../providers/token-tax-probe';
import { uniswapV2Deployment } from '../providers/uniswap-v2-deployments';

const TOKEN_ABI = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function mint(address to, uint256 amount)',
  'function setBlocked(address account, bool isBlocked)',
];

/**
 * Taxed tokens on the devnet: TAX (DevnetTaxedToken, taxed on its TAX/USDC pool) is measured on
 * chain by the token-tax probe, the quote reports the taxes and nets them out of its amounts, and
 * the swap the planner's encoding builds lands on chain with at least minAmountOut. Every wallet
 * that moves money is a fresh one; the TAX/USDC pool is this suite's own.
 */
describe('taxed tokens on the devnet (real anvil and PostgreSQL)', () => {
  let stack: QuoteServiceOnDevnet;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;
  let provider: JsonRpcProvider;
  let families: ChainFamilies;

  beforeAll(async () => {
    stack = await quoteServiceOnDevnet();
    ({ service, manifest } = stack);
    provider = stack.rpc('devnet-a');
    families = new ChainFamilies(service.registry, 5_000);
  });

  afterAll(() => stack?.close());

  const chainA = () => manifest.chains.find((c) => c.id === 'devnet-a')!;
  const token = (symbol: string) => chainA().tokens[symbol].address;
  const erc20 = (symbol: string, runner: ContractRunner = provider) =>
    new Contract(token(symbol), TOKEN_ABI, runner);
  // ethers answers a repeated nonce read from its short cache: each sender keeps its own count.
  let deployerSigner: NonceManager | undefined;
  const deployer = () => (deployerSigner ??= new NonceManager(devnetWallet(DEVNET_MNEMONIC, 0, provider)));

  /** A fresh wallet with ETH for gas and `usdc` USDC minted by the deployer. */
  async function freshWallet(usdc: bigint): Promise<{ address: string; signer: NonceManager }> {
    const wallet = new Wallet(Wallet.createRandom().privateKey, provider);
    await provider.send('anvil_setBalance', [wallet.address, toQuantity(parseUnits('10', 18))]);
    if (usdc > 0n) await (await erc20('USDC', deployer()).mint(wallet.address, usdc)).wait();
    // With headroom over each estimate, as wallets send: a pair whose last trade was in an earlier
    // second writes its price accumulators when the trade lands, which an exact estimate leaves no gas for.
    return { address: wallet.address, signer: new NonceManager(new GasHeadroomSigner(wallet)) };
  }

  /** A quote on devnet-a of `amount` (units of tokenIn). */
  const quoteOnA = (
    tokenIn: string,
    tokenOut: string,
    amount: string,
    extra: { slippageBps?: number; recipient?: string } = {},
  ) =>
    service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn,
      tokenOut,
      amount,
      ...extra,
    });

  function v2Route(quote: QuoteResult) {
    const index = quote.routes.findIndex((r) => r.provider === 'uniswap-v2');
    expect(index).toBeGreaterThanOrEqual(0);
    return { route: quote.routes[index], plan: planOf(quote, quote.routes[index].routeId) };
  }

  it('measures TAX on chain: the configured buy and sell taxes, no restriction; DAI measures 0', async () => {
    const deployment = uniswapV2Deployment(service.registry, 'devnet-a')!;
    const probe = new TokenTaxProbe(service.registry, families, new SystemClock());
    const controller = new AbortController();
    const tax = await probe.measure(
      {
        deployment,
        token: token('TAX'),
        pair: chainA().uniswapV2.pairs['TAX/USDC'],
        base: token('USDC'),
      },
      controller.signal,
    );
    expect(tax).toEqual({
      buyTaxBps: TAXED_TOKEN.buyTaxBps,
      sellTaxBps: TAXED_TOKEN.sellTaxBps,
      transferRestricted: false,
    });
    const dai = await probe.measure(
      { deployment, token: token('DAI'), pair: chainA().uniswapV2.pairs['USDC/DAI'], base: token('USDC') },
      controller.signal,
    );
    expect(dai).toEqual({ buyTaxBps: 0, sellTaxBps: 0, transferRestricted: false });
    // Vouched for by the manifest: not probed, 0.
    expect(probe.vouchedFor('devnet-a', token('USDC'))).toBe(true);
    expect(probe.vouchedFor('devnet-a', token('TAX'))).toBe(false);
  });

  it('quotes USDC → TAX with the buy tax taken out of expectedAmountOut and minAmountOut', async () => {
    const quote = await quoteOnA('USDC', 'TAX', '100', { slippageBps: 50 });
    const { route, plan } = v2Route(quote);
    expect(route).toMatchObject({ buyTaxBps: 300, sellTaxBps: 0 });
    expect(route.warnings).toContain('TOKEN_TAXED');
    expect(route.warnings).not.toContain('TOKEN_TRANSFER_RESTRICTED');
    const leg = plan.legs[0];
    expect(leg).toMatchObject({ buyTaxBps: 300, sellTaxBps: 0 });
    const router = new Contract(chainA().uniswapV2.router, UNISWAP_V2_ROUTER_ABI, provider);
    const amounts = (await router.getAmountsOut(leg.amountIn, leg.path)) as bigint[];
    const pool = amounts[amounts.length - 1];
    expect(BigInt(leg.expectedAmountOut)).toBe(pool - (pool * 300n) / 10_000n);
    expect(BigInt(leg.minAmountOut)).toBe((BigInt(leg.expectedAmountOut) * 9_950n) / 10_000n);
    expect(parseUnits(route.expectedAmountOut, 18)).toBe(BigInt(leg.expectedAmountOut));
    // Uniswap V3 is not on the devnet; its refusal of taxed tokens is in taxed-token-guard.spec.ts.
  });

  it('quotes TAX → USDC with the sell tax taken out of what the pool is paid', async () => {
    const quote = await quoteOnA('TAX', 'USDC', '1000', { slippageBps: 50 });
    const { route, plan } = v2Route(quote);
    expect(route).toMatchObject({ sellTaxBps: 500, buyTaxBps: 0 });
    const leg = plan.legs[0];
    const router = new Contract(chainA().uniswapV2.router, UNISWAP_V2_ROUTER_ABI, provider);
    const paid = BigInt(leg.amountIn) - (BigInt(leg.amountIn) * 500n) / 10_000n;
    const amounts = (await router.getAmountsOut(paid, leg.path)) as bigint[];
    expect(BigInt(leg.expectedAmountOut)).toBe(amounts[amounts.length - 1]);
  });

  it('quotes untaxed tokens with 0 taxes and no tax warning', async () => {
    const quote = await quoteOnA('USDC', 'DAI', '100');
    for (const route of quote.routes) {
      expect(route).toMatchObject({ buyTaxBps: 0, sellTaxBps: 0 });
      expect(route.warnings).not.toContain('TOKEN_TAXED');
    }
  });

  it('warns TOKEN_TRANSFER_RESTRICTED when TAX cannot be transferred to the recipient', async () => {
    const blocked = Wallet.createRandom().address;
    await (await erc20('TAX', deployer()).setBlocked(blocked, true)).wait();
    const quote = await quoteOnA('USDC', 'TAX', '100', { recipient: blocked });
    const { route } = v2Route(quote);
    expect(route.warnings).toEqual(expect.arrayContaining(['TOKEN_TAXED', 'TOKEN_TRANSFER_RESTRICTED']));
  });

  /** Sends the plan's swap as the planner encodes it for a user-paid build: approve, then the leg. */
  async function swapAsPlanned(wallet: { address: string; signer: NonceManager }, quote: QuoteResult) {
    const { plan } = v2Route(quote);
    const leg = plan.legs[0];
    expect(isTaxedLeg(leg)).toBe(true);
    const approve = encodeApprove(leg.tokenIn.address!, leg.spender, BigInt(leg.amountIn));
    await (await wallet.signer.sendTransaction(approve)).wait();
    const swap = encodeUniswapV2Swap({
      router: leg.spender,
      nativeIn: false,
      nativeOut: false,
      amountIn: BigInt(leg.amountIn),
      amountOutMin: BigInt(leg.minAmountOut),
      path: leg.path!,
      to: wallet.address,
      deadline: BigInt(Math.floor(Date.now() / 1000) + 600),
      feeOnTransfer: isTaxedLeg(leg),
    });
    const receipt = await (await wallet.signer.sendTransaction(swap)).wait();
    expect(receipt?.status).toBe(1);
    return leg;
  }

  it('swaps USDC → TAX and back on chain: each lands with at least minAmountOut, as expected after taxes', async () => {
    const wallet = await freshWallet(parseUnits('100', 6));
    const treasuryBefore = (await erc20('TAX').balanceOf(TAXED_TOKEN.treasury)) as bigint;
    const buy = await quoteOnA('USDC', 'TAX', '100', { slippageBps: 50 });
    const buyLeg = await swapAsPlanned(wallet, buy);
    const bought = (await erc20('TAX').balanceOf(wallet.address)) as bigint;
    expect(bought).toBeGreaterThanOrEqual(BigInt(buyLeg.minAmountOut));
    // Nothing else moved the TAX/USDC pool between the quote and the swap: exactly as quoted.
    expect(bought).toBe(BigInt(buyLeg.expectedAmountOut));
    const treasuryAfterBuy = (await erc20('TAX').balanceOf(TAXED_TOKEN.treasury)) as bigint;
    const poolSent = bought + (treasuryAfterBuy - treasuryBefore);
    expect(treasuryAfterBuy - treasuryBefore).toBe((poolSent * 300n) / 10_000n);

    // Selling back: a plain swapExactTokensForTokens would revert (the pair is paid less than amountIn).
    const sell = await service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'TAX',
      tokenOut: 'USDC',
      amount: formatUnits(bought, 18),
      slippageBps: 50,
    });
    // The sell is quoted with TAX's measured sell tax (a route quoted without it would ask for ~5 %
    // more than the pool pays and revert on chain): said here, before the trade, when it is not so.
    const sellRoute = v2Route(sell).route;
    expect({ sellTaxBps: sellRoute.sellTaxBps, warnings: sellRoute.warnings }).toEqual({
      sellTaxBps: 500,
      warnings: expect.not.arrayContaining(['TOKEN_TAX_UNCHECKED']),
    });
    const sellLeg = await swapAsPlanned(wallet, sell);
    const usdc = (await erc20('USDC').balanceOf(wallet.address)) as bigint;
    expect(usdc).toBeGreaterThanOrEqual(BigInt(sellLeg.minAmountOut));
    expect(usdc).toBe(BigInt(sellLeg.expectedAmountOut));
    // Two taxes and two pool fees: well short of the 100 USDC paid in.
    expect(usdc).toBeLessThan(parseUnits('92.5', 6));
  });
});
