import { Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainRegistry } from '@swapgw/chains';
import { MessagingModule } from '@swapgw/messaging';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { SignerSurfaceConfig } from './config/signer-surface.config';
import { signerDatabaseOptions } from './database/signer-database';
import { signingProviders } from './signing/signing-components';
import { SigningController } from './signing/signing.controller';

export const SIGNER_GROUP_ID = 'signer-surface';

/** signer-surface's Nest module for a validated config. */
export function signerSurfaceModule(config: SignerSurfaceConfig): Type<unknown> {
  // The registry reads RPC_URL_* and ESPLORA_URL_BITCOIN itself; the config validated them first.
  const registry = ChainRegistry.fromEnvironment({ ...process.env, DEVNET_MANIFEST: config.DEVNET_MANIFEST });

  @Module({
    imports: [
      TypeOrmModule.forRoot(serviceDataSourceOptions(signerDatabaseOptions(config.DATABASE_URL))),
      MessagingModule.forRoot({ clientId: SIGNER_GROUP_ID, groupId: SIGNER_GROUP_ID, outbox: true }),
    ],
    controllers: [SigningController],
    providers: signingProviders({ config, registry }),
  })
  class SignerSurfaceModule {}

  return SignerSurfaceModule;
}
