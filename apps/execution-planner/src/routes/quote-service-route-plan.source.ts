import { Injectable } from '@nestjs/common';
import { GetRoutePlanRequest, QuoteMessageTypes, RoutePlan, Topics } from '@swapgw/contracts';
import { RequestReplyClient } from '@swapgw/messaging';
import { RoutePlanSource } from './route-plan.source';

/** Route plans from quote-service over request-reply (`quote.requests`, `quote.route.get`). */
@Injectable()
export class QuoteServiceRoutePlanSource implements RoutePlanSource {
  constructor(
    private readonly requester: RequestReplyClient,
    private readonly timeoutMs: number,
  ) {}

  load(quoteId: string, routeId: string): Promise<RoutePlan> {
    const request: GetRoutePlanRequest = { quoteId, routeId };
    return this.requester.request<RoutePlan>(Topics.quoteRequests, QuoteMessageTypes.getRoute, quoteId, request, { timeoutMs: this.timeoutMs });
  }
}
