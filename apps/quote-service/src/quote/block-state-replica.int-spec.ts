import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REAL_NETWORK_CATALOG } from '@swapgw/chains';
import { withChainStateScope } from '@swapgw/chains/families';
import { QuoteResult } from '@swapgw/contracts';
import { DEVNET_MNEMONIC, devnetWallet, RunningMainnetReplica, startMainnetReplica } from '@swapgw/devnet';
import { freePort } from '@swapgw/testing';
import { Contract, JsonRpcProvider, Network, parseUnits } from 'ethers';
import {
  buildQuoteTestApp,
  createQuoteTestDatabase,
  planOf,
  QuoteTestApp,
} from '../../test/support/quote-service-test-support';

const QUOTER_V2_ABI = [
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  'function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
];
const SWAP_ROUTER_02_ABI = [
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
];
const ERC20_ABI = ['function approve(address spender, uint256 amount) returns (bool)'];

/**
 * Uniswap V3 quotes on the mainnet replica: base at chain id 8453 with Uniswap V3 at its canonical
 * addresses. Chain state is read once per block (issue 44, point 2): a quote of USDC → WETH names
 * the block it read, and its Uniswap V3 route pays what QuoterV2 answers at that block, also right
 * after another wallet's swap through SwapRouter02 moved the pool. An amount that buys nothing is
 * AMOUNT_TOO_LOW with the least that buys one unit (issue 48, point 5), through Across too.
 */
