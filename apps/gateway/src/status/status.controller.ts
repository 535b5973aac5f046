import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TransactionStatusQuery } from './dto/transaction-status.query';
import { TransactionStatusResponse } from './dto/transaction-status.response';
import { StatusService } from './status.service';

@ApiTags('status')
@ApiBearerAuth()
@Controller('status')
export class StatusController {
  constructor(private readonly status: StatusService) {}

  @Get('transaction/:txHash')
  @ApiOperation({ summary: 'On-chain status of a transaction (EVM, Bitcoin)' })
  @ApiParam({ name: 'txHash', description: 'EVM: 0x + 64 hex digits; Bitcoin: 64 hex digits' })
  @ApiOkResponse({ type: TransactionStatusResponse })
  @ApiResponse({ status: 400, description: 'chainRef missing or unknown (UNKNOWN_CHAIN, VALIDATION_FAILED), or hash of the wrong form (INVALID_TX_HASH)' })
  @ApiResponse({ status: 404, description: 'The chain does not know the transaction (TRANSACTION_NOT_FOUND)' })
  @ApiResponse({ status: 502, description: 'The chain RPC or status API failed (STATUS_UPSTREAM_ERROR)' })
  @ApiResponse({ status: 503, description: 'Solana status not available yet (SIGNING_SURFACE_UNAVAILABLE)' })
  transaction(@Param('txHash') txHash: string, @Query() query: TransactionStatusQuery): Promise<TransactionStatusResponse> {
    return this.status.transaction(query.chainRef, txHash);
  }
}
