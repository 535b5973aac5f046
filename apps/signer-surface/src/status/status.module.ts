import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains/chains.module';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { TRANSACTION_STATUS_TIMEOUT_MS, TransactionStatusService } from './transaction-status.service';

/** status.transaction: where a transaction stands on any listed chain. */
@Module({
  imports: [ChainsModule],
  providers: [
    {
      provide: TRANSACTION_STATUS_TIMEOUT_MS,
      inject: [SignerSurfaceConfig],
      useFactory: (config: SignerSurfaceConfig) => config.RPC_TIMEOUT_MS,
    },
    TransactionStatusService,
  ],
  exports: [TransactionStatusService],
})
export class StatusModule {}
