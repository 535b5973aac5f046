import './instrument';
import { bootstrapKafkaService } from '@swapgw/messaging';
import { prepareDatabase } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { SIGNER_GROUP_ID, signerSurfaceModule } from './app.module';
import { SignerSurfaceConfig } from './config/signer-surface.config';
import { signerDatabaseOptions } from './database/signer-database';

async function main(): Promise<void> {
  const config = loadConfigOrExit(SignerSurfaceConfig, 'signer-surface');
  await bootstrapKafkaService({
    module: signerSurfaceModule(config),
    service: 'signer-surface',
    groupId: SIGNER_GROUP_ID,
    healthPort: config.HEALTH_PORT,
    prepare: () => prepareDatabase(signerDatabaseOptions(config.DATABASE_URL)),
  });
}

main().catch(() => process.exit(1)); // bootstrapKafkaService logged the cause
