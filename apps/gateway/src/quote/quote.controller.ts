import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import { IntegratorFeeShare } from '@swapgw/contracts';
import { IntegratorFeeDefault, Owner } from '../common/http/request-decorators';
import { CreateQuoteDto, CreateQuoteQuery } from './dto/create-quote.dto';
import { QuoteResponse } from './dto/quote-responses';
import { QuoteService } from './quote.service';

@ApiTags('quote')
@ApiBearerAuth()
@Controller('quote')
export class QuoteController {
  constructor(private readonly quotes: QuoteService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'getQuote',
    summary: 'Quote a swap within one chain or across chains; routes best output first (may be empty)',
  })
  @ApiEnvelopedResponse(200, QuoteResponse, 'quoteId, expiresAtMs and routes (possibly empty)')
  @ApiErrorResponses(
    'UNKNOWN_CHAIN',
    'UNKNOWN_TOKEN',
    'SAME_TOKEN',
    'INVALID_AMOUNT',
    'INVALID_ADDRESS',
    'VALIDATION_FAILED',
    'QUOTE_UPSTREAM_FAILED',
  )
  create(
    @Owner() owner: string,
    @Body() body: CreateQuoteDto,
    @Query() query: CreateQuoteQuery,
    @IntegratorFeeDefault() feeDefault: IntegratorFeeShare[] | undefined,
  ): Promise<QuoteResponse> {
    return this.quotes.create(owner, body, query.debug === true, feeDefault);
  }
}
