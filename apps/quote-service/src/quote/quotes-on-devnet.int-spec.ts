import { DEVNET_BRIDGE_ABI, DevnetManifest } from '@swapgw/devnet';
import { QuoteResult, RoutePlan } from '@swapgw/contracts';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import { DataSource } from 'typeorm';
import {
  errorCodeOf,
  planOf,
  QuoteServiceOnDevnet,
  quoteServiceOnDevnet,
  QuoteTestApp,
} from '../../test/support/quote-service-test-support';
import { withChainStateScope } from '@swapgw/chains/families';
import { ManualClock } from '@swapgw/runtime';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { QuoteRetention } from './quote-retention';
import { QuoteRepository } from './quote.repository';
import { QuoteService } from './quote.service';

const ROUTER_ABI = [
  'function getAmountsOut(uint amountIn, address[] path) view returns (uint[] amounts)',
  'function getAmountsIn(uint amountOut, address[] path) view returns (uint[] amounts)',
];

describe('quote-service quotes on the devnet (real PostgreSQL and anvil)', () => {
  let stack: QuoteServiceOnDevnet;
  let database: QuoteServiceOnDevnet['database'];
  let dataSource: DataSource;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;
  const providers: Record<string, JsonRpcProvider> = {};

  beforeAll(async () => {
    stack = await quoteServiceOnDevnet();
    ({ service, manifest, database } = stack);
    dataSource = database.dataSource;
    for (const chain of manifest.chains) providers[chain.id] = stack.rpc(chain.id);
  });

  afterAll(() => stack?.close());

  const chainOf = (id: string) => manifest.chains.find((c) => c.id === id)!;
  const router = (chain: string) =>
    new Contract(chainOf(chain).uniswapV2.router, ROUTER_ABI, providers[chain]);

  /**
   * router.getAmountsOut for the plan's path, read in the same block as a fresh quote: other tests
   * may swap on a shared devnet, so a quote is retried (bounded) until no block lands in between.
   */
  async function quoteMatchingChain(
    request: Parameters<QuoteService['create']>[0],
    chain: string,
  ): Promise<{ quote: QuoteResult; plans: RoutePlan[]; onChain: bigint[][] }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await providers[chain].getBlockNumber();
      const quote = await service.quotes.create(request);
      const plans = quote.routes.map((r) => planOf(quote, r.routeId));
      const onChain = await Promise.all(
        plans.map(
          async (plan) =>
            (await router(chain).getAmountsOut(plan.amountIn, plan.legs[0].path!, {
              blockTag: before,
            })) as bigint[],
        ),
      );
      if ((await providers[chain].getBlockNumber()) === before) return { quote, plans, onChain };
    }
    throw new Error('the devnet kept mining blocks during the quote; could not compare with the router');
  }

  describe('same chain on Uniswap V2', () => {
    it('quotes USDC → DAI directly and through WETH, best output first, equal to router.getAmountsOut', async () => {
      const { quote, plans, onChain } = await quoteMatchingChain(
        { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1000' },
        'devnet-a',
      );
      expect(quote.quoteId).toMatch(/^qt_/);
      expect(quote.expiresAtMs).toBeGreaterThan(Date.now() + 50_000);
      expect(quote.routes).toHaveLength(2);
      const paths = plans.map((p) => p.legs[0].path!.length).sort();
      expect(paths).toEqual([2, 3]); // direct pool and the hop through WETH
      quote.routes.forEach((route, i) => {
        expect(route).toMatchObject({
          provider: 'uniswap-v2',
          providers: ['uniswap-v2'],
          stepCount: 1,
          family: 'same-chain',
        });
        expect(route.bridgeProvider).toBeUndefined();
        expect(route.estimatedDurationSeconds).toBeGreaterThan(0);
        const amounts = onChain[i];
        // Every amount in units of its token, with both tokens' decimals to convert.
        expect(route).toMatchObject({ amountIn: '1000', tokenInDecimals: 6, tokenOutDecimals: 18 });
        expect(parseUnits(route.expectedAmountOut, 18)).toBe(amounts[amounts.length - 1]);
        // No slippageBps asked: each route's own, from its price impact, at least the 30 bps floor.
        expect(route.slippageSource).toBe('auto');
        expect(route.slippageBps).toBeGreaterThanOrEqual(30);
        expect(parseUnits(route.minAmountOut, 18)).toBe(
          (amounts[amounts.length - 1] * BigInt(10_000 - route.slippageBps)) / 10_000n,
        );
      });
      expect(parseUnits(quote.routes[0].expectedAmountOut, 18)).toBeGreaterThan(
        parseUnits(quote.routes[1].expectedAmountOut, 18),
      );
    });

    it('stores an executable plan per route, served by quote.route.get', async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '1.5',
        slippageBps: 100,
      });
      const plan = planOf(quote, quote.routes[0].routeId);
      const chain = chainOf('devnet-a');
      expect(plan).toMatchObject({
        quoteId: quote.quoteId,
        routeId: quote.routes[0].routeId,
        expiresAtMs: quote.expiresAtMs,
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        amountIn: parseUnits('1.5', 18).toString(),
        expectedAmountOut: parseUnits(quote.routes[0].expectedAmountOut, 6).toString(),
        slippageBps: 100,
        providers: ['uniswap-v2'],
      });
      expect(plan.tokenIn).toEqual({
        chain: 'devnet-a',
        symbol: 'WETH',
        address: chain.tokens.WETH.address,
        decimals: 18,
      });
      expect(plan.tokenOut).toEqual({
        chain: 'devnet-a',
        symbol: 'USDC',
        address: chain.tokens.USDC.address,
        decimals: 6,
      });
      const [leg] = plan.legs;
      expect(leg).toMatchObject({
        kind: 'swap',
        chain: 'devnet-a',
        provider: 'uniswap-v2',
        spender: chain.uniswapV2.router,
      });
      expect(leg.path).toEqual([chain.tokens.WETH.address, chain.tokens.USDC.address]);
      const expected = BigInt(leg.expectedAmountOut);
      expect(BigInt(leg.minAmountOut)).toBe((expected * 9_900n) / 10_000n);
      // The route's minimum is the last leg's, in units of the token.
      expect(parseUnits(quote.routes[0].minAmountOut, 6)).toBe(BigInt(leg.minAmountOut));
    });

    it('tells the wallet what to sign for a permit build: the permit router, Permit2, token, amount and EIP-712 domain', async () => {
      const chain = chainOf('devnet-a');
      const usdc = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '25',
      });
      expect(usdc.routes[0].permit).toEqual({
        chain: 'devnet-a',
        chainId: chain.chainId,
        token: chain.tokens.USDC.address,
        amountBaseUnits: '25000000',
        spender: chain.permits.permitRouter,
        permit2: chain.permits.permit2,
        eip2612: { name: 'USD Coin', version: '1' },
      });
      // WETH9 has no EIP-2612 permit: Permit2 only. A bridge leg takes permits too; native ETH none.
      const weth = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '1',
      });
      expect(weth.routes[0].permit).toMatchObject({
        token: chain.tokens.WETH.address,
        spender: chain.permits.permitRouter,
      });
      expect(weth.routes[0].permit?.eip2612).toBeUndefined();
      const bridged = await service.quotes.create({
        fromChain: 'devnet-b',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '10',
      });
      expect(bridged.routes[0].permit).toMatchObject({
        chain: 'devnet-b',
        spender: chainOf('devnet-b').permits.permitRouter,
        amountBaseUnits: '10000000',
      });
      const eth = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'ETH',
        tokenOut: 'USDC',
        amount: '1',
      });
      expect(eth.routes[0].permit).toBeUndefined();
    });

    it('quotes the native coin through WETH and leaves ETH ↔ WETH (a wrap) without routes', async () => {
      const eth = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'ETH',
        tokenOut: 'USDC',
        amount: '1',
      });
      const plan = planOf(eth, eth.routes[0].routeId);
      expect(plan.tokenIn.address).toBeNull();
      expect(plan.legs[0].path![0]).toBe(chainOf('devnet-a').tokens.WETH.address);
      const wrap = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'ETH',
        tokenOut: 'WETH',
        amount: '1',
      });
      expect(wrap.routes).toEqual([]);
    });

    it('warns about price impact and thin liquidity only on a trade that drains the pool', async () => {
      const small = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '0.1',
      });
      expect(small.routes[0].warnings).toEqual([]);
      const large = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '400',
      });
      expect(large.routes[0].warnings).toEqual(
        expect.arrayContaining(['HIGH_PRICE_IMPACT', 'THIN_LIQUIDITY']),
      );
      expect(large.routes[0].warnings).not.toContain('AMOUNT_EXCEEDS_LIQUIDITY');
    });

    it('still quotes base units sent as the amount (25 USDC as "25000000"), saying it looks like base units and exceeds the pools', async () => {
      const mistaken = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '25000000',
      });
      expect(mistaken.routes.length).toBeGreaterThan(0);
      expect(mistaken.routes[0].amountIn).toBe('25000000');
      expect(mistaken.routes[0].warnings).toEqual(
        expect.arrayContaining([
          'AMOUNT_LOOKS_LIKE_BASE_UNITS',
          'AMOUNT_EXCEEDS_LIQUIDITY',
          'HIGH_PRICE_IMPACT',
        ]),
      );
      const meant = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '25',
      });
      expect(meant.routes[0].warnings).toEqual([]);
    });

    it('honours a token reference override over the symbol', async () => {
      const usdc = chainOf('devnet-a').tokens.USDC.address;
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'ANYTHING',
        tokenOut: 'DAI',
        amount: '10',
        tokenRefFromOverride: `eip155:31337:erc20:${usdc.toLowerCase()}`,
        debug: true,
      });
      const plan = planOf(quote, quote.routes[0].routeId);
      expect(plan.tokenIn).toMatchObject({ symbol: 'USDC', address: usdc, decimals: 6 });
      expect(plan.amountIn).toBe('10000000');
      await expect(
        errorCodeOf(
          service.quotes.create({
            fromChain: 'devnet-a',
            toChain: 'devnet-a',
            tokenIn: 'USDC',
            tokenOut: 'DAI',
            amount: '1',
            tokenRefToOverride: `eip155:31338:erc20:${usdc}`,
          }),
        ),
      ).resolves.toBe('UNKNOWN_TOKEN');
    });
  });

  describe('cross chain through the devnet bridge', () => {
    it('quotes WETH on devnet-a → DAI on devnet-b as swap, bridge, swap with amounts the contracts agree with', async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-b',
        tokenIn: 'WETH',
        tokenOut: 'DAI',
        amount: '2',
      });
      expect(quote.routes).toHaveLength(1);
      const [route] = quote.routes;
      expect(route).toMatchObject({
        providers: ['uniswap-v2', 'devnet-bridge', 'uniswap-v2'],
        bridgeProvider: 'devnet-bridge',
        stepCount: 3,
        family: 'cross-chain',
      });
      expect(route.provider).toBeUndefined();
      expect(route.estimatedDurationSeconds).toBe(5 + manifest.bridge.estimatedDurationSeconds + 5);

      const plan = planOf(quote, route.routeId);
      const [swapA, bridge, swapB] = plan.legs;
      const a = chainOf('devnet-a');
      const b = chainOf('devnet-b');
      expect(swapA).toMatchObject({ kind: 'swap', chain: 'devnet-a', spender: a.uniswapV2.router });
      expect(bridge).toMatchObject({
        kind: 'bridge',
        chain: 'devnet-a',
        provider: 'devnet-bridge',
        spender: a.bridge.address,
        destinationChain: 'devnet-b',
      });
      expect(swapB).toMatchObject({ kind: 'swap', chain: 'devnet-b', spender: b.uniswapV2.router });
      // Each leg feeds the next, and the bridge leg is what the bridge contract itself quotes.
      expect(bridge.amountIn).toBe(swapA.expectedAmountOut);
      const bridgeContract = new Contract(a.bridge.address, DEVNET_BRIDGE_ABI, providers['devnet-a']);
      expect(bridge.expectedAmountOut).toBe(
        ((await bridgeContract.quote(bridge.amountIn)) as bigint).toString(),
      );
      expect(swapB.amountIn).toBe(bridge.expectedAmountOut);
      expect(parseUnits(route.expectedAmountOut, route.tokenOutDecimals)).toBe(
        BigInt(swapB.expectedAmountOut),
      );
      expect(plan.bridgeProvider).toBe('devnet-bridge');
    });

    it('states the gas the service covers on each chain the legs touch, priced from the devnet nodes, and stores it with the route', async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-b',
        tokenIn: 'WETH',
        tokenOut: 'DAI',
        amount: '2',
      });
      const [route] = quote.routes;
      expect(route.gasCoverage).toMatchObject({ paidBy: 'service', userPays: '0' });
      // WETH has no EIP-2612 (approve paid by a top-up), USDC has; the relayer releases on devnet-b.
      expect(
        route.gasCoverage.chains.map((c) => [
          c.chain,
          c.feeSource,
          c.estimatedGasUnits,
          c.breakdown.map((b) => `${b.leg}:${b.kind}`),
        ]),
      ).toEqual([
        ['devnet-a', 'node', '521000', ['0:approve-top-up', '0:swap-intent', '1:permit', '1:bridge-intent']],
        ['devnet-b', 'node', '380000', ['1:bridge-release', '2:permit', '2:swap-intent']],
      ]);
      for (const entry of route.gasCoverage.chains) {
        const gasPrice = BigInt((await providers[entry.chain].send('eth_gasPrice', [])) as string);
        expect(BigInt(entry.feePerGasBaseUnits) * 2n).toBeGreaterThan(gasPrice);
        expect(BigInt(entry.feePerGasBaseUnits)).toBeLessThan(gasPrice * 2n);
        expect(BigInt(entry.estimatedCostBaseUnits)).toBe(
          BigInt(entry.estimatedGasUnits) * BigInt(entry.feePerGasBaseUnits),
        );
        expect(entry).toMatchObject({ nativeSymbol: 'ETH', nativeDecimals: 18 });
      }
      const rows: { summary: { gasCoverage: unknown } }[] = await dataSource.query(
        `SELECT "summary" FROM "${database.schema}"."quote_routes" WHERE "route_id" = $1`,
        [route.routeId],
      );
      expect(rows[0].summary.gasCoverage).toEqual(route.gasCoverage);
      // What the wallet signs on a sponsored build: only on devnet-a, the bridge leg binding the swap on devnet-b.
      expect(
        route.signatures.map(
          (sig) => `${sig.chain}:${sig.kind}:${sig.payloadType}${sig.mayBeSkipped ? '?' : ''}`,
        ),
      ).toEqual([
        'devnet-a:approve:evm-transaction?',
        'devnet-a:swap:evm-typed-data',
        'devnet-a:approve:evm-typed-data?',
        'devnet-a:bridge:evm-typed-data',
      ]);
    });

    it('answers AMOUNT_TOO_LOW when the source swap buys too little for the bridge to pay, with the least amount that quotes', async () => {
      const quoteWeth = (amount: string) =>
        withChainStateScope(() =>
          service.quotes.create({
            fromChain: 'devnet-a',
            toChain: 'devnet-b',
            tokenIn: 'WETH',
            tokenOut: 'USDC',
            amount,
          }),
        );
      const dust = await quoteWeth('0.000000000000000001');
      expect(dust.routes.filter((route) => route.bridgeProvider === 'devnet-bridge')).toEqual([]);
      const bridge = dust.unavailableRoutes.find((route) => route.provider === 'devnet-bridge');
      expect(bridge).toMatchObject({
        reason: 'AMOUNT_TOO_LOW',
        details: { token: 'WETH', chain: 'devnet-a', minAmount: expect.any(String) },
      });
      // The named amount quotes the whole route (swap, bridge), paying something on devnet-b.
      const enough = await quoteWeth(bridge!.details!.minAmount!);
      const route = enough.routes.find((candidate) => candidate.bridgeProvider === 'devnet-bridge');
      expect(route).toBeDefined();
      expect(parseUnits(route!.expectedAmountOut, 6)).toBeGreaterThan(0n);
    });

    it('quotes USDC → USDC across chains as the bridge alone, minus its fee', async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-b',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '1000',
      });
      expect(quote.routes).toHaveLength(1);
      expect(quote.routes[0]).toMatchObject({
        provider: 'devnet-bridge',
        providers: ['devnet-bridge'],
        bridgeProvider: 'devnet-bridge',
        stepCount: 1,
      });
      const expected = 1_000_000_000n - (1_000_000_000n * BigInt(manifest.bridge.feeBps)) / 10_000n;
      expect(parseUnits(quote.routes[0].expectedAmountOut, 6)).toBe(expected);
    });

    it("takes the integrator's fee from the input on the source chain: the bridge carries the rest, the plan carries the fee", async () => {
      const evmRecipient = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
      const other = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
      const quote = await service.quotes.create({
        fromChain: 'devnet-b',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '1000',
        integratorFee: [
          { bps: 100, recipient: evmRecipient },
          { bps: 25, recipient: other },
        ],
      });
      expect(quote.routes).toHaveLength(1);
      const [route] = quote.routes;
      expect(route.amountIn).toBe('1000');
      expect(route.integratorFee).toEqual([
        { bps: 100, amount: '10', token: 'USDC', chain: 'devnet-b', recipient: evmRecipient },
        { bps: 25, amount: '2.5', token: 'USDC', chain: 'devnet-b', recipient: other },
      ]);
      // 1000 − 10 − 2.5 = 987.5 USDC bridged, minus the bridge's own fee.
      const bridged = 987_500_000n;
      const expected = bridged - (bridged * BigInt(manifest.bridge.feeBps)) / 10_000n;
      expect(parseUnits(route.expectedAmountOut, 6)).toBe(expected);
      const plan = planOf(quote, route.routeId);
      expect(plan.amountIn).toBe('1000000000');
      expect(plan.legs[0].amountIn).toBe(bridged.toString());
      const usdc = {
        chain: 'devnet-b',
        symbol: 'USDC',
        address: chainOf('devnet-b').tokens.USDC.address,
        decimals: 6,
      };
      expect(plan.integratorFees).toEqual([
        { token: usdc, recipient: evmRecipient, bps: 100, amount: '10000000' },
        { token: usdc, recipient: other, bps: 25, amount: '2500000' },
      ]);
    });

    it("applies the key's default fee only to recipients of the source chain, and the request's own over it", async () => {
      const evmRecipient = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
      const defaultIntegratorFee = [
        { bps: 30, recipient: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' },
        { bps: 20, recipient: evmRecipient },
      ];
      const terms = {
        fromChain: 'devnet-b',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '1000',
      };
      const byDefault = await service.quotes.create({ ...terms, defaultIntegratorFee });
      expect(byDefault.routes[0].integratorFee).toEqual([
        { bps: 20, amount: '2', token: 'USDC', chain: 'devnet-b', recipient: evmRecipient },
      ]);
      const none = await service.quotes.create({ ...terms, defaultIntegratorFee, integratorFee: [] });
      expect(none.routes[0].integratorFee).toEqual([]);
      expect(planOf(none, none.routes[0].routeId).integratorFees).toBeUndefined();
      await expect(
        errorCodeOf(
          service.quotes.create({
            ...terms,
            integratorFee: [{ bps: 10, recipient: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' }],
          }),
        ),
      ).resolves.toBe('INVALID_ADDRESS');
    });
  });

  describe('no route and client errors', () => {
    it('answers an empty route list when no pool gives any output: AMOUNT_TOO_LOW with the least amount that quotes', async () => {
      const dust = await withChainStateScope(() =>
        service.quotes.create({
          fromChain: 'devnet-a',
          toChain: 'devnet-a',
          tokenIn: 'WETH',
          tokenOut: 'USDC',
          amount: '0.000000000000000001',
          debug: true,
        }),
      );
      expect(dust.routes).toEqual([]);
      expect(dust.quoteId).toMatch(/^qt_/);
      // The pool exists: the amount is what is too low, and the least that buys one unit of USDC is named.
      const v2 = dust.unavailableRoutes.find((route) => route.provider === 'uniswap-v2');
      expect(v2).toMatchObject({
        reason: 'AMOUNT_TOO_LOW',
        details: { token: 'WETH', chain: 'devnet-a', minAmount: expect.any(String) },
      });
      const block = (dust.debug!.chainBlocks as Record<string, number>)['devnet-a'];
      const path = [chainOf('devnet-a').tokens.WETH.address, chainOf('devnet-a').tokens.USDC.address];
      const [leastIn] = (await new Contract(
        chainOf('devnet-a').uniswapV2.router,
        ROUTER_ABI,
        providers['devnet-a'],
      ).getFunction('getAmountsIn')(1n, path, { blockTag: block })) as bigint[];
      expect(parseUnits(v2!.details!.minAmount!, 18)).toBe(leastIn);
    });

    it('answers an empty route list on a real network without RPC or aggregator', async () => {
      const quote = await service.quotes.create({
        fromChain: 'ethereum',
        toChain: 'ethereum',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '1',
      });
      expect(quote.routes).toEqual([]);
    });

    it.each([
      [
        'UNKNOWN_CHAIN',
        { fromChain: 'nowhere', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1' },
      ],
      [
        'UNKNOWN_CHAIN',
        {
          fromChain: 'devnet-a',
          toChain: 'devnet-a',
          tokenIn: 'USDC',
          tokenOut: 'DAI',
          amount: '1',
          network: 'mainnet' as const,
        },
      ],
      [
        'UNKNOWN_TOKEN',
        { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'NOPE', tokenOut: 'DAI', amount: '1' },
      ],
      [
        'SAME_TOKEN',
        { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'usdc', amount: '1' },
      ],
      [
        'INVALID_AMOUNT',
        { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '1.0000001' },
      ],
      [
        'INVALID_AMOUNT',
        { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '0' },
      ],
      [
        'INVALID_ADDRESS',
        {
          fromChain: 'devnet-a',
          toChain: 'devnet-a',
          tokenIn: 'USDC',
          tokenOut: 'DAI',
          amount: '1',
          recipient: '0x1234',
        },
      ],
    ])('rejects with %s: %j', async (code, request) => {
      await expect(errorCodeOf(service.quotes.create(request))).resolves.toBe(code);
    });

    it("answers every route's executable plan with the quote, in route order, as stored", async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'DAI',
        tokenOut: 'USDC',
        amount: '5',
      });
      expect(quote.routePlans.map((plan) => [plan.quoteId, plan.routeId])).toEqual(
        quote.routes.map((route) => [quote.quoteId, route.routeId]),
      );
      const rows: { route_id: string; plan: RoutePlan }[] = await dataSource.query(
        `SELECT "route_id", "plan" FROM "${database.schema}"."quote_routes" WHERE "quote_id" = $1 ORDER BY "rank"`,
        [quote.quoteId],
      );
      expect(rows.map((row) => row.plan)).toEqual(quote.routePlans);
    });

    it('prunes quotes and their plans only once the retention after expiry has passed', async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '5',
      });
      const routeId = quote.routes[0].routeId;
      const retentionMs = 60_000;
      const config = Object.assign(new QuoteServiceConfig(), { QUOTE_RETENTION_MS: retentionMs });
      const early = new QuoteRetention(
        new QuoteRepository(dataSource),
        config,
        new ManualClock(quote.expiresAtMs + retentionMs - 1),
      );
      await early.prune();
      const storedPlans = async () =>
        (
          await dataSource.query(`SELECT 1 FROM "${database.schema}"."quote_routes" WHERE "route_id" = $1`, [
            routeId,
          ])
        ).length;
      expect(await storedPlans()).toBe(1);
      const late = new QuoteRetention(
        new QuoteRepository(dataSource),
        config,
        new ManualClock(quote.expiresAtMs + retentionMs + 1),
      );
      expect(await late.prune()).toBeGreaterThanOrEqual(1);
      expect(await storedPlans()).toBe(0);
    });
  });
});
