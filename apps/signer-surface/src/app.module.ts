import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MessagingModule } from '@swapgw/messaging';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { Clock, SystemClock } from '@swapgw/runtime';
import { SignerSurfaceConfig } from './config/signer-surface.config';
import { signerDatabaseOptions } from './database/signer-database';
import { SIGNING_FAMILIES } from './families/families';
import { SigningModule } from './signing/signing.module';
import { SigningController } from './signing/signing.controller';
import { SignerSurfaceWarmupModule } from './startup-warmups';
import { StatusModule } from './status/status.module';

export const SERVICE_NAME = 'signer-surface';

@Module({})
export class AppModule {
  /**
   * The app for a validated config; tests may give their own consumer group. The Kafka entry points
   * (SigningController) sit here, over the feature modules, so that integration tests can serve the
   * same modules on topics of their own. The composition root: the chain families register with the
   * signing flow here (families/families.ts), the only import of families/ from outside it.
   */
  static forRoot(config: SignerSurfaceConfig, options: { groupId?: string } = {}): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [
        { provide: SignerSurfaceConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [SignerSurfaceConfig, Clock],
      imports: [
        TypeOrmModule.forRoot(serviceDataSourceOptions(signerDatabaseOptions(config.databaseUrl))),
        MessagingModule.forRoot({
          config,
          clientId: SERVICE_NAME,
          groupId: options.groupId ?? SERVICE_NAME,
          outbox: true,
        }),
        SigningModule.register(SIGNING_FAMILIES),
        StatusModule,
        SignerSurfaceWarmupModule,
      ],
      controllers: [SigningController],
    };
  }
}
