import {
  AddMessagingRetentionIndexes1764500000000,
  CreateMessagingTables1763700000000,
  OutboxMessageEntity,
  ProcessedEventEntity,
} from '@swapgw/messaging';
import { ServiceDataSourceOptions } from '@swapgw/persistence';
import { IdempotencyRecordEntity } from '../idempotency/idempotency-record.entity';
import { CreateLimitOrderTables1763710000000 } from '../migrations/1763710000000-create-limit-order-tables';
import { AddLimitOrderFailure1764310000000 } from '../migrations/1764310000000-add-limit-order-failure';
import { LimitOrderEventEntity } from '../orders/limit-order-event.entity';
import { LimitOrderEntity } from '../orders/limit-order.entity';

export const LIMIT_ORDER_SCHEMA = 'limit_order';

export const LIMIT_ORDER_ENTITIES = [
  LimitOrderEntity,
  LimitOrderEventEntity,
  IdempotencyRecordEntity,
  OutboxMessageEntity,
  ProcessedEventEntity,
];

export const LIMIT_ORDER_MIGRATIONS = [
  CreateMessagingTables1763700000000,
  CreateLimitOrderTables1763710000000,
  AddLimitOrderFailure1764310000000,
  AddMessagingRetentionIndexes1764500000000,
];

/** The service's schema, entities and migrations: shared by the app, the migrate CLI and tests. */
export function limitOrderDatabaseOptions(url: string, poolSize?: number): ServiceDataSourceOptions {
  return {
    url,
    schema: LIMIT_ORDER_SCHEMA,
    entities: LIMIT_ORDER_ENTITIES,
    migrations: LIMIT_ORDER_MIGRATIONS,
    poolSize,
    applicationName: 'limit-order-service',
  };
}
