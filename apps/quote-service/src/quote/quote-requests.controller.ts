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
import { RequestHandlers, RequestResponder } from '@swapgw/messaging';
import { QuoteService } from './quote.service';
import { RouteRepricer } from './route-repricer';

/**
 * Request-reply entry of quotes: `quote.requests` (quote.create, from the gateway and
 * limit-order-service) and `quote.checks` (quote.reprice and quote.preflight, from the gateway's
 * build and the planner's later legs), the latter consumed in a lane of its own (main.ts) so that a
 * build's check never waits behind a flood of quotes. Each request reads every chain at one block,
 * the head when it arrived or later (withChainStateScope), and shares that block's reads with every
 * other request of the same block.
 */
@Controller()
export class QuoteRequestsController {
  constructor(
    private readonly responder: RequestResponder,
    private readonly quotes: QuoteService,
    private readonly repricer: RouteRepricer,
  ) {}

  /** The checks of a build, by type: on quote.checks, and on quote.requests from requesters before it. */
  private readonly checks: RequestHandlers = {
    [QuoteMessageTypes.preflight]: {
      payload: RoutePreflightRequest,
      handle: (request: RoutePreflightRequest) => this.quotes.preflight(request),
    },
    [QuoteMessageTypes.reprice]: {
      payload: RepriceRouteLegRequest,
      handle: (request: RepriceRouteLegRequest) => this.repricer.reprice(request),
    },
  };

  /**
   * Quotes. A check still arriving here (sent by a gateway or planner of the release before
   * quote.checks, during a rolling deploy, or replayed) is answered as before.
   */
  @MessagePattern(Topics.quoteRequests)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return withChainStateScope(() =>
      this.responder.respond(message, ctx, {
        [QuoteMessageTypes.create]: {
          payload: CreateQuoteRequest,
          handle: (request: CreateQuoteRequest) => this.quotes.create(request),
        },
        ...this.checks,
      }),
    );
  }

  @MessagePattern(Topics.quoteChecks)
  handleCheck(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return withChainStateScope(() => this.responder.respond(message, ctx, this.checks));
  }
}
