import { ibcVoucherDenom, ics20EscrowAddress } from '@swapgw/chains/families';
import type { QuoteResult, RouteLeg } from '@swapgw/contracts';
import { CosmosDevnetChainManifest, DevnetManifest, loadDevnetManifest } from '@swapgw/devnet';
import { DataSource } from 'typeorm';
import {
  buildQuoteTestApp,
  createQuoteTestDatabase,
  planOf,
  QuoteTestApp,
  useDevnet,
} from '../../../test/support/quote-service-test-support';
import { bridgedAmount } from '../devnet-bridge.provider';

/**
 * The noble-forwarding provider against the devnet: USDC on devnet-a → ATOM on the Hub and → OSMO on
 * Osmosis, quoted as the devnet bridge into Noble (its fee on deposit), an IBC transfer to Osmosis,
 * the swap on arrival priced from Osmosis's pools (equal to the chain's own estimate of what
 * arrives) and, to the Hub, the ATOM sent home; one signature, on devnet-a.
 */
describe('noble-forwarding provider on the devnet', () => {
  let devnet: { manifestPath: string; stop(): Promise<void> };
  let database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  let dataSource: DataSource;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;

  beforeAll(async () => {
    devnet = await useDevnet();
    manifest = loadDevnetManifest(devnet.manifestPath);
    database = await createQuoteTestDatabase();
    dataSource = database.dataSource;
    service = await buildQuoteTestApp(dataSource, { DEVNET_MANIFEST: devnet.manifestPath });
    await service.sync.seed();
  });

  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await devnet?.stop();
  });

  const chain = (id: string): CosmosDevnetChainManifest => {
    const found = manifest.cosmos.find((c) => c.id === id);
    if (!found) throw new Error(`no Cosmos chain ${id}`);
    return found;
  };
  const osmosis = () => chain('osmosis-devnet');
  const noble = () => chain('noble-devnet');
  const osmosisAtom = () => ibcVoucherDenom(`transfer/${osmosis().ibcChannels['cosmoshub-devnet']}/uatom`);
  const osmosisUsdc = () => ibcVoucherDenom(`transfer/${osmosis().ibcChannels['noble-devnet']}/uusdc`);

  /** Osmosis's own estimate over one pool (EstimateSwapExactAmountIn). */
  async function chainEstimate(tokenIn: string, poolId: string, denomOut: string): Promise<bigint> {
    const params = new URLSearchParams({
      token_in: tokenIn,
      routes_pool_id: poolId,
      routes_token_out_denom: denomOut,
    });
    const response = await fetch(
      `${osmosis().rest}/osmosis/poolmanager/v1beta1/${poolId}/estimate/swap_exact_amount_in_with_primitive_types?${params}`,
    );
    expect(response.status).toBe(200);
    return BigInt(((await response.json()) as { token_out_amount: string }).token_out_amount);
  }

  const forwardingPlan = (quote: QuoteResult) => {
    const route = quote.routes.find(
      (r) => r.providers[0] === 'devnet-bridge' && r.providers.includes('osmosis'),
    );
    expect(route).toBeDefined();
    return { route: route!, plan: planOf(quote, route!.routeId) };
  };

  it('quotes USDC on devnet-a → ATOM on the Hub: bridge to Noble, IBC to Osmosis, swap on arrival, ATOM home', async () => {
    const quote = await service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'cosmoshub-devnet',
      tokenIn: 'USDC',
      tokenOut: 'ATOM',
      amount: '10',
    });
    const { route, plan } = forwardingPlan(quote);
    const bridged = bridgedAmount(10_000_000n, manifest.bridge!.feeBps);
    const [bridge, toOsmosis, swap, home] = plan.legs as RouteLeg[];
    expect(plan.legs).toHaveLength(4);
    expect(bridge).toMatchObject({
      kind: 'bridge',
      chain: 'devnet-a',
      provider: 'devnet-bridge',
      destinationChain: 'noble-devnet',
      destinationBridgeChainId: 4,
      amountIn: '10000000',
      minAmountOut: bridged.toString(),
    });
    expect(toOsmosis).toMatchObject({
      kind: 'bridge',
      chain: 'noble-devnet',
      provider: 'ibc',
      destinationChain: 'osmosis-devnet',
      tokenIn: { address: 'uusdc' },
      tokenOut: { address: osmosisUsdc() },
      amountIn: bridged.toString(),
      spender: ics20EscrowAddress('noble', noble().ibcChannels['osmosis-devnet']),
    });
    expect(swap).toMatchObject({
      kind: 'swap',
      chain: 'osmosis-devnet',
      provider: 'osmosis',
      amountIn: bridged.toString(),
      path: [osmosisUsdc(), osmosisAtom()],
      spender: osmosis().crosschainSwapsContract,
    });
    expect(home).toMatchObject({
      kind: 'bridge',
      chain: 'osmosis-devnet',
      provider: 'ibc',
      destinationChain: 'cosmoshub-devnet',
      tokenIn: { address: osmosisAtom() },
      tokenOut: { chain: 'cosmoshub-devnet', address: 'uatom' },
      amountIn: swap.expectedAmountOut,
      minAmountOut: swap.minAmountOut,
    });
    // Pool 2 holds ATOM and USDC: what arrives on Osmosis buys exactly the quoted ATOM.
    expect(await chainEstimate(`${bridged}${osmosisUsdc()}`, '2', osmosisAtom())).toBe(
      BigInt(swap.expectedAmountOut),
    );
    expect(plan.expectedAmountOut).toBe(swap.expectedAmountOut);
    // One signature, on devnet-a: the Cosmos legs run from Noble's forwarding account.
    expect(route.signatures.map((s) => s.chain)).toEqual(route.signatures.map(() => 'devnet-a'));
    expect(route.signatures.at(-1)).toMatchObject({ chain: 'devnet-a', kind: 'bridge' });
  });

  it('quotes USDC on devnet-a → OSMO on Osmosis, and refuses another token than the bridged USDC', async () => {
    const quote = await service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'osmosis-devnet',
      tokenIn: 'USDC',
      tokenOut: 'OSMO',
      amount: '10',
    });
    const { plan } = forwardingPlan(quote);
    const bridged = bridgedAmount(10_000_000n, manifest.bridge!.feeBps);
    expect(plan.legs.map((leg) => [leg.kind, leg.chain, leg.provider])).toEqual([
      ['bridge', 'devnet-a', 'devnet-bridge'],
      ['bridge', 'noble-devnet', 'ibc'],
      ['swap', 'osmosis-devnet', 'osmosis'],
    ]);
    const swap = plan.legs[2] as RouteLeg;
    expect(await chainEstimate(`${bridged}${osmosisUsdc()}`, '3', 'uosmo')).toBe(
      BigInt(swap.expectedAmountOut),
    );

    const fromWeth = await service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'cosmoshub-devnet',
      tokenIn: 'WETH',
      tokenOut: 'ATOM',
      amount: '1',
    });
    expect(fromWeth.unavailableRoutes).toContainEqual(
      expect.objectContaining({ provider: 'noble-forwarding', reason: 'PAIR_NOT_SUPPORTED' }),
    );
  });
});
