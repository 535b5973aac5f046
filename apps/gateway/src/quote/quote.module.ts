import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { QuoteController } from './quote.controller';
import { QuoteService } from './quote.service';
import { ServedQuotes } from './served-quotes.repository';

/** POST /quote (routing and quote storage live in quote-service) and the quotes this gateway served. */
@Module({
  imports: [HealthModule],
  controllers: [QuoteController],
  providers: [QuoteService, ServedQuotes],
  exports: [ServedQuotes],
})
export class QuoteModule {}
