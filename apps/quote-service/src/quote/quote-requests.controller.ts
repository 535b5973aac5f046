import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateQuoteRequest,
  QuoteMessageTypes,
  RepriceRouteLegRequest,
  RoutePreflightRequest,
  Topics,
} from '@swapgw/contracts';
import { withChainStateScope } from '@swapgw/chains/families';
import { RequestResponder } from '@swapgw/messaging';
import { QuoteService } from './quote.service';
import { RouteRepricer } from './route-repricer';

/**
 * Request-reply entry of quotes: `quote.requests` (quote.create, from the gateway and
 * limit-order-service; quote.preflight and quote.reprice, from the gateway's build). Each request
 * reads every chain at one block, the head when it arrived or later (withChainStateScope), and
 * shares that block's reads with every other request of the same block.
 */
@Controller()
export class QuoteRequestsController {
  constructor(
    private readonly responder: RequestResponder,
    private readonly quotes: QuoteService,
    private readonly repricer: RouteRepricer,
  ) {}

  @MessagePattern(Topics.quoteRequests)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return withChainStateScope(() =>
      this.responder.respond(message, ctx, {
        [QuoteMessageTypes.create]: {
          payload: CreateQuoteRequest,
          handle: (request: CreateQuoteRequest) => this.quotes.create(request),
        },
        [QuoteMessageTypes.preflight]: {
          payload: RoutePreflightRequest,
          handle: (request: RoutePreflightRequest) => this.quotes.preflight(request),
        },
        [QuoteMessageTypes.reprice]: {
          payload: RepriceRouteLegRequest,
          handle: (request: RepriceRouteLegRequest) => this.repricer.reprice(request),
        },
      }),
    );
  }
}
