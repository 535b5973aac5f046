import { OutboxMessageEntity, ProcessedEventEntity } from '@swapgw/messaging';
import { ServiceDataSourceOptions } from '@swapgw/persistence';
import { SIGNER_MIGRATIONS } from '../migrations';
import { RelayerAccountEntity } from '../sponsorship/relayer-account.entity';
import { SponsoredTransactionEntity } from '../sponsorship/sponsored-transaction.entity';
import { SigningRequestEntity } from '../signing/signing-request.entity';

export const SIGNER_SCHEMA = 'signer';
export const SIGNER_ENTITIES = [
  SigningRequestEntity,
  RelayerAccountEntity,
  SponsoredTransactionEntity,
  OutboxMessageEntity,
  ProcessedEventEntity,
];

/** The signer's schema, entities and migrations: shared by the app, the migrate CLI and tests. */
export function signerDatabaseOptions(
  url: string,
  poolSize?: number,
  schema = SIGNER_SCHEMA,
): ServiceDataSourceOptions {
  return {
    url,
    schema,
    entities: SIGNER_ENTITIES,
    migrations: SIGNER_MIGRATIONS,
    poolSize,
    applicationName: 'signer-surface',
  };
}
