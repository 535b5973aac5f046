import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SwapBuildRequest, SwapCommandTypes, Topics } from '@swapgw/contracts';
import { Outbox } from '@swapgw/messaging';
import { SwapBuildCommands, SwapBuildOrder } from './upstream.ports';

/**
 * `swap.build` commands through this service's outbox (keyed by swapId, as the gateway sends its
 * own), published by the outbox relay once the order's transaction committed.
 */
@Injectable()
export class OutboxSwapBuildCommands extends SwapBuildCommands {
  constructor(private readonly outbox: Outbox) {
    super();
  }

  async enqueue(manager: EntityManager, order: SwapBuildOrder): Promise<void> {
    const request: SwapBuildRequest = {
      swapId: order.swapId,
      owner: order.owner,
      quoteId: order.quoteId,
      routeId: order.routeId,
      plan: order.plan,
      userAddress: order.userAddress,
      ...(order.recipient ? { recipient: order.recipient } : {}),
      acceptedAtMs: order.acceptedAtMs,
    };
    await this.outbox.enqueue(manager, {
      topic: Topics.swapCommands,
      type: SwapCommandTypes.build,
      aggregateId: order.swapId,
      payload: request,
    });
  }
}
