import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase } from '@swapgw/persistence';
import {
  createApiKey,
  KafkaBroker,
  Stack,
  startKafkaBroker,
  startStack,
  StartStackOptions,
  testEnv,
} from '@swapgw/testing';

export interface PrivateStack {
  stack: Stack;
  broker: KafkaBroker;
  /** The stack's own database, reached directly (not through any proxy the test puts in front). */
  databaseUrl: string;
  /** An API key of `owner`, made with the keys CLI against the stack's database. */
  createApiKey(owner: string): Promise<string>;
  /** Stops the apps and the broker and drops the database. */
  stop(): Promise<void>;
}

/**
 * All five apps on a broker and a database of their own, with the devnet of the test run: for e2e
 * tests that configure the apps differently from the shared stack (or hurt their dependencies)
 * without disturbing the other suites. The database is `swapgw_<label>_<random>`; the apps migrate
 * it when they start.
 */
export async function startPrivateStack(
  label: string,
  options: Omit<StartStackOptions, 'apps'> = {},
): Promise<PrivateStack> {
  const url = new URL(testEnv().databaseUrl);
  url.pathname = `/swapgw_${label}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  const broker = await startKafkaBroker();
  let stack: Stack;
  try {
    stack = await startStack({
      ...options,
      env: { KAFKA_BROKERS: broker.brokers, DATABASE_URL: databaseUrl, ...options.env },
    });
  } catch (error) {
    await broker.stop();
    await dropDatabase(databaseUrl);
    throw error;
  }
  return {
    stack,
    broker,
    databaseUrl,
    createApiKey: (owner) => createApiKey(owner, { ...testEnv().env, DATABASE_URL: databaseUrl }),
    async stop() {
      await stack.stop();
      await broker.stop();
      await dropDatabase(databaseUrl);
    },
  };
}
