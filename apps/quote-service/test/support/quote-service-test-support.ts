import { DynamicModule, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DevnetManifest, loadDevnetManifest, startDevnet } from '@swapgw/devnet';
import { JsonRpcProvider, Network } from 'ethers';
import { ChainRegistry, readDevnetManifest } from '@swapgw/chains';
import { CodedError, QuoteResult, RoutePlan } from '@swapgw/contracts';
import { MessagingModule } from '@swapgw/messaging';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { Clock, loadConfig, SystemClock } from '@swapgw/runtime';
import { freePort, testEnv } from '@swapgw/testing';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SERVICE_NAME } from '../../src/app.module';
import { CatalogModule } from '../../src/catalog/catalog.module';
import { CatalogSync } from '../../src/catalog/catalog-sync.service';
import { CatalogService } from '../../src/catalog/catalog.service';
import { QuoteServiceConfig } from '../../src/config/quote-service.config';
import { quoteDatabaseOptions } from '../../src/database/quote-database';
import { QuoteModule } from '../../src/quote/quote.module';
import { QuoteService } from '../../src/quote/quote.service';
import { TrendingCounter } from '../../src/quote/trending-counter';

/** A migrated schema of its own in the test database: tests never touch a running stack's `quote`. */
export async function createQuoteTestDatabase(): Promise<{
  dataSource: DataSource;
  schema: string;
  drop(): Promise<void>;
}> {
  const { databaseUrl } = testEnv();
  const schema = `quote_it_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const options = quoteDatabaseOptions(databaseUrl, 5, schema);
  await prepareDatabase(options);
  const dataSource = await new DataSource(serviceDataSourceOptions(options)).initialize();
  return {
    dataSource,
    schema,
    drop: async () => {
      await dataSource.destroy();
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The devnet the tests read pools from: the one `npm test` started (DEVNET_MANIFEST) when its
 * manifest exists, otherwise a devnet of our own on free ports, stopped by `stop`.
 */
export async function useDevnet(): Promise<{ manifestPath: string; stop(): Promise<void> }> {
  const { devnetManifest } = testEnv();
  // A manifest written before the devnet had its Solana chain cannot serve the Solana quote tests.
  if (fs.existsSync(devnetManifest) && readDevnetManifest(devnetManifest).solana) {
    return { manifestPath: devnetManifest, stop: async () => undefined };
  }
  const manifestPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quote-it-')), 'manifest.json');
  const devnet = await startDevnet({
    manifestPath,
    portA: await freePort(),
    portB: await freePort(),
    logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
  });
  return { manifestPath, stop: () => devnet.stop() };
}

/**
 * What AppModule.forRoot gives the feature modules, for a test: the config, and the DataSource on
 * the test's own schema in place of TypeOrmModule's (which would open the running stack's `quote`).
 * MessagingModule without a consumer group only gives the controllers their RequestResponder.
 */
@Module({})
class QuoteTestRootModule {
  static forTest(config: QuoteServiceConfig, dataSource: DataSource): DynamicModule {
    return {
      module: QuoteTestRootModule,
      global: true,
      providers: [
        { provide: QuoteServiceConfig, useValue: config },
        { provide: DataSource, useValue: dataSource },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [QuoteServiceConfig, DataSource, Clock],
      imports: [MessagingModule.forRoot({ config, clientId: SERVICE_NAME }), CatalogModule, QuoteModule],
    };
  }
}

/** quote-service's modules on a test database, not started: tests seed the catalog themselves. */
export interface QuoteTestApp {
  config: QuoteServiceConfig;
  registry: ChainRegistry;
  sync: CatalogSync;
  catalog: CatalogService;
  quotes: QuoteService;
  trending: TrendingCounter;
  /** Ends the modules as a shutdown does: the last trending counts flushed, the registry released. */
  close(): Promise<void>;
}

/** quote-service built by Nest from its feature modules, for a config of the test's env. */
export async function buildQuoteTestApp(
  dataSource: DataSource,
  env: Record<string, string>,
): Promise<QuoteTestApp> {
  const config = loadConfig(QuoteServiceConfig, {
    DATABASE_URL: testEnv().databaseUrl,
    DISCOVERY_RETRY_INTERVAL_MS: '0',
    ...env,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [QuoteTestRootModule.forTest(config, dataSource)],
  }).compile();
  return {
    config,
    registry: moduleRef.get(ChainRegistry),
    sync: moduleRef.get(CatalogSync),
    catalog: moduleRef.get(CatalogService),
    quotes: moduleRef.get(QuoteService),
    trending: moduleRef.get(TrendingCounter),
    close: () => moduleRef.close(),
  };
}

/** quote-service's modules on a test database, reading the test devnet's chains (quoteServiceOnDevnet). */
export interface QuoteServiceOnDevnet {
  manifest: DevnetManifest;
  database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  service: QuoteTestApp;
  /**
   * A JSON-RPC provider of one of the manifest's EVM chains, made once per chain and destroyed by
   * close(). `fresh`: no ethers cache of repeated reads (a test reading a balance twice in a block).
   */
  rpc(chainId: string, options?: { fresh?: boolean }): JsonRpcProvider;
  close(): Promise<void>;
}

/**
 * The set-up the quote-service int-specs share: the test devnet (useDevnet), a migrated schema of
 * the test's own, quote-service's modules on both and the catalog seeded from the devnet.
 */
export async function quoteServiceOnDevnet(): Promise<QuoteServiceOnDevnet> {
  const devnet = await useDevnet();
  const manifest = loadDevnetManifest(devnet.manifestPath);
  const database = await createQuoteTestDatabase();
  const service = await buildQuoteTestApp(database.dataSource, { DEVNET_MANIFEST: devnet.manifestPath });
  await service.sync.seed();
  const providers = new Map<string, JsonRpcProvider>();
  return {
    manifest,
    database,
    service,
    rpc: (chainId, options = {}) => {
      const key = `${chainId}${options.fresh ? ' fresh' : ''}`;
      let provider = providers.get(key);
      if (!provider) {
        const chain = manifest.chains.find((candidate) => candidate.id === chainId);
        if (!chain) throw new Error(`the devnet manifest has no EVM chain ${chainId}`);
        const network = Network.from(chain.chainId);
        provider = new JsonRpcProvider(chain.rpcUrl, network, {
          staticNetwork: network,
          ...(options.fresh ? { cacheTimeout: -1 } : {}),
        });
        providers.set(key, provider);
      }
      return provider;
    },
    close: async () => {
      for (const provider of providers.values()) provider.destroy();
      await service.close();
      await database.drop();
      await devnet.stop();
    },
  };
}

/** The code of the CodedError a call rejects with (fails the test if it resolves). */
export async function errorCodeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CodedError) return error.code;
    throw error;
  }
  throw new Error('expected a CodedError, but the call succeeded');
}

/** The executable plan of one of the quote's routes, as the quote answered it (what a build sends on). */
export function planOf(quote: QuoteResult, routeId: string): RoutePlan {
  const plan = quote.routePlans.find((candidate) => candidate.routeId === routeId);
  if (!plan) throw new Error(`quote ${quote.quoteId} has no plan for route ${routeId}`);
  return plan;
}
