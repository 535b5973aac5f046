import { withChainStateScope } from '@swapgw/chains/families';
import { QuoteResult } from '@swapgw/contracts';
import { DEVNET_MNEMONIC, DevnetManifest, devnetWallet, sellThroughUniswapV2 } from '@swapgw/devnet';
import { metricsRegistry } from '@swapgw/runtime';
import { Contract, JsonRpcProvider, NonceManager, parseUnits, toQuantity, Wallet } from 'ethers';
import {
  planOf,
  QuoteServiceOnDevnet,
  quoteServiceOnDevnet,
  QuoteTestApp,
} from '../../test/support/quote-service-test-support';

const ROUTER_ABI = ['function getAmountsOut(uint amountIn, address[] path) view returns (uint[] amounts)'];
const TOKEN_ABI = ['function mint(address to, uint256 amount)'];

/**
 * Chain state read once per block (issue 44, point 2): a quote reads each chain at one block, the
 * head when it was asked or later, names that block, and its figures are what the chain computes
 * there; every request of the same block shares that block's reads. Counted where they are sent
 * (`swapgw_rpc_requests_total`, the same counter the bench reads).
 */
describe('quotes read chain state once per block (real anvil and PostgreSQL)', () => {
  let stack: QuoteServiceOnDevnet;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;
  let provider: JsonRpcProvider;

  beforeAll(async () => {
    stack = await quoteServiceOnDevnet();
    ({ service, manifest } = stack);
    provider = stack.rpc('devnet-a', { fresh: true });
  });

  afterAll(() => stack?.close());

  const chainA = () => manifest.chains.find((c) => c.id === 'devnet-a')!;
  const router = () => new Contract(chainA().uniswapV2.router, ROUTER_ABI, provider);

  /** A quote as quote-service's request handler runs it: one chain-state scope per request. */
  const quoteUsdcToDai = (amount = '250'): Promise<QuoteResult> =>
    withChainStateScope(() =>
      service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'DAI',
        amount,
        debug: true,
      }),
    );

  const blockOf = (quote: QuoteResult): number => {
    const blocks = quote.debug?.chainBlocks as Record<string, number> | undefined;
    expect(blocks?.['devnet-a']).toEqual(expect.any(Number));
    return blocks!['devnet-a'];
  };

  /** Every Uniswap V2 route's output, and router.getAmountsOut for its path at `block`. */
  async function outputsAt(quote: QuoteResult, block: number): Promise<Array<[bigint, bigint]>> {
    const routes = quote.routes.filter((route) => route.provider === 'uniswap-v2');
    expect(routes.length).toBeGreaterThan(0);
    return Promise.all(
      routes.map(async (route) => {
        const plan = planOf(quote, route.routeId);
        const amounts = (await router().getAmountsOut(plan.amountIn, plan.legs[0].path!, {
          blockTag: block,
        })) as bigint[];
        return [parseUnits(route.expectedAmountOut, 18), amounts[amounts.length - 1]] as [bigint, bigint];
      }),
    );
  }

  /** JSON-RPC requests this process sent to devnet-a so far, by method. */
  async function rpcCalls(method: string): Promise<number> {
    const counter = metricsRegistry().getSingleMetric('swapgw_rpc_requests_total');
    const values = (await counter!.get()).values;
    return values
      .filter((value) => value.labels.chain === 'devnet-a' && value.labels.method === method)
      .reduce((sum, value) => sum + value.value, 0);
  }

  /** Another wallet sells `usdc` USDC for DAI through devnet-a's pool; the block it landed in. */
  async function tradeMovesThePool(usdc: bigint): Promise<number> {
    const deployer = new NonceManager(devnetWallet(DEVNET_MNEMONIC, 0, provider));
    const trader = new Wallet(Wallet.createRandom().privateKey, provider);
    await provider.send('anvil_setBalance', [trader.address, toQuantity(parseUnits('10', 18))]);
    const usdcToken = chainA().tokens.USDC.address;
    await (
      await new Contract(usdcToken, TOKEN_ABI, deployer).getFunction('mint')(trader.address, usdc)
    ).wait();
    const receipt = await sellThroughUniswapV2({
      router: chainA().uniswapV2.router,
      trader,
      path: [usdcToken, chainA().tokens.DAI.address],
      amountIn: usdc,
    });
    return receipt.blockNumber;
  }

  it('names the block it read, and equals router.getAmountsOut at that block, also right after a trade moves the pool', async () => {
    const before = await quoteUsdcToDai();
    for (const [quoted, onChain] of await outputsAt(before, blockOf(before))) expect(quoted).toBe(onChain);

    const tradeBlock = await tradeMovesThePool(parseUnits('20000', 6));
    const after = await quoteUsdcToDai();
    // Asked after the trade's receipt: the block it names is the trade's or later, never an older one.
    expect(blockOf(after)).toBeGreaterThanOrEqual(tradeBlock);
    const moved = await outputsAt(after, blockOf(after));
    for (const [quoted, onChain] of moved) expect(quoted).toBe(onChain);
    // The trade sold USDC into the pool: the same amount now buys less DAI than before it.
    const direct = (quote: QuoteResult) => parseUnits(quote.routes[0].expectedAmountOut, 18);
    expect(direct(after)).toBeLessThan(direct(before));
  });

  it("shares a block's reads between every request of that block: no eth_call repeated, one head read for many requests", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const first = await quoteUsdcToDai('100');
      const calls = await rpcCalls('eth_call');
      const heads = await rpcCalls('eth_blockNumber');
      const burst = await Promise.all(Array.from({ length: 20 }, () => quoteUsdcToDai('100')));
      const blocks = new Set(burst.map(blockOf));
      // Another suite may mine a block on the shared devnet meanwhile: then the burst spans two blocks.
      if (blocks.size !== 1 || !blocks.has(blockOf(first))) continue;
      expect(await rpcCalls('eth_call')).toBe(calls);
      expect((await rpcCalls('eth_blockNumber')) - heads).toBeLessThan(5);
      for (const quote of burst)
        expect(quote.routes.map((r) => r.expectedAmountOut)).toEqual(
          first.routes.map((r) => r.expectedAmountOut),
        );
      return;
    }
    throw new Error('the devnet mined a block during every burst; could not observe one block');
  });
});
