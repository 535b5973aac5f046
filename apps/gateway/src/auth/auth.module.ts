import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyStore } from './api-key.store';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [
    { provide: ApiKeyStore, inject: [DataSource], useFactory: (ds: DataSource) => new ApiKeyStore(ds) },
    ApiKeyAuthenticator,
  ],
  exports: [ApiKeyAuthenticator, ApiKeyStore],
})
export class AuthModule {}
