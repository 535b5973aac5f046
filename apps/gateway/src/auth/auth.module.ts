import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [
    {
      provide: ApiKeyRepository,
      inject: [DataSource],
      useFactory: (ds: DataSource) => new ApiKeyRepository(ds),
    },
    ApiKeyAuthenticator,
  ],
  exports: [ApiKeyAuthenticator, ApiKeyRepository],
})
export class AuthModule {}
