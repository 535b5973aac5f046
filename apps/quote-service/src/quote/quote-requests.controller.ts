import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { CreateQuoteRequest, GetRoutePlanRequest, QuoteMessageTypes, Topics } from '@swapgw/contracts';
import { RequestResponder } from '@swapgw/messaging';
import { QuoteService } from './quote.service';

/** Request-reply entry of quotes: `quote.requests` (gateway: quote.create; planner: quote.route.get). */
@Controller()
export class QuoteRequestsController {
  constructor(
    private readonly responder: RequestResponder,
    private readonly quotes: QuoteService,
  ) {}

  @MessagePattern(Topics.quoteRequests)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      [QuoteMessageTypes.create]: { payload: CreateQuoteRequest, handle: (request: CreateQuoteRequest) => this.quotes.create(request) },
      [QuoteMessageTypes.getRoute]: { payload: GetRoutePlanRequest, handle: (request: GetRoutePlanRequest) => this.quotes.routePlan(request) },
    });
  }
}
