import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains/chains.module';
import { TransactionStatusService } from './transaction-status.service';

/** status.transaction: where a transaction stands on any listed chain. */
@Module({
  imports: [ChainsModule],
  providers: [TransactionStatusService],
  exports: [TransactionStatusService],
})
export class StatusModule {}
