import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDevnetManifest } from '@swapgw/devnet';
import { ListPairsRequest, ListTokensRequest, PairView, TokenView } from '@swapgw/contracts';
import {
  createQuoteTestDatabase,
  errorCodeOf,
  QuoteTestApp,
  buildQuoteTestApp,
  useDevnet,
} from '../../test/support/quote-service-test-support';

/** The devnet's chains, as the registry lists them first: anvil, Solana, Bitcoin, then the Cosmos chains. */
const DEVNET_CHAINS = [
  'devnet-a',
  'devnet-b',
  'solana-devnet',
  'bitcoin-devnet',
  'cosmoshub-devnet',
  'osmosis-devnet',
  'noble-devnet',
];

describe('quote-service catalog (real PostgreSQL, devnet manifest)', () => {
  let devnet: { manifestPath: string; stop(): Promise<void> };
  let database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  let service: QuoteTestApp;

  beforeAll(async () => {
    devnet = await useDevnet();
    database = await createQuoteTestDatabase();
    // No THORNODE_URL: THORChain, BTC's only provider, is off, and nothing stands in for it.
    service = await buildQuoteTestApp(database.dataSource, { DEVNET_MANIFEST: devnet.manifestPath });
    await service.sync.seed();
  });

  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await devnet?.stop();
  });

  async function allTokenPages(
    request: ListTokensRequest,
    between?: (page: number) => Promise<void>,
  ): Promise<{ tokens: TokenView[]; pages: number }> {
    const tokens: TokenView[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await service.catalog.listTokens({ ...request, cursor });
      tokens.push(...page.tokens);
      pages += 1;
      cursor = page.nextCursor ?? undefined;
      if (between) await between(pages);
    } while (cursor && pages < 1000);
    return { tokens, pages };
  }

  it('lists devnet chains first, then the real networks (Ethereum, Base, Arbitrum, Solana...), each describing itself', async () => {
    const { chains } = await service.catalog.listChains();
    const ids = chains.map((c) => c.id);
    expect(ids.slice(0, 7)).toEqual(DEVNET_CHAINS);
    expect(ids.slice(7, 11)).toEqual(['ethereum', 'base', 'arbitrum', 'solana']);
    for (const chain of chains)
      expect(Object.keys(chain).sort()).toEqual([
        'caip2',
        'chainId',
        'family',
        'id',
        'name',
        'nativeSymbol',
        'network',
      ]);
    const byId = Object.fromEntries(chains.map((c) => [c.id, c]));
    const devnetA = loadDevnetManifest(devnet.manifestPath).chains[0];
    expect(byId['devnet-a']).toMatchObject({
      family: 'evm',
      network: 'testnet',
      chainId: devnetA.chainId,
      caip2: `eip155:${devnetA.chainId}`,
      nativeSymbol: 'ETH',
    });
    expect(byId.ethereum).toMatchObject({ family: 'evm', network: 'mainnet', chainId: 1, caip2: 'eip155:1' });
    expect(byId['solana-devnet']).toMatchObject({
      family: 'solana',
      network: 'testnet',
      chainId: null,
      nativeSymbol: 'SOL',
    });
    expect(byId.solana).toMatchObject({
      family: 'solana',
      network: 'mainnet',
      chainId: null,
      caip2: expect.stringMatching(/^solana:/),
    });
    expect(byId['bitcoin-devnet']).toMatchObject({
      family: 'bitcoin',
      network: 'testnet',
      chainId: null,
      caip2: 'bip122:bitcoin-devnet',
      nativeSymbol: 'BTC',
    });
  });

  it('lists the devnet tokens of a chain with the manifest addresses and decimals, native coin first', async () => {
    const manifest = loadDevnetManifest(devnet.manifestPath);
    const { tokens, nextCursor } = await service.catalog.listTokens({ chainRef: 'devnet-a' });
    expect(nextCursor).toBeNull();
    expect(tokens[0]).toEqual({ chain: 'devnet-a', symbol: 'ETH', name: 'Ether', decimals: 18 });
    const bySymbol = Object.fromEntries(tokens.map((t) => [t.symbol, t]));
    for (const [symbol, token] of Object.entries(manifest.chains[0].tokens)) {
      expect(bySymbol[symbol]).toMatchObject({
        chain: 'devnet-a',
        address: token.address,
        decimals: token.decimals,
        name: token.name,
      });
    }
  });

  it('marks only tradable tokens supported: devnet ones, not real-network ones without RPC or aggregator', async () => {
    const { tokens } = await service.catalog.listTokens({ supportedOnly: true, limit: 50_000 });
    // Every devnet chain. THORChain is off without THORNODE_URL, but BTC ⇄ USDC on Noble is the devnet
    // bridge's (its Bitcoin end reaches Noble's CCTP end only).
    expect(new Set(tokens.map((t) => t.chain))).toEqual(new Set(DEVNET_CHAINS));
    // ETH, USDC, DAI, WETH, TAX on each anvil chain, USDC (the bridged token) on solana-devnet; OSMO,
    // ATOM and USDC on Osmosis (its pools), ATOM on the Hub and USDC on Noble (swapped on arrival on
    // Osmosis); BTC (to and from Noble).
    expect(tokens).toHaveLength(17);
    const btc = await service.catalog.listTokens({ chainRef: 'bitcoin-devnet', debug: true });
    expect(btc.tokens).toEqual([
      expect.objectContaining({
        symbol: 'BTC',
        debug: expect.objectContaining({ supported: true, providers: ['devnet-bridge'] }),
      }),
    ]);
    const eth = await service.catalog.listTokens({ chainRef: 'ethereum', q: 'USDC', debug: true });
    expect(eth.tokens[0]).toMatchObject({
      symbol: 'USDC',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      decimals: 6,
    });
    // Listed by the shipped catalog (the token list names it too), with its logo; not tradable without an RPC.
    expect(eth.tokens[0].debug).toMatchObject({ supported: false, providers: [], source: 'chain-catalog' });
    expect(eth.tokens[0].logoUrl).toMatch(/^https:\/\//);
  });

  it('lists Solana tokens with mints and no EVM address', async () => {
    const { tokens } = await service.catalog.listTokens({ chainRef: 'solana', q: 'usdc' });
    const usdc = tokens.find((t) => t.symbol === 'USDC')!;
    expect(usdc).toMatchObject({
      chain: 'solana',
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      decimals: 6,
    });
    expect(usdc.address).toBeUndefined();
    const sol = await service.catalog.listTokens({ chainRef: 'solana', sort: 'top', limit: 1 });
    expect(sol.tokens[0]).toMatchObject({ symbol: 'SOL', decimals: 9 });
  });

  it('filters by symbol or name case-insensitively and by logo', async () => {
    const { tokens } = await service.catalog.listTokens({ q: 'wrapped ether', limit: 100 });
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) expect(`${t.symbol} ${t.name}`.toLowerCase()).toContain('wrapped ether');
    const withLogo = await allTokenPages({ requireLogo: true, limit: 50 });
    const all = await allTokenPages({ limit: 200 });
    expect(withLogo.tokens.length).toBeGreaterThan(0);
    expect(withLogo.tokens.length).toBe(all.tokens.filter((t) => t.logoUrl).length);
    for (const t of withLogo.tokens) expect(t.logoUrl).toMatch(/^https?:\/\//);
  });

  it.each(['top', 'marketcap', 'trending', 'asc'] as const)(
    'pages through every token with sort=%s, each exactly once',
    async (sort) => {
      const [{ count }] = (await database.dataSource.query(
        `SELECT count(*)::int AS count FROM "${database.schema}"."tokens"`,
      )) as { count: number }[];
      const { tokens, pages } = await allTokenPages({ sort, limit: 97 });
      expect(pages).toBe(Math.ceil(count / 97));
      const keys = tokens.map((t) => `${t.chain}|${t.address ?? t.mint ?? t.symbol}`);
      expect(new Set(keys).size).toBe(count);
      if (sort === 'asc') {
        const symbols = tokens.map((t) => t.symbol.toUpperCase());
        expect(symbols).toEqual([...symbols].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }
    },
  );

  it('keeps a cursor stable while tokens are added between pages', async () => {
    // One token a page (the shipped catalog lists three on Arbitrum: ETH, USDC, WETH).
    const before = await allTokenPages({ sort: 'asc', chainRef: 'arbitrum', limit: 1 });
    expect(before.pages).toBeGreaterThanOrEqual(3);
    let inserted = 0;
    const during = await allTokenPages({ sort: 'asc', chainRef: 'arbitrum', limit: 1 }, async (page) => {
      if (page !== 2) return;
      // One token sorting before the cursor, one after: neither may shift existing rows.
      for (const symbol of ['AAAA', 'ZZZZ']) {
        inserted += 1;
        await database.dataSource.query(
          `INSERT INTO "${database.schema}"."tokens" ("chain", "symbol", "name", "decimals", "address", "asset_key", "rank", "source", "supported", "providers", "updated_at_ms")
           VALUES ('arbitrum', $1, $1, 18, $2, $3, 5000, 'test', false, '[]', 0)`,
          [symbol, `0x${String(inserted).padStart(40, '0')}`, `0x${String(inserted).padStart(40, '0')}`],
        );
      }
    });
    const beforeKeys = before.tokens.map((t) => t.address);
    const duringKeys = during.tokens.map((t) => t.address);
    for (const key of beforeKeys) expect(duringKeys.filter((k) => k === key)).toHaveLength(1);
    expect(duringKeys).toContain(`0x${'2'.padStart(40, '0')}`); // ZZZZ sorts after the cursor: reached
    expect(duringKeys).not.toContain(`0x${'1'.padStart(40, '0')}`); // AAAA sorts before it: not re-served
  });

  it('rejects a malformed cursor and a cursor of another query with INVALID_CURSOR', async () => {
    const first = await service.catalog.listTokens({ q: 'usd', limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    await expect(
      errorCodeOf(service.catalog.listTokens({ q: 'usd', limit: 2, cursor: 'not-a-cursor' })),
    ).resolves.toBe('INVALID_CURSOR');
    await expect(
      errorCodeOf(service.catalog.listTokens({ q: 'dai', limit: 2, cursor: first.nextCursor! })),
    ).resolves.toBe('INVALID_CURSOR');
    await expect(
      errorCodeOf(service.catalog.listTokens({ q: 'usd', sort: 'asc', cursor: first.nextCursor! })),
    ).resolves.toBe('INVALID_CURSOR');
    // The page size may change between pages.
    const second = await service.catalog.listTokens({ q: 'usd', limit: 5, cursor: first.nextCursor! });
    expect(second.tokens[0]).not.toEqual(first.tokens[0]);
  });

  it('rejects an unknown chainRef with UNKNOWN_CHAIN', async () => {
    await expect(errorCodeOf(service.catalog.listTokens({ chainRef: 'atlantis' }))).resolves.toBe(
      'UNKNOWN_CHAIN',
    );
    await expect(errorCodeOf(service.catalog.listPairs({ chainRef: 'atlantis' }))).resolves.toBe(
      'UNKNOWN_CHAIN',
    );
  });

  it('ranks tokens that are quoted most first with sort=trending', async () => {
    for (let i = 0; i < 3; i++) {
      await service.quotes.create({
        fromChain: 'devnet-b',
        toChain: 'devnet-b',
        tokenIn: 'DAI',
        tokenOut: 'WETH',
        amount: '1',
      });
    }
    await service.trending.flush(); // what the timer does every the trending flush interval
    const { tokens } = await service.catalog.listTokens({ sort: 'trending', limit: 2, debug: true });
    expect(tokens.map((t) => `${t.chain}:${t.symbol}`).sort()).toEqual(['devnet-b:DAI', 'devnet-b:WETH']);
    expect(tokens[0].debug!.quoteCount).toBeGreaterThanOrEqual(3);
  });

  describe('pairs', () => {
    async function allPairs(request: ListPairsRequest): Promise<PairView[]> {
      const pairs: PairView[] = [];
      let cursor: string | undefined;
      do {
        const page = await service.catalog.listPairs({ ...request, cursor });
        pairs.push(...page.pairs);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return pairs;
    }

    it('lists only same-chain pairs for a chainRef, without native ↔ wrapped', async () => {
      const pairs = await allPairs({ chainRef: 'devnet-a', limit: 5 });
      expect(pairs.every((p) => p.fromChain === 'devnet-a' && p.toChain === 'devnet-a')).toBe(true);
      const names = pairs.map((p) => `${p.tokenIn}/${p.tokenOut}`);
      expect(names).toEqual(expect.arrayContaining(['USDC/DAI', 'DAI/USDC', 'ETH/USDC', 'WETH/DAI']));
      expect(names).not.toContain('ETH/WETH');
      // ETH, USDC, DAI, WETH, TAX: every ordered pair but ETH ↔ WETH.
      expect(pairs).toHaveLength(5 * 4 - 2);
    });

    it('lists cross-chain devnet pairs through the bridge and filters by tokens', async () => {
      const pairs = await allPairs({ tokenIn: 'usdc', tokenOut: 'DAI', debug: true });
      const devnetCross = pairs.find((p) => p.fromChain === 'devnet-a' && p.toChain === 'devnet-b');
      expect(devnetCross).toMatchObject({
        tokenIn: 'USDC',
        tokenOut: 'DAI',
        debug: { providers: ['devnet-bridge'], supported: true },
      });
      expect(pairs.every((p) => p.tokenIn === 'USDC' && p.tokenOut === 'DAI')).toBe(true);
    });

    it('lists no BTC pair without THORChain but BTC ⇄ USDC on Noble: the devnet bridge carries BTC to and from Noble only', async () => {
      const pairs = [
        ...(await allPairs({ tokenIn: 'BTC', debug: true })),
        ...(await allPairs({ tokenOut: 'BTC', debug: true })),
      ];
      expect(
        pairs
          .filter((p) => p.fromChain === 'bitcoin-devnet' || p.toChain === 'bitcoin-devnet')
          .map((p) => `${p.fromChain}:${p.tokenIn}→${p.toChain}:${p.tokenOut} ${p.debug!.providers.join()}`)
          .sort(),
      ).toEqual([
        'bitcoin-devnet:BTC→noble-devnet:USDC devnet-bridge',
        'noble-devnet:USDC→bitcoin-devnet:BTC devnet-bridge',
      ]);
      // USDC still rides the devnet bridge between the EVM devnets and Solana.
      expect(await allPairs({ tokenIn: 'USDC', tokenOut: 'USDC', supportedOnly: true })).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ fromChain: 'devnet-a', toChain: 'solana-devnet' }),
          expect.objectContaining({ fromChain: 'solana-devnet', toChain: 'devnet-a' }),
        ]),
      );
    });

    it('lists real-network pairs as unsupported until a provider is configured', async () => {
      const supported = await allPairs({ supportedOnly: true });
      const devnetChains = DEVNET_CHAINS;
      expect(
        supported.every((p) => devnetChains.includes(p.fromChain) && devnetChains.includes(p.toChain)),
      ).toBe(true);
      const ethereum = await allPairs({ chainRef: 'ethereum', tokenIn: 'USDC' });
      expect(ethereum.map((p) => p.tokenOut)).toEqual(expect.arrayContaining(['WETH', 'ETH']));
    });

    it('rejects a cursor of another pair query with INVALID_CURSOR', async () => {
      const page = await service.catalog.listPairs({ limit: 1 });
      await expect(
        errorCodeOf(service.catalog.listPairs({ limit: 1, chainRef: 'devnet-a', cursor: page.nextCursor! })),
      ).resolves.toBe('INVALID_CURSOR');
    });
  });

  describe("with THORNODE_URL: THORChain's pairs by the local THORNode's pools", () => {
    let thornodeDatabase: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
    let withThornode: QuoteTestApp;
    let gate: http.Server;
    /** Whether the gate in front of the local THORNode lets its pools through (503 until then). */
    let thornodeUp = false;

    const btcPairs = async (toChain: string) => {
      const { pairs } = await withThornode.catalog.listPairs({ tokenIn: 'BTC', debug: true, limit: 500 });
      return Object.fromEntries(
        pairs.filter((p) => p.toChain === toChain).map((p) => [p.tokenOut, p.debug!.providers]),
      );
    };

    beforeAll(async () => {
      const thornodeUrl = loadDevnetManifest(devnet.manifestPath).bitcoin!.bridge.thornode!.url;
      gate = http.createServer((req, res) => {
        void (async () => {
          if (!thornodeUp) {
            res.writeHead(503, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: 'service unavailable' }));
            return;
          }
          const upstream = await fetch(`${thornodeUrl}${req.url}`);
          res.writeHead(upstream.status, { 'content-type': 'application/json' });
          res.end(await upstream.text());
        })();
      });
      await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
      thornodeDatabase = await createQuoteTestDatabase();
      withThornode = await buildQuoteTestApp(thornodeDatabase.dataSource, {
        DEVNET_MANIFEST: devnet.manifestPath,
        THORNODE_URL: `http://127.0.0.1:${(gate.address() as AddressInfo).port}`,
      });
      await withThornode.sync.seed();
    });

    afterAll(async () => {
      await withThornode?.close();
      await thornodeDatabase?.drop();
      await new Promise((resolve) => gate?.close(resolve));
    });

    it('lists THORChain for every BTC pair it names while THORNode has never answered (the quote decides)', async () => {
      const pairs = await btcPairs('devnet-a');
      expect(pairs.USDC).toEqual(['thorchain']);
      expect(pairs.WETH).toEqual(['thorchain']);
      const { sources } = (await withThornode.catalog.listPairs({ limit: 1, debug: true })).debug!;
      expect(sources).toContainEqual(
        expect.objectContaining({
          name: 'thorchain-pools',
          lastSuccessAtMs: null,
          error: expect.any(String),
        }),
      );
    });

    it('once THORNode answers, lists BTC ⇄ USDC with THORChain and no longer BTC ⇄ WETH (no pool)', async () => {
      thornodeUp = true;
      // The next listing retries the pools (DISCOVERY_RETRY_INTERVAL_MS is 0 here) and recomputes the pairs.
      const pairs = await btcPairs('devnet-a');
      expect(pairs).toEqual({ USDC: ['thorchain'] });
      expect(await btcPairs('devnet-b')).toEqual({ USDC: ['thorchain'] });
      const { pairs: intoBitcoin } = await withThornode.catalog.listPairs({ tokenOut: 'BTC', limit: 500 });
      expect(intoBitcoin.map((p) => `${p.fromChain}:${p.tokenIn}`).sort()).toEqual([
        'devnet-a:USDC',
        'devnet-b:USDC',
        'noble-devnet:USDC',
      ]);
      const btc = await withThornode.catalog.listTokens({ chainRef: 'bitcoin-devnet', supportedOnly: true });
      expect(btc.tokens.map((t) => t.symbol)).toEqual(['BTC']);
    });
  });
});
