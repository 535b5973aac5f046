import { Module } from '@nestjs/common';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

/** GET /status/transaction/{txHash}; the look-up itself runs in signer-surface. */
@Module({
  controllers: [StatusController],
  providers: [StatusService],
})
export class StatusModule {}
