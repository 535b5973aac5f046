import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import { ChainsResponse, PairsResponse, TokensResponse } from './dto/catalog-responses';
import { ListPairsQuery } from './dto/list-pairs.query';
import { ListTokensQuery } from './dto/list-tokens.query';
import { CatalogEdgeInterceptor } from './catalog-edge.interceptor';
import { CatalogService } from './catalog.service';

@ApiTags('catalog')
@ApiBearerAuth()
@Controller()
@UseInterceptors(CatalogEdgeInterceptor)
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get('chains')
  @ApiOperation({
    operationId: 'listChains',
    summary: 'Chains: devnet chains and the real networks (listed even without an RPC)',
  })
  @ApiEnvelopedResponse(200, ChainsResponse, 'data.chains')
  @ApiErrorResponses('DISCOVERY_UPSTREAM_UNAVAILABLE')
  chains(): Promise<ChainsResponse> {
    return this.catalog.chains();
  }

  @Get('tokens')
  @ApiOperation({ operationId: 'listTokens', summary: 'Tokens, keyset-paginated with an opaque cursor' })
  @ApiEnvelopedResponse(200, TokensResponse, 'data.tokens and data.nextCursor')
  @ApiErrorResponses('INVALID_CURSOR', 'UNKNOWN_CHAIN', 'DISCOVERY_UPSTREAM_UNAVAILABLE')
  tokens(@Query() query: ListTokensQuery): Promise<TokensResponse> {
    return this.catalog.tokens(query);
  }

  @Get('pairs')
  @ApiOperation({
    operationId: 'listPairs',
    summary: 'Trading pairs (symbols), keyset-paginated; chainRef restricts to same-chain pairs',
  })
  @ApiEnvelopedResponse(200, PairsResponse, 'data.pairs and data.nextCursor')
  @ApiErrorResponses('INVALID_CURSOR', 'UNKNOWN_CHAIN', 'DISCOVERY_UPSTREAM_UNAVAILABLE')
  pairs(@Query() query: ListPairsQuery): Promise<PairsResponse> {
    return this.catalog.pairs(query);
  }
}
