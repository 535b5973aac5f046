import type { EntityManager } from 'typeorm';
import type { DataSource } from 'typeorm';
import { LimitOrderEventTypes, MessageEnvelope, SwapEventTypes } from '@swapgw/contracts';
import type { StreamHandler, StreamHandlers } from '@swapgw/messaging';
import { loadConfig, SystemClock } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { WebhookDeliveriesRepository, WebhookEvent } from './webhook-deliveries.repository';
import { WebhookEventsConsumer } from './webhook-events.consumer';
import type { WebhookOwners } from './webhook-owners';
import type { WebhooksRepository } from './webhooks.repository';

/**
 * The mapping from source events to webhook events (types, owner, public data), with a recording
 * store and a manager that answers the owner look-up. The Kafka and transaction side is in the
 * e2e suite (apps/gateway/test/webhooks.e2e-spec.ts).
 */
describe('WebhookEventsConsumer handlers', () => {
  const enqueued: Array<{ owner: string; event: WebhookEvent }> = [];
  const owners = new Map<string, string>();
  // Records deliveries; a swap's owner is resolved as the store's SQL does (remembered from swap.created).
  const store = {
    rememberSwapOwner: async (_m: EntityManager, swapId: string, owner: string) => {
      owners.set(swapId, owner);
    },
    enqueue: async (_m: EntityManager, owner: string | { swapId: string }, event: WebhookEvent) => {
      const resolved = typeof owner === 'string' ? owner : owners.get(owner.swapId);
      if (resolved === undefined) return 0;
      enqueued.push({ owner: resolved, event });
      return 1;
    },
  };
  const consumer = new WebhookEventsConsumer(
    loadConfig(GatewayConfig, {}),
    {} as DataSource,
    store as unknown as WebhookDeliveriesRepository,
    {} as WebhookOwners,
    {} as WebhooksRepository,
    new SystemClock(),
  );
  const handlers = (consumer as unknown as { handlers: Record<string, StreamHandlers> }).handlers;
  const manager = {
    query: async (sql: string, params: unknown[]) => {
      if (sql.includes('INSERT INTO "gateway"."webhook_swap_owners"'))
        owners.set(String(params[0]), String(params[1]));
      if (sql.includes('FROM "gateway"."webhook_swap_owners"'))
        return owners.has(String(params[0])) ? [{ owner: owners.get(String(params[0])) }] : [];
      return [];
    },
  } as unknown as EntityManager;
  const run = async (topic: string, type: string, payload: object) => {
    const handler = handlers[topic][type] as StreamHandler<object>;
    const envelope = {
      eventId: `ev-${type}`,
      type,
      occurredAtMs: 1234,
      payload,
    } as unknown as MessageEnvelope<object>;
    await handler.handle(payload, envelope, manager);
  };

  /** swap.created of `swapId`, owned by `owner`: what names the owner of its later events. */
  const created = (swapId: string, owner: string, swap: Record<string, unknown>) =>
    run('swap.events', SwapEventTypes.created, {
      swapId,
      status: 'planning',
      owner,
      quoteId: 'q',
      routeId: 'r',
      createdAtMs: 1,
      ...swap,
    });

  beforeEach(() => enqueued.splice(0));

  it('pushes swap events under their public names to the owner named by swap.created', async () => {
    await created('s1', 'alice', { fromChain: 'a', toChain: 'b', userAddress: '0x1', stepCount: 2 });
    await run('swap.events', SwapEventTypes.signingReady, {
      swapId: 's1',
      status: 'awaiting_signature',
      step: { current: 1, total: 2 },
      payload: { secret: 'x' },
      expiresAtMs: 9,
      readyAtMs: 5,
      executionHints: {},
      clientHints: {},
    });
    const txid = 'ab'.repeat(32);
    await run('swap.events', SwapEventTypes.stepConfirmed, {
      swapId: 's1',
      status: 'completed',
      step: { current: 1, total: 2 },
      chain: 'bitcoin-devnet',
      txHash: txid,
    });
    await run('swap.events', SwapEventTypes.completed, {
      swapId: 's1',
      status: 'completed',
      completedAtMs: 7,
    });
    expect(enqueued.map((e) => [e.owner, e.event.type])).toEqual([
      ['alice', 'swap.created'],
      ['alice', 'swap.payload-ready'],
      ['alice', 'swap.step-confirmed'],
      ['alice', 'swap.completed'],
    ]);
    expect(enqueued[2].event.data).toEqual({
      swapId: 's1',
      status: 'completed',
      step: { current: 1, total: 2 },
      chain: 'bitcoin-devnet',
      txHash: txid,
    });
    expect(enqueued[1].event).toEqual({
      eventId: `ev-${SwapEventTypes.signingReady}`,
      type: 'swap.payload-ready',
      occurredAtMs: 1234,
      data: {
        swapId: 's1',
        status: 'awaiting_signature',
        step: { current: 1, total: 2 },
        readyAtMs: 5,
        expiresAtMs: 9,
      },
    });
    expect(enqueued[0].event.data).not.toHaveProperty('owner');
  });

  it("pushes each change of a THORChain deposit's phase as swap.step-thorchain, in THORNode's terms", async () => {
    await created('s2', 'bob', {
      fromChain: 'bitcoin-devnet',
      toChain: 'devnet-a',
      userAddress: 'bcrt1q',
      stepCount: 1,
    });
    const event = {
      swapId: 's2',
      status: 'confirming',
      step: { current: 1, total: 1 },
      chain: 'bitcoin-devnet',
      txHash: 'cd'.repeat(32),
      thorchain: { phase: 'streaming', streaming: { count: 2, quantity: 5 }, outTxIds: [] },
    };
    await run('swap.events', SwapEventTypes.stepThorchain, event);
    expect(enqueued.map((e) => [e.owner, e.event.type])).toEqual([
      ['bob', 'swap.created'],
      ['bob', 'swap.step-thorchain'],
    ]);
    // The planner's event as it is: every field public, nothing added.
    expect(enqueued[1].event.data).toEqual(event);
  });

  it('skips a swap whose owner it cannot know, and intermediate swap types', async () => {
    const failed = handlers['swap.events'][SwapEventTypes.failed] as StreamHandler<{ swapId: string }>;
    // Not a swap id at all: not wanted, without a query (the DataSource here has none).
    await expect(
      failed.wanted!({ swapId: 'unknown-swap' }, {} as MessageEnvelope<{ swapId: string }>),
    ).resolves.toBe(false);
    await run('swap.events', SwapEventTypes.failed, {
      swapId: 'unknown-swap',
      status: 'failed',
      reason: 'X',
      details: {},
    });
    expect(enqueued).toEqual([]);
    expect(handlers['swap.events'][SwapEventTypes.signingPending]).toEqual({ ignore: true });
    expect(handlers['swap.events'][SwapEventTypes.stepConfirming]).toEqual({ ignore: true });
  });

  it('pushes every limit-order type under its own name, without the owner in the data', async () => {
    for (const type of Object.values(LimitOrderEventTypes)) {
      await run('limit-order.events', type, {
        limitOrderId: 'lo_1',
        owner: 'bob',
        status: 'open',
        timeInForce: 'GTC',
        version: 1,
        expiresAtMs: 1,
        amount: '1',
        minAmountOut: '2',
      });
    }
    expect(enqueued.map((e) => e.event.type)).toEqual(Object.values(LimitOrderEventTypes));
    expect(enqueued.every((e) => e.owner === 'bob' && !('owner' in e.event.data))).toBe(true);
  });
});
