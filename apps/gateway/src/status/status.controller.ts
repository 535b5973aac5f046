import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import { TransactionStatusQuery } from './dto/transaction-status.query';
import { TransactionStatusResponse } from './dto/transaction-status.response';
import { StatusService } from './status.service';

@ApiTags('status')
@ApiBearerAuth()
@Controller('status')
export class StatusController {
  constructor(private readonly status: StatusService) {}

  @Get('transaction/:txHash')
  @ApiOperation({
    operationId: 'getTransactionStatus',
    summary: 'On-chain status of a transaction (EVM, Solana, Bitcoin)',
  })
  @ApiParam({
    name: 'txHash',
    description: 'EVM: 0x + 64 hex digits; Solana: base58 signature of 64 bytes; Bitcoin: 64 hex digits',
  })
  @ApiEnvelopedResponse(200, TransactionStatusResponse, 'pending, confirmed or failed')
  @ApiErrorResponses(
    'UNKNOWN_CHAIN',
    'INVALID_TX_HASH',
    'TRANSACTION_NOT_FOUND',
    {
      status: 502,
      description:
        'The chain has no RPC, its RPC or status API failed, or signer-surface did not answer in time',
    },
    'STATUS_UPSTREAM_ERROR',
  )
  transaction(
    @Param('txHash') txHash: string,
    @Query() query: TransactionStatusQuery,
  ): Promise<TransactionStatusResponse> {
    return this.status.transaction(query.chainRef, txHash);
  }
}
