import { Module } from '@nestjs/common';
import { SwapModule } from '../swap/swap.module';
import { SwapEventStreams } from './swap-event-streams.service';
import { SwapEventStreamController } from './swap-event-stream.controller';

/**
 * GET /swap/{swapId}/events. The log it reads (SwapEventLogRepository, gateway.swap_events) is written by the
 * swap read-model projector and so lives in SwapModule, which also lends the view store and the
 * NOTIFY listener that wakes streams.
 */
@Module({
  imports: [SwapModule],
  controllers: [SwapEventStreamController],
  providers: [SwapEventStreams],
})
export class SwapEventStreamModule {}
