import { DataSourceOptions } from 'typeorm';
import { ServiceDataSourceOptions, serviceDataSourceOptions } from '@swapgw/persistence';
import { GATEWAY_MIGRATIONS } from '../migrations';

export const GATEWAY_SCHEMA = 'gateway';

/** Options of the gateway's own schema, shared by the app, its migrations and the keys CLI. */
export function gatewayDatabaseOptions(
  url: string,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[] = [],
  poolSize?: number,
): ServiceDataSourceOptions {
  return {
    url,
    schema: GATEWAY_SCHEMA,
    entities,
    migrations: GATEWAY_MIGRATIONS,
    poolSize,
    applicationName: 'gateway',
  };
}

export function gatewayDataSourceOptions(
  url: string,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[] = [],
  poolSize?: number,
): DataSourceOptions {
  return serviceDataSourceOptions(gatewayDatabaseOptions(url, entities, poolSize));
}
