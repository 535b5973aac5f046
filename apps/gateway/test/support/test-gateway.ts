import { DynamicModule, Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dropDatabase, withDatabase } from '@swapgw/persistence';
import { loadConfig } from '@swapgw/runtime';
import { testEnv } from '@swapgw/testing';
import { ApiKeyRepository } from '../../src/auth/api-key.repository';
import { createGatewayApp, GatewayApp } from '../../src/bootstrap/create-gateway-app';
import { GatewayConfig } from '../../src/config/gateway.config';
import { MetricsServer } from '../../src/metrics/metrics-server';

export interface TestGateway extends GatewayApp {
  /** http://127.0.0.1:<port>/api/v1 */
  baseUrl: string;
  /** http://127.0.0.1:<METRICS_PORT>/metrics: the metrics server, apart from the API port. */
  metricsUrl: string;
  config: GatewayConfig;
  /** Creates an API key for `owner` in this gateway's database and returns it. */
  createKey(owner: string): Promise<string>;
  revokeKey(key: string): Promise<void>;
  dataSource: DataSource;
  close(): Promise<void>;
}

let counter = 0;

/** A database of its own for one test file, on the server of DATABASE_URL (dropped by dropTestDatabase). */
export function testDatabaseUrl(label: string): string {
  counter += 1;
  const name = `swapgw_e2e_gw_${label}_${process.pid}_${counter}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return withDatabase(testEnv().databaseUrl, name);
}

export const dropTestDatabase = (url: string): Promise<void> => dropDatabase(url);

/**
 * Boots the real gateway (same createGatewayApp as main.ts) in this process against the real
 * PostgreSQL and Kafka of the test environment, listening on a free port.
 */
export async function startTestGateway(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  extraModules?: Array<Type<unknown> | DynamicModule>;
  prepare?: boolean;
}): Promise<TestGateway> {
  const env = testEnv();
  const config = loadConfig(GatewayConfig, {
    DATABASE_URL: options.databaseUrl,
    KAFKA_BROKERS: env.kafkaBrokers,
    PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    INSTANCE_ID: `gw-e2e-${process.pid}-${++counter}`,
    // Never join the real `gateway` group: these throwaway instances would take swap.events
    // partitions from the gateways other tests talk to.
    KAFKA_GROUP_ID: `gateway-e2e-${process.pid}`,
    // Nor the real `gateway-webhooks` group: its events would be recorded in this instance's database.
    WEBHOOK_KAFKA_GROUP_ID: `gateway-webhooks-e2e-${process.pid}`,
    ...options.env,
  });
  const gateway = await createGatewayApp(config, {
    extraModules: options.extraModules,
    prepare: options.prepare,
  });
  await gateway.listen(0);
  await gateway.startConsumers();
  const address = gateway.app.getHttpServer().address() as { port: number };
  const store = gateway.app.get(ApiKeyRepository);
  const dataSource = gateway.app.get(DataSource);
  return {
    ...gateway,
    config,
    dataSource,
    baseUrl: `http://127.0.0.1:${address.port}/api/v1`,
    metricsUrl: `http://127.0.0.1:${gateway.app.get(MetricsServer).port()}/metrics`,
    createKey: async (owner) => (await store.create(owner)).key,
    revokeKey: async (key) => {
      await store.revoke(key.slice(4, 12));
    },
    close: () => gateway.app.close(),
  };
}
