import { buildQuoteTestApp, createQuoteTestDatabase, QuoteTestApp } from './quote-service-test-support';
import type { LocalUpstream } from './local-upstream';

type Environment = Record<string, string>;

/**
 * What a provider int-spec runs on: its local upstream (the provider's API), a real PostgreSQL
 * database, and quote-service apps built on them with the suite's environment. `forSuite` registers
 * the hooks: upstream and database up before the suite, every app closed and the database dropped
 * after it, the upstream's recorded requests forgotten before each test.
 */
export class ProviderTestBench {
  private database?: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  private readonly apps: QuoteTestApp[] = [];

  constructor(
    private readonly upstream: LocalUpstream,
    /** Environment every app of the suite gets (per call: it may take free ports). */
    private readonly suiteEnv: () => Environment | Promise<Environment> = () => ({}),
  ) {}

  static forSuite(
    upstream: LocalUpstream,
    suiteEnv?: () => Environment | Promise<Environment>,
  ): ProviderTestBench {
    const bench = new ProviderTestBench(upstream, suiteEnv);
    beforeAll(() => bench.start());
    afterAll(() => bench.stop());
    beforeEach(() => {
      upstream.requests.length = 0;
    });
    return bench;
  }

  async start(): Promise<void> {
    await this.upstream.start();
    this.database = await createQuoteTestDatabase();
  }

  /** A quote-service app (no devnet chains unless `env` names a manifest), its catalog seeded. */
  async app(env: Environment = {}): Promise<QuoteTestApp> {
    if (!this.database) throw new Error('ProviderTestBench.app before start');
    const app = await buildQuoteTestApp(this.database.dataSource, {
      DEVNET_MANIFEST: '/nonexistent/devnet/manifest.json',
      ...(await this.suiteEnv()),
      ...env,
    });
    this.apps.push(app);
    await app.sync.seed();
    return app;
  }

  async stop(): Promise<void> {
    await Promise.all(this.apps.map((app) => app.close()));
    await this.upstream.stop();
    await this.database?.drop();
  }
}
