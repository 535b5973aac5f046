import { ibcVoucherDenom, ics20EscrowAddress } from '@swapgw/chains/families';
import type { RouteLeg } from '@swapgw/contracts';
import { CosmosDevnetChainManifest, DevnetManifest, loadDevnetManifest } from '@swapgw/devnet';
import { json, LocalUpstream } from '../../../test/support/local-upstream';
import {
  createQuoteTestDatabase,
  buildQuoteTestApp,
  planOf,
  QuoteTestApp,
  useDevnet,
} from '../../../test/support/quote-service-test-support';
import {
  bodyOf,
  skipError,
  skipRouteAnswer,
  skipSwapOp,
  skipTransferOp,
} from '../../../test/support/skip-go-upstream';

/**
 * The skip-go provider through quote-service's QuoteService, on the devnet's Cosmos chains (the
 * registry's descriptors of cosmoshub-devnet and osmosis-devnet, their chain ids and channels), a
 * local server answering for api.skip.build in the format Skip documents: a quote between Cosmos
 * chains gets Skip's route beside the osmosis provider's, and Skip's refusals and failures show in
 * unavailableRoutes without taking the Osmosis route away.
 */
describe('skip-go provider through QuoteService, against a local server speaking the Skip Go API', () => {
  const skip = new LocalUpstream();
  let devnet: Awaited<ReturnType<typeof useDevnet>>;
  let database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;

  beforeAll(async () => {
    await skip.start();
    devnet = await useDevnet();
    manifest = loadDevnetManifest(devnet.manifestPath);
    database = await createQuoteTestDatabase();
    service = await buildQuoteTestApp(database.dataSource, {
      DEVNET_MANIFEST: devnet.manifestPath,
      SKIP_GO_API_URL: skip.url,
      SKIP_GO_API_KEY: 'skip-test-key',
      QUOTE_PROVIDER_TIMEOUT_MS: '3000',
    });
    await service.sync.seed();
  });

  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await devnet?.stop();
    await skip.stop();
  });

  beforeEach(() => {
    skip.requests.length = 0;
  });

  const chain = (id: string): CosmosDevnetChainManifest => {
    const found = manifest.cosmos.find((c) => c.id === id);
    if (!found) throw new Error(`no Cosmos chain ${id}`);
    return found;
  };
  const hub = () => chain('cosmoshub-devnet');
  const osmosis = () => chain('osmosis-devnet');
  const osmosisAtom = () => ibcVoucherDenom(`transfer/${osmosis().ibcChannels['cosmoshub-devnet']}/uatom`);
  const request = {
    fromChain: 'cosmoshub-devnet',
    toChain: 'osmosis-devnet',
    tokenIn: 'ATOM',
    tokenOut: 'OSMO',
    amount: '2',
  };

  /** Skip's answer for ATOM on the Hub → OSMO: an IBC hop to Osmosis, then poolmanager pool 1. */
  function atomToOsmo(asked: Record<string, unknown>, amountOut: string) {
    return skipRouteAnswer(
      asked,
      [
        skipTransferOp({
          fromChainId: hub().chainId,
          toChainId: osmosis().chainId,
          channel: hub().ibcChannels['osmosis-devnet'],
          denomIn: 'uatom',
          denomOut: osmosisAtom(),
          amount: asked.amount_in as string,
        }),
        skipSwapOp({
          chainId: osmosis().chainId,
          pools: [{ pool: '1', denomIn: osmosisAtom(), denomOut: 'uosmo' }],
          amountIn: asked.amount_in as string,
          amountOut,
        }),
      ],
      amountOut,
      { estimated_route_duration_seconds: 24 },
    );
  }

  it('lists skip-go among the providers of the Cosmos chains’ tokens', async () => {
    const { tokens } = await service.catalog.listTokens({
      chainRef: 'cosmoshub-devnet',
      supportedOnly: true,
      limit: 50,
      debug: true,
    });
    expect(tokens.map((t) => t.symbol)).toContain('ATOM');
    for (const token of tokens) expect(token.debug!.providers).toContain('skip-go');
  });

  it("quotes ATOM on the Hub → OSMO with Skip's route beside Osmosis's, one signature on the Hub", async () => {
    skip.handler = (upstream, res) => json(res, 200, atomToOsmo(bodyOf(upstream), '3987000'));
    const quote = await service.quotes.create(request);

    expect(skip.requests).toHaveLength(1);
    const [sent] = skip.requests;
    expect(sent.url.pathname).toBe('/v2/fungible/route');
    expect(sent.headers.authorization).toBe('skip-test-key');
    expect(sent.body).toEqual({
      amount_in: '2000000',
      source_asset_denom: 'uatom',
      source_asset_chain_id: hub().chainId,
      dest_asset_denom: 'uosmo',
      dest_asset_chain_id: osmosis().chainId,
      cumulative_affiliate_fee_bps: '0',
      allow_multi_tx: false,
      allow_unsafe: false,
      bridges: ['IBC'],
      smart_relay: false,
    });

    expect(quote.routes.map((r) => r.providers.join('+')).sort()).toEqual(['ibc+osmosis', 'skip-go']);
    const route = quote.routes.find((r) => r.provider === 'skip-go')!;
    expect(route).toMatchObject({
      providers: ['skip-go'],
      bridgeProvider: 'skip-go',
      family: 'cross-chain',
      amountIn: '2',
      expectedAmountOut: '3.987',
      estimatedDurationSeconds: 24,
      warnings: [],
    });
    expect(route.signatures).toEqual([
      { chain: 'cosmoshub-devnet', kind: 'bridge', payloadType: 'cosmos-sign-direct', mayBeSkipped: false },
    ]);
    const [transfer, swap] = planOf(quote, route.routeId).legs as RouteLeg[];
    expect(transfer).toMatchObject({
      kind: 'bridge',
      chain: 'cosmoshub-devnet',
      destinationChain: 'osmosis-devnet',
      provider: 'skip-go',
      tokenIn: { chain: 'cosmoshub-devnet', address: 'uatom' },
      tokenOut: { chain: 'osmosis-devnet', address: osmosisAtom() },
      amountIn: '2000000',
      spender: ics20EscrowAddress('cosmos', hub().ibcChannels['osmosis-devnet']),
    });
    expect(swap).toMatchObject({
      kind: 'swap',
      chain: 'osmosis-devnet',
      provider: 'skip-go',
      amountIn: '2000000',
      expectedAmountOut: '3987000',
      path: [osmosisAtom(), 'uosmo'],
    });
  });

  it('keeps the Osmosis route when Skip finds none (404, code 5): skip-go is PAIR_NOT_SUPPORTED', async () => {
    skip.handler = (_upstream, res) => skipError(res, 404, 5, 'no routes found');
    const quote = await service.quotes.create(request);
    expect(quote.routes.map((r) => r.providers.join('+'))).toEqual(['ibc+osmosis']);
    expect(quote.unavailableRoutes).toEqual([
      expect.objectContaining({ provider: 'skip-go', reason: 'PAIR_NOT_SUPPORTED' }),
    ]);
  });

  it('keeps the Osmosis route when Skip fails (500): skip-go is PROVIDER_UNAVAILABLE', async () => {
    skip.handler = (_upstream, res) => skipError(res, 500, 13, 'internal error');
    const quote = await service.quotes.create(request);
    expect(quote.routes.map((r) => r.providers.join('+'))).toEqual(['ibc+osmosis']);
    expect(quote.unavailableRoutes).toEqual([
      expect.objectContaining({ provider: 'skip-go', reason: 'PROVIDER_UNAVAILABLE' }),
    ]);
  });

  it('refuses (upstream failure) a route Skip answers for another chain pair', async () => {
    skip.handler = (upstream, res) =>
      json(res, 200, atomToOsmo({ ...bodyOf(upstream), dest_asset_chain_id: 'osmosis-1' }, '3987000'));
    const quote = await service.quotes.create(request);
    expect(quote.routes.map((r) => r.providers.join('+'))).toEqual(['ibc+osmosis']);
    expect(quote.unavailableRoutes).toEqual([
      expect.objectContaining({ provider: 'skip-go', reason: 'PROVIDER_UNAVAILABLE' }),
    ]);
  });
});
