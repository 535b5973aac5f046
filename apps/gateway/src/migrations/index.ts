import {
  AddMessagingRetentionIndexes1764500000000,
  CreateMessagingTables1763700000000,
} from '@swapgw/messaging';
import { CreateApiKeys1763720000000 } from './1763720000000-create-api-keys';
import { CreateIdempotencyRecords1763720000001 } from './1763720000001-create-idempotency-records';
import { CreateRateLimitWindows1763720000002 } from './1763720000002-create-rate-limit-windows';
import { CreateSwapViews1763725000000 } from './1763725000000-create-swap-views';
import { AddSwapViewConfirmations1763990000000 } from './1763990000000-add-swap-view-confirmations';
import { CreateServedQuotes1764000000000 } from './1764000000000-create-served-quotes';
import { CreateSwapEvents1764100000000 } from './1764100000000-create-swap-events';
import { AddSwapViewSteps1764200000000 } from './1764200000000-add-swap-view-steps';
import { CreateWebhooks1764400000000 } from './1764400000000-create-webhooks';
import { AddApiKeyIntegratorFee1764600000000 } from './1764600000000-add-api-key-integrator-fee';
import { CreateIntegratorFeesCollected1764700000000 } from './1764700000000-create-integrator-fees-collected';

/**
 * Every migration of the `gateway` schema, in order. A feature module that needs a table (e.g. the
 * swap read model) adds its migration file in this folder and one line here.
 */
export const GATEWAY_MIGRATIONS = [
  // outbox + processed_events: the gateway's Kafka consumers (group `gateway`) record applied eventIds.
  CreateMessagingTables1763700000000,
  CreateApiKeys1763720000000,
  CreateIdempotencyRecords1763720000001,
  CreateRateLimitWindows1763720000002,
  CreateSwapViews1763725000000,
  AddSwapViewConfirmations1763990000000,
  CreateServedQuotes1764000000000,
  CreateSwapEvents1764100000000,
  AddSwapViewSteps1764200000000,
  CreateWebhooks1764400000000,
  AddMessagingRetentionIndexes1764500000000,
  AddApiKeyIntegratorFee1764600000000,
  CreateIntegratorFeesCollected1764700000000,
];
