import { DynamicModule, ForwardReference, Module, Type } from '@nestjs/common';
import { CatalogModule } from './catalog/catalog.module';
import { GatewayConfig } from './config/gateway.config';
import { GatewayCoreModule } from './gateway-core.module';
import { LimitOrdersModule } from './limit-orders/limit-orders.module';
import { QuoteModule } from './quote/quote.module';
import { StatusModule } from './status/status.module';
import { SwapEventStreamModule } from './swap-event-stream/swap-event-stream.module';
import { SwapModule } from './swap/swap.module';
import { WebhooksModule } from './webhooks/webhooks.module';

type ModuleImport = Type<unknown> | DynamicModule | Promise<DynamicModule> | ForwardReference;

/**
 * Feature modules of the public API, one line each (catalog, quote, swap, status, limit-orders).
 * Each brings its own controllers, DTOs and, if it needs tables, entities via
 * TypeOrmModule.forFeature and a migration listed in migrations/index.ts.
 */
const FEATURE_MODULES: ModuleImport[] = [
  CatalogModule,
  QuoteModule,
  LimitOrdersModule,
  SwapModule,
  SwapEventStreamModule,
  StatusModule,
  WebhooksModule,
];

@Module({})
export class AppModule {
  /** `extraModules` lets tests add controllers that exist only in tests. */
  static register(config: GatewayConfig, extraModules: ModuleImport[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [GatewayCoreModule.forRoot(config), ...FEATURE_MODULES, ...extraModules],
    };
  }
}
