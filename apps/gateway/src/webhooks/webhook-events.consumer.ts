import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { DataSource } from 'typeorm';
import { Clock, TtlCache } from '@swapgw/runtime';
import {
  LimitOrderEventPayload,
  LimitOrderEventTypes,
  MessageEnvelope,
  SwapCompletedEvent,
  SwapCreatedEvent,
  SwapEventTypes,
  SwapExpiredEvent,
  SwapFailedEvent,
  SwapSigningReadyEvent,
  SwapStepConfirmedEvent,
  SwapStepPacketEvent,
  SwapStepThorchainEvent,
  SwapStepSubmittedEvent,
  Topics,
} from '@swapgw/contracts';
import {
  IdempotentConsumer,
  StandaloneGroupConsumer,
  StreamHandler,
  StreamHandlers,
} from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayKafkaSettings } from '../gateway-core.module';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhooksRepository } from './webhooks.repository';
import { WebhookOwners } from './webhook-owners';
import { SWAP_WEBHOOK_TYPES } from './webhook-event-types';
import { webhookMetrics } from './webhook-metrics';

/** How long (and how many) swaps' owners are remembered from their swap.created. */
const SWAP_OWNER_TTL_MS = 3_600_000;
const MAX_SWAP_OWNERS = 100_000;

/** Topics whose events are pushed to webhooks. */
export const WEBHOOK_SOURCE_TOPICS = [Topics.swapEvents, Topics.limitOrderEvents] as const;

type PublicData = Record<string, unknown>;

/**
 * Turns swap.events and limit-order.events into webhook deliveries, in a consumer group of its own
 * (WEBHOOK_KAFKA_GROUP_ID, default `gateway-webhooks`) apart from the read-model projector's, so
 * either can lag, replay or be switched off without the other. Each event goes through
 * IdempotentConsumer: its processed_events row and the delivery rows are one transaction, and the
 * offset is committed only after it, so an event recorded is never lost and never recorded twice.
 *
 * The group runs through libs/messaging's StandaloneGroupConsumer rather than a second Nest Kafka
 * server: Nest routes every @EventPattern of the app to every server, so a second server would also
 * run the projector.
 */
