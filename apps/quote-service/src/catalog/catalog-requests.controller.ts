import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CatalogMessageTypes,
  ListChainsRequest,
  ListPairsRequest,
  ListTokensRequest,
  Topics,
} from '@swapgw/contracts';
import { RequestResponder } from '@swapgw/messaging';
import { CatalogService } from './catalog.service';

/** Request-reply entry of the catalog: `catalog.requests` (gateway → quote-service). */
@Controller()
export class CatalogRequestsController {
  constructor(
    private readonly responder: RequestResponder,
    private readonly catalog: CatalogService,
  ) {}

  @MessagePattern(Topics.catalogRequests)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      [CatalogMessageTypes.listChains]: {
        payload: ListChainsRequest,
        handle: () => this.catalog.listChains(),
      },
      [CatalogMessageTypes.listTokens]: {
        payload: ListTokensRequest,
        handle: (request: ListTokensRequest) => this.catalog.listTokens(request),
      },
      [CatalogMessageTypes.listPairs]: {
        payload: ListPairsRequest,
        handle: (request: ListPairsRequest) => this.catalog.listPairs(request),
      },
    });
  }
}
