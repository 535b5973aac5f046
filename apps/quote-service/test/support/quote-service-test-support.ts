import { startDevnet } from '@swapgw/devnet';
import { ChainRegistry, readDevnetManifest } from '@swapgw/chains';
import { CodedError, QuoteResult, RoutePlan } from '@swapgw/contracts';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { loadConfig } from '@swapgw/runtime';
import { freePort, testEnv } from '@swapgw/testing';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { QuoteServiceConfig } from '../../src/config/quote-service.config';
import { quoteDatabaseOptions } from '../../src/database/quote-database';
import { createQuoteServiceComponents, QuoteServiceComponents } from '../../src/quote-service.components';

/** A migrated schema of its own in the test database: tests never touch a running stack's `quote`. */
export async function createQuoteTestDatabase(): Promise<{ dataSource: DataSource; schema: string; drop(): Promise<void> }> {
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

export function quoteTestComponents(dataSource: DataSource, env: Record<string, string>): QuoteServiceComponents & { config: QuoteServiceConfig } {
  const config = loadConfig(QuoteServiceConfig, { DATABASE_URL: testEnv().databaseUrl, DISCOVERY_RETRY_INTERVAL_MS: '0', ...env });
  const registry = ChainRegistry.fromEnvironment({
    DEVNET_MANIFEST: config.DEVNET_MANIFEST,
    RPC_URL_ETHEREUM: config.RPC_URL_ETHEREUM,
    RPC_URL_BASE: config.RPC_URL_BASE,
    RPC_URL_ARBITRUM: config.RPC_URL_ARBITRUM,
    RPC_URL_SOLANA: config.RPC_URL_SOLANA,
  });
  return { ...createQuoteServiceComponents(config, dataSource, registry), config };
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