@Injectable()
export class WebhookEventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly idempotent: IdempotentConsumer;
  private readonly handlers: Record<string, StreamHandlers>;
  private readonly group: StandaloneGroupConsumer;

  /**
   * Owners of the swaps whose swap.created this instance consumed: a swap's events share its key,
   * so its later events come here too (until partitions move; then the read model tells).
   */
  private readonly swapOwners: TtlCache<string>;

  constructor(
    private readonly config: GatewayConfig,
    dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly owners: WebhookOwners,
    private readonly webhooks: WebhooksRepository,
    private readonly clock: Clock,
  ) {
    this.swapOwners = new TtlCache({ ttlMs: SWAP_OWNER_TTL_MS, maxEntries: MAX_SWAP_OWNERS, clock });
    this.idempotent = new IdempotentConsumer(dataSource, config.WEBHOOK_KAFKA_GROUP_ID, clock);
    this.handlers = {
      [Topics.swapEvents]: this.swapHandlers(),
      [Topics.limitOrderEvents]: this.limitOrderHandlers(),
    };
    this.group = new StandaloneGroupConsumer({
      settings: gatewayKafkaSettings(config),
      groupId: config.WEBHOOK_KAFKA_GROUP_ID,
      clientIdSuffix: 'webhooks',
      topics: WEBHOOK_SOURCE_TOPICS,
      handle: (topic, value, ctx) => this.idempotent.consume(value, ctx, this.handlers[topic] ?? {}),
    });
  }

  onApplicationBootstrap(): void {
    if (!this.config.WEBHOOKS_ENABLED) return;
    // In the background: app start (and the API) must not wait for Kafka, as for the projector.
    this.group.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.group.stop();
  }

  private swapHandlers(): StreamHandlers {
    const handlers: StreamHandlers = {};
    // Swap types not pushed are acknowledged and skipped (signing-pending, step-confirming, ...).
    for (const type of Object.values(SwapEventTypes)) handlers[type] = { ignore: true };
    const on = <P extends { swapId: string }>(
      type: keyof typeof SWAP_WEBHOOK_TYPES,
      payload: StreamHandler<P>['payload'],
      data: (e: P) => PublicData,
    ) => {
      handlers[type] = {
        payload,
        wanted: (e: P) => this.swapWanted(e.swapId, SWAP_WEBHOOK_TYPES[type]),
        // Only reached when swapWanted found the owner: the owner is read again inside the INSERT.
        handle: async (e: P, envelope: MessageEnvelope<P>, manager: EntityManager) =>
          this.enqueue(manager, { swapId: e.swapId }, SWAP_WEBHOOK_TYPES[type], envelope, data(e)),
      } satisfies StreamHandler<P>;
    };
    handlers[SwapEventTypes.created] = {
      payload: SwapCreatedEvent,
      // An owner without webhooks gets nothing, and its swaps need no row here: a webhook
      // registered later finds their owner in the read model (swapOwner).
      wanted: (e: SwapCreatedEvent) => {
        this.swapOwners.set(e.swapId, e.owner);
        return this.ownerWants(e.owner, SWAP_WEBHOOK_TYPES[SwapEventTypes.created]);
      },
      handle: async (
        e: SwapCreatedEvent,
        envelope: MessageEnvelope<SwapCreatedEvent>,
        manager: EntityManager,
      ) => {
        // Only swap.created names the owner: remember it for the swap's later events.
        await this.deliveries.rememberSwapOwner(manager, e.swapId, e.owner, this.clock.nowMs());
        const { swapId, status, quoteId, routeId, fromChain, toChain, userAddress, stepCount, createdAtMs } =
          e;
        await this.enqueue(manager, e.owner, SWAP_WEBHOOK_TYPES[SwapEventTypes.created], envelope, {
          swapId,
          status,
          quoteId,
          routeId,
          fromChain,
          toChain,
          userAddress,
          stepCount,
          createdAtMs,
        });
      },
    } satisfies StreamHandler<SwapCreatedEvent>;
    on(SwapEventTypes.signingReady, SwapSigningReadyEvent, (e: SwapSigningReadyEvent) => ({
      swapId: e.swapId,
      status: e.status,
      step: { current: e.step.current, total: e.step.total },
      readyAtMs: e.readyAtMs,
      expiresAtMs: e.expiresAtMs,
    }));
    // What every event of a step's transaction tells: the swap, the step, its chain and hash.
    const stepTransaction = (e: SwapStepSubmittedEvent) => ({
      swapId: e.swapId,
      status: e.status,
      step: { current: e.step.current, total: e.step.total },
      chain: e.chain,
      txHash: e.txHash,
    });
    on(SwapEventTypes.stepSubmitted, SwapStepSubmittedEvent, stepTransaction);
    on(SwapEventTypes.stepConfirmed, SwapStepConfirmedEvent, (e: SwapStepConfirmedEvent) => ({
      swapId: e.swapId,
      status: e.status,
      step: { current: e.step.current, total: e.step.total },
      chain: e.chain,
      ...(e.txHash !== undefined ? { txHash: e.txHash } : {}),
      ...(e.skipped ? { skipped: true } : {}),
    }));
    on(SwapEventTypes.stepPacket, SwapStepPacketEvent, (e: SwapStepPacketEvent) => ({
      ...stepTransaction(e),
      packet: { ...e.packet },
    }));
    on(SwapEventTypes.stepThorchain, SwapStepThorchainEvent, (e: SwapStepThorchainEvent) => ({
      ...stepTransaction(e),
      thorchain: {
        phase: e.thorchain.phase,
        streaming: e.thorchain.streaming ? { ...e.thorchain.streaming } : null,
        outTxIds: [...e.thorchain.outTxIds],
      },
    }));
    on(SwapEventTypes.completed, SwapCompletedEvent, (e: SwapCompletedEvent) => ({
      swapId: e.swapId,
      status: e.status,
      completedAtMs: e.completedAtMs,
    }));
    on(SwapEventTypes.failed, SwapFailedEvent, (e: SwapFailedEvent) => ({
      swapId: e.swapId,
      status: e.status,
      reason: e.reason,
      details: e.details,
    }));
    on(SwapEventTypes.expired, SwapExpiredEvent, (e: SwapExpiredEvent) => ({
      swapId: e.swapId,
      status: e.status,
      reason: e.reason,
    }));
    return handlers;
  }

  private limitOrderHandlers(): StreamHandlers {
    const handler: StreamHandler<LimitOrderEventPayload> = {
      payload: LimitOrderEventPayload,
      wanted: (e, envelope) => this.ownerWants(e.owner, envelope.type),
      handle: async (e, envelope, manager) => {
        const { owner, ...data } = e;
        await this.enqueue(manager, owner, envelope.type, envelope, { ...data });
      },
    };
    // Every type of the topic is pushed under its own name (WEBHOOK_EVENT_TYPES lists them).
    return Object.fromEntries(Object.values(LimitOrderEventTypes).map((type) => [type, handler]));
  }

  /**
   * Whether `owner` has a webhook taking `type`, decided before the event's transaction so that the
   * events of owners without webhooks (most of them) cost no transaction: without a read when
   * WebhookOwners knows the owner has none, else one read. A webhook registered while the answer is
   * read could not take the event anyway: deliveries go to webhooks registered when the event
   * occurred, as `enqueue` reads them.
   */
  private async ownerWants(owner: string, type: string): Promise<boolean> {
    if (!this.owners.mayHaveWebhooks(owner)) return false;
    return this.webhooks.ownerWants(owner, type);
  }

  /**
   * ownerWants for a swap's event: its owner as swap.created told this instance, else remembered
   * from swap.created in webhook_swap_owners or read from the read model (swapOwnerWants).
   */
  private async swapWanted(swapId: string, type: string): Promise<boolean> {
    if (!isUUID(swapId)) return false; // no swap has it: nobody to push to
    if (!this.owners.anyMayExist()) return false;
    const owner = this.swapOwners.peek(swapId);
    if (owner !== undefined) return this.ownerWants(owner, type);
    return this.webhooks.swapOwnerWants(swapId, type);
  }

  private async enqueue(
    manager: EntityManager,
    owner: string | { swapId: string },
    type: string,
    envelope: MessageEnvelope<unknown>,
    data: PublicData,
  ): Promise<void> {
    const count = await this.deliveries.enqueue(manager, owner, {
      eventId: envelope.eventId,
      type,
      occurredAtMs: envelope.occurredAtMs,
      data,
    });
    if (count > 0) webhookMetrics.enqueued(count);
  }
}
