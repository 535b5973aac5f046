import { Injectable } from '@nestjs/common';
import {
  CatalogMessageTypes,
  ErrorCodes,
  ListChainsRequest,
  ListChainsResult,
  ListPairsRequest,
  ListPairsResult,
  ListTokensRequest,
  ListTokensResult,
  Topics,
} from '@swapgw/contracts';
import { ServiceClient } from '../messaging/service-client';
import { ListPairsQuery } from './dto/list-pairs.query';
import { ListTokensQuery } from './dto/list-tokens.query';

/**
 * Catalog reads as request-reply calls to quote-service, which owns chains, tokens and pairs. Its
 * codes (INVALID_CURSOR, UNKNOWN_CHAIN, DISCOVERY_UPSTREAM_UNAVAILABLE) pass through; a catalog that
 * does not answer in time is the discovery upstream being unavailable: 502, as the spec lists.
 */
@Injectable()
export class CatalogService {
  constructor(private readonly services: ServiceClient) {}

  chains(): Promise<ListChainsResult> {
    const request: ListChainsRequest = {};
    return this.services.call(Topics.catalogRequests, CatalogMessageTypes.listChains, 'chains', request, {
      unavailableAs: ErrorCodes.DISCOVERY_UPSTREAM_UNAVAILABLE,
    });
  }

  tokens(query: ListTokensQuery): Promise<ListTokensResult> {
    const request: ListTokensRequest = { ...query };
    return this.services.call(Topics.catalogRequests, CatalogMessageTypes.listTokens, query.chainRef ?? 'tokens', request, {
      unavailableAs: ErrorCodes.DISCOVERY_UPSTREAM_UNAVAILABLE,
    });
  }

  pairs(query: ListPairsQuery): Promise<ListPairsResult> {
    const request: ListPairsRequest = { ...query };
    return this.services.call(Topics.catalogRequests, CatalogMessageTypes.listPairs, query.chainRef ?? 'pairs', request, {
      unavailableAs: ErrorCodes.DISCOVERY_UPSTREAM_UNAVAILABLE,
    });
  }
}
