import { Module } from '@nestjs/common';
import { SwapModule } from '../swap/swap.module';
import { SwapEventStreams } from './swap-event-streams.service';
import { SwapEventsController } from './swap-events.controller';

/**
 * GET /swap/{swapId}/events. The log it reads (SwapEventLog, gateway.swap_events) is written by the
 * swap read-model projector and so lives in SwapModule, which also lends the view store and the
 * NOTIFY listener that wakes streams.
 */
@Module({
  imports: [SwapModule],
  controllers: [SwapEventsController],
  providers: [SwapEventStreams],
})
export class SwapEventsModule {}