describe('quotes on the mainnet replica read one block, as QuoterV2 answers there (real anvil at mainnet ids)', () => {
  let workDir: string;
  let replica: RunningMainnetReplica;
  let database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  let service: QuoteTestApp;
  let base: JsonRpcProvider;
  const catalog = REAL_NETWORK_CATALOG.find((entry) => entry.chain === 'base')!;
  const usdc = catalog.tokens.find((token) => token.symbol === 'USDC')!.address;
  const weth = catalog.wrappedNative!;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quote-replica-'));
    replica = await startMainnetReplica({
      manifestPath: path.join(workDir, 'manifest.json'),
      portEthereum: await freePort(),
      portBase: await freePort(),
      portArbitrum: await freePort(),
    });
    const rpcOf = (id: string) =>
      replica.manifest.mainnetReplica.evm.find((chain) => chain.id === id)!.rpcUrl;
    database = await createQuoteTestDatabase();
    service = await buildQuoteTestApp(database.dataSource, {
      DEVNET_MANIFEST: replica.manifestPath,
      RPC_URL_ETHEREUM: rpcOf('ethereum'),
      RPC_URL_BASE: rpcOf('base'),
      RPC_URL_ARBITRUM: rpcOf('arbitrum'),
      // Across's fee API as the replica serves it (cross-chain quotes below).
      ACROSS_API_URL: replica.manifest.mainnetReplica.acrossApiUrl,
    });
    await service.sync.seed();
    base = new JsonRpcProvider(rpcOf('base'), Network.from(8453), {
      staticNetwork: Network.from(8453),
      cacheTimeout: -1,
    });
  }, 120_000);

  afterAll(async () => {
    base?.destroy();
    await service?.close();
    await database?.drop();
    await replica?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  const quoteUsdcToWeth = (): Promise<QuoteResult> =>
    withChainStateScope(() =>
      service.quotes.create({
        fromChain: 'base',
        toChain: 'base',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '3000',
        debug: true,
      }),
    );

  /** The quote's Uniswap V3 route (one pool), its output and what QuoterV2 answers for it at the quote's block. */
  async function v3RouteAgainstQuoter(
    quote: QuoteResult,
  ): Promise<{ block: number; quoted: bigint; onChain: bigint }> {
    const block = (quote.debug?.chainBlocks as Record<string, number>)?.base;
    expect(block).toEqual(expect.any(Number));
    const route = quote.routes.find((candidate) => candidate.provider === 'uniswap-v3');
    expect(route).toBeDefined();
    const leg = planOf(quote, route!.routeId).legs[0];
    expect(leg.poolFees).toHaveLength(1);
    const quoter = new Contract(catalog.uniswapV3!.quoterV2, QUOTER_V2_ABI, base);
    const [onChain] = (await quoter.quoteExactInputSingle.staticCall(
      {
        tokenIn: usdc,
        tokenOut: weth,
        amountIn: BigInt(leg.amountIn),
        fee: leg.poolFees![0],
        sqrtPriceLimitX96: 0,
      },
      { blockTag: block },
    )) as [bigint];
    return { block, quoted: parseUnits(route!.expectedAmountOut, 18), onChain };
  }

  it('prices Uniswap V3 as QuoterV2 at the block it names, before and right after a swap moves the pool', async () => {
    const before = await v3RouteAgainstQuoter(await quoteUsdcToWeth());
    expect(before.quoted).toBe(before.onChain);

    // Another wallet buys WETH with 300,000 USDC through SwapRouter02 in the quoted pool's tier.
    const trader = devnetWallet(DEVNET_MNEMONIC, 2, base);
    const router = catalog.uniswapV3!.swapRouter02;
    const amountIn = parseUnits('300000', 6);
    await (await new Contract(usdc, ERC20_ABI, trader).getFunction('approve')(router, amountIn)).wait();
    const swapped = await (
      await new Contract(router, SWAP_ROUTER_02_ABI, trader).getFunction('exactInputSingle')(
        {
          tokenIn: usdc,
          tokenOut: weth,
          fee: 500,
          recipient: trader.address,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0,
        },
        { gasLimit: 1_000_000 },
      )
    ).wait();

    const after = await v3RouteAgainstQuoter(await quoteUsdcToWeth());
    expect(after.block).toBeGreaterThanOrEqual(swapped!.blockNumber);
    expect(after.quoted).toBe(after.onChain);
    expect(after.quoted).toBeLessThan(before.quoted);
  });

  it('answers AMOUNT_TOO_LOW for a WETH amount that buys no USDC on Uniswap V3, naming the least amount QuoterV2 prices one unit at, which quotes', async () => {
    const quoteWethToUsdc = (amount: string) =>
      withChainStateScope(() =>
        service.quotes.create({
          fromChain: 'base',
          toChain: 'base',
          tokenIn: 'WETH',
          tokenOut: 'USDC',
          amount,
          debug: true,
        }),
      );
    const dust = await quoteWethToUsdc('0.000000000000000001');
    expect(dust.routes.filter((route) => route.provider === 'uniswap-v3')).toEqual([]);
    const v3 = dust.unavailableRoutes.find((route) => route.provider === 'uniswap-v3');
    expect(v3).toMatchObject({
      reason: 'AMOUNT_TOO_LOW',
      details: { token: 'WETH', chain: 'base', minAmount: expect.any(String) },
    });
    // The least input for one base unit of USDC, as QuoterV2 prices it at the quote's block: the
    // cheapest fee tier of the direct pool, or the path through another token if cheaper.
    const block = (dust.debug?.chainBlocks as Record<string, number>)?.base;
    const quoter = new Contract(catalog.uniswapV3!.quoterV2, QUOTER_V2_ABI, base);
    const direct: bigint[] = [];
    for (const fee of catalog.uniswapV3!.feeTiers) {
      const answer = await quoter.quoteExactOutputSingle
        .staticCall(
          { tokenIn: weth, tokenOut: usdc, amount: 1n, fee, sqrtPriceLimitX96: 0 },
          { blockTag: block },
        )
        .catch(() => null);
      if (answer) direct.push((answer as [bigint])[0]);
    }
    expect(direct.length).toBeGreaterThan(0);
    const minAmount = parseUnits(v3!.details!.minAmount!, 18);
    expect(minAmount).toBe(direct.reduce((least, amount) => (amount < least ? amount : least)));
    // That amount buys at least one unit through Uniswap V3.
    const enough = await quoteWethToUsdc(v3!.details!.minAmount!);
    const route = enough.routes.find((candidate) => candidate.provider === 'uniswap-v3');
    expect(route).toBeDefined();
    expect(parseUnits(route!.expectedAmountOut, 6)).toBeGreaterThanOrEqual(1n);
  });

  it('answers AMOUNT_TOO_LOW, not NO_LIQUIDITY, for a WETH amount whose swap into the bridged USDC buys nothing on the way to arbitrum through Across', async () => {
    const dust = await withChainStateScope(() =>
      service.quotes.create({
        fromChain: 'base',
        toChain: 'arbitrum',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '0.000000000000000001',
      }),
    );
    expect(dust.routes.filter((route) => route.provider === 'across')).toEqual([]);
    const across = dust.unavailableRoutes.find((route) => route.provider === 'across');
    expect(across).toMatchObject({ reason: 'AMOUNT_TOO_LOW', details: { token: 'WETH', chain: 'base' } });
    // The least WETH that buys one unit of USDC on base is named, as for the same-chain quote.
    const sameChain = await withChainStateScope(() =>
      service.quotes.create({
        fromChain: 'base',
        toChain: 'base',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '0.000000000000000001',
      }),
    );
    const v3 = sameChain.unavailableRoutes.find((route) => route.provider === 'uniswap-v3');
    expect(across!.details!.minAmount).toBe(v3!.details!.minAmount);
  });
});
