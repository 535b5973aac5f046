import { Keypair } from '@solana/web3.js';
import { DEVNET_BRIDGE_ABI, DevnetManifest } from '@swapgw/devnet';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import {
  errorCodeOf,
  planOf,
  QuoteServiceOnDevnet,
  quoteServiceOnDevnet,
  QuoteTestApp,
} from '../../test/support/quote-service-test-support';

const ROUTER_ABI = ['function getAmountsOut(uint amountIn, address[] path) view returns (uint[] amounts)'];

// Quotes between the anvil chains and the local Solana chain over the devnet USDC bridge, against
// the real devnet (pools read on chain, the bridge fee read from the contract) and PostgreSQL.
describe('quote-service quotes between EVM and solana-devnet (real PostgreSQL, anvil and the Solana devnet)', () => {
  let stack: QuoteServiceOnDevnet;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;
  let provider: JsonRpcProvider;
  const solanaUser = Keypair.generate().publicKey.toBase58();

  beforeAll(async () => {
    stack = await quoteServiceOnDevnet();
    ({ service, manifest } = stack);
    provider = stack.rpc('devnet-a');
  });

  afterAll(() => stack?.close());

  const chainA = () => manifest.chains.find((c) => c.id === 'devnet-a')!;
  /** What the EVM bridge contract itself says a deposit of `amount` releases. */
  const bridgeQuote = async (amount: bigint) =>
    (await new Contract(chainA().bridge.address, DEVNET_BRIDGE_ABI, provider).quote(amount)) as bigint;

  describe('catalog', () => {
    it('lists solana-devnet with SOL and its USDC mint, and USDC pairs with the EVM chains', async () => {
      const { chains } = await service.catalog.listChains();
      expect(chains.map((c) => c.id)).toEqual(
        expect.arrayContaining(['devnet-a', 'devnet-b', 'solana-devnet']),
      );
      const { tokens } = await service.catalog.listTokens({ chainRef: 'solana-devnet', debug: true });
      const bySymbol = Object.fromEntries(tokens.map((t) => [t.symbol, t]));
      expect(bySymbol.USDC).toMatchObject({
        chain: 'solana-devnet',
        mint: manifest.solana.tokens.USDC.mint,
        decimals: 6,
      });
      expect(bySymbol.USDC.address).toBeUndefined();
      // The bridge to the EVM chains and Noble, and Noble's forwarding routes to the Cosmos chains.
      expect(bySymbol.USDC.debug).toMatchObject({
        supported: true,
        providers: ['devnet-bridge', 'noble-forwarding'],
      });
      expect(bySymbol.SOL).toMatchObject({ chain: 'solana-devnet', decimals: 9 });
      expect(bySymbol.SOL.debug).toMatchObject({ supported: false });

      const pairsOf = async (request: { tokenIn?: string; tokenOut?: string; supportedOnly?: boolean }) =>
        (await service.catalog.listPairs({ ...request, limit: 500, debug: true })).pairs.filter((p) =>
          [p.fromChain, p.toChain].includes('solana-devnet'),
        );
      const toSolanaUsdc = await pairsOf({ tokenOut: 'USDC', supportedOnly: true });
      expect(toSolanaUsdc).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            fromChain: 'devnet-a',
            toChain: 'solana-devnet',
            tokenIn: 'WETH',
            tokenOut: 'USDC',
          }),
          expect.objectContaining({
            fromChain: 'devnet-b',
            toChain: 'solana-devnet',
            tokenIn: 'USDC',
            tokenOut: 'USDC',
          }),
          expect.objectContaining({
            fromChain: 'solana-devnet',
            toChain: 'devnet-a',
            tokenIn: 'USDC',
            tokenOut: 'USDC',
          }),
        ]),
      );
      expect(await pairsOf({ tokenIn: 'SOL', supportedOnly: true })).toEqual([]);
      // Listed (same family) but unsupported: nothing swaps on the Solana devnet without a Jupiter stand-in.
      expect(await pairsOf({ tokenIn: 'SOL', tokenOut: 'USDC' })).toEqual([
        expect.objectContaining({
          fromChain: 'solana-devnet',
          toChain: 'solana-devnet',
          debug: expect.objectContaining({ supported: false }),
        }),
      ]);
    });
  });

  describe('EVM → Solana', () => {
    it('quotes WETH on devnet-a → USDC on solana-devnet as a swap then the bridge, amounts as the router and bridge say', async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'solana-devnet',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '0.5',
        recipient: solanaUser,
      });
      expect(quote.routes).toHaveLength(1);
      const [route] = quote.routes;
      expect(route).toMatchObject({
        providers: ['uniswap-v2', 'devnet-bridge'],
        bridgeProvider: 'devnet-bridge',
        family: 'cross-chain',
        stepCount: 2,
        estimatedDurationSeconds: 5 + manifest.solana.bridge.estimatedDurationSeconds,
      });
      const plan = planOf(quote, route.routeId);
      expect(plan).toMatchObject({
        fromChain: 'devnet-a',
        toChain: 'solana-devnet',
        recipient: solanaUser,
        bridgeProvider: 'devnet-bridge',
      });
      expect(plan.tokenOut).toEqual({
        chain: 'solana-devnet',
        symbol: 'USDC',
        address: manifest.solana.tokens.USDC.mint,
        decimals: 6,
      });
      const [swap, bridge] = plan.legs;
      const swapped = (await new Contract(chainA().uniswapV2.router, ROUTER_ABI, provider).getAmountsOut(
        parseUnits('0.5', 18),
        swap.path!,
      )) as bigint[];
      expect(swap.expectedAmountOut).toBe(swapped[swapped.length - 1].toString());
      expect(bridge).toEqual({
        kind: 'bridge',
        chain: 'devnet-a',
        provider: 'devnet-bridge',
        tokenIn: { chain: 'devnet-a', symbol: 'USDC', address: chainA().tokens.USDC.address, decimals: 6 },
        tokenOut: {
          chain: 'solana-devnet',
          symbol: 'USDC',
          address: manifest.solana.tokens.USDC.mint,
          decimals: 6,
        },
        amountIn: swap.expectedAmountOut,
        expectedAmountOut: (await bridgeQuote(BigInt(swap.expectedAmountOut))).toString(),
        minAmountOut: (await bridgeQuote(BigInt(swap.expectedAmountOut))).toString(),
        // The bridge pays a fixed amount: no slippage of its own.
        slippageBps: 0,
        spender: chainA().bridge.address,
        destinationChain: 'solana-devnet',
        destinationBridgeChainId: manifest.solana.bridge.chainId,
        estimatedDurationSeconds: manifest.solana.bridge.estimatedDurationSeconds,
      });
      expect(plan.expectedAmountOut).toBe(bridge.expectedAmountOut);
    });

    it('refuses an EVM recipient for a Solana destination with INVALID_ADDRESS', async () => {
      const request = {
        fromChain: 'devnet-a',
        toChain: 'solana-devnet',
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '10',
        recipient: manifest.accounts[0].address,
      };
      expect(await errorCodeOf(service.quotes.create(request))).toBe('INVALID_ADDRESS');
    });

    it('has no route to SOL on solana-devnet (the bridge carries USDC only)', async () => {
      const quote = await service.quotes.create({
        fromChain: 'devnet-a',
        toChain: 'solana-devnet',
        tokenIn: 'USDC',
        tokenOut: 'SOL',
        amount: '10',
      });
      expect(quote.routes).toEqual([]);
    });
  });

  describe('Solana → EVM', () => {
    it('quotes USDC on solana-devnet → USDC on devnet-a as one bridge leg paid into the Solana vault', async () => {
      const recipient = manifest.accounts[0].address;
      const quote = await service.quotes.create({
        fromChain: 'solana-devnet',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '25',
        recipient,
      });
      expect(quote.routes).toHaveLength(1);
      expect(quote.routes[0]).toMatchObject({
        provider: 'devnet-bridge',
        stepCount: 1,
        estimatedDurationSeconds: manifest.solana.bridge.estimatedDurationSeconds,
      });
      const plan = planOf(quote, quote.routes[0].routeId);
      expect(plan.tokenIn).toEqual({
        chain: 'solana-devnet',
        symbol: 'USDC',
        address: manifest.solana.tokens.USDC.mint,
        decimals: 6,
      });
      const [bridge] = plan.legs;
      // The Solana side keeps the same fee as the EVM bridge (both relayer ends use the manifest's feeBps).
      const released = 25_000_000n - (25_000_000n * BigInt(manifest.bridge.feeBps)) / 10_000n;
      expect(bridge).toMatchObject({
        kind: 'bridge',
        chain: 'solana-devnet',
        tokenIn: { address: manifest.solana.tokens.USDC.mint },
        tokenOut: { chain: 'devnet-a', address: chainA().tokens.USDC.address },
        amountIn: '25000000',
        expectedAmountOut: released.toString(),
        spender: manifest.solana.bridge.vault,
        destinationChain: 'devnet-a',
        destinationBridgeChainId: chainA().chainId,
      });
      expect(parseUnits(quote.routes[0].expectedAmountOut, 6)).toBe(released);
    });

    it('quotes USDC on solana-devnet → DAI on devnet-b as the bridge then a Uniswap swap', async () => {
      const quote = await service.quotes.create({
        fromChain: 'solana-devnet',
        toChain: 'devnet-b',
        tokenIn: 'USDC',
        tokenOut: 'DAI',
        amount: '100',
      });
      expect(quote.routes[0]).toMatchObject({ providers: ['devnet-bridge', 'uniswap-v2'], stepCount: 2 });
      const plan = planOf(quote, quote.routes[0].routeId);
      expect(plan.legs.map((l) => `${l.kind}@${l.chain}`)).toEqual(['bridge@solana-devnet', 'swap@devnet-b']);
      expect(plan.legs[1].amountIn).toBe(plan.legs[0].expectedAmountOut);
      expect(plan.tokenOut.symbol).toBe('DAI');
    });

    it('refuses a Solana recipient for an EVM destination, and a Solana key on an EVM chain, with INVALID_ADDRESS', async () => {
      const request = {
        fromChain: 'solana-devnet',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '10',
        recipient: solanaUser,
      };
      expect(await errorCodeOf(service.quotes.create(request))).toBe('INVALID_ADDRESS');
    });

    it('has no route from SOL (no swap venue on the Solana devnet)', async () => {
      const quote = await service.quotes.create({
        fromChain: 'solana-devnet',
        toChain: 'devnet-a',
        tokenIn: 'SOL',
        tokenOut: 'USDC',
        amount: '1',
      });
      expect(quote.routes).toEqual([]);
    });
  });
});
