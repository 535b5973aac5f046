import { ServiceDataSourceOptions } from '@swapgw/persistence';
import { ChainEntity, PairEntity, TokenEntity, TokenSourceEntity } from '../catalog/catalog.entities';
import { quoteServiceMigrations } from '../migrations';
import { QuoteEntity, QuoteRouteEntity } from '../quote/quote.entities';

export const QUOTE_SCHEMA = 'quote';
export const QUOTE_ENTITIES = [
  ChainEntity,
  TokenEntity,
  PairEntity,
  TokenSourceEntity,
  QuoteEntity,
  QuoteRouteEntity,
];

/**
 * quote-service's schema, entities and migrations: shared by the app, the migrate CLI and tests
 * (which pass a schema of their own so they never touch a running stack's data).
 */
export function quoteDatabaseOptions(
  url: string,
  poolSize?: number,
  schema: string = QUOTE_SCHEMA,
): ServiceDataSourceOptions {
  return {
    url,
    schema,
    entities: QUOTE_ENTITIES,
    migrations: quoteServiceMigrations,
    poolSize,
    applicationName: 'quote-service',
  };
}
