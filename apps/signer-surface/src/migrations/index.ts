import { CreateMessagingTables1763700000000 } from '@swapgw/messaging';
import { CreateSigningRequests1763710000000 } from './1763710000000-create-signing-requests';
import { AddSolanaRequests1763900000000 } from './1763900000000-add-solana-requests';

/** Every migration of the `signer` schema, in order. */
export const SIGNER_MIGRATIONS = [CreateMessagingTables1763700000000, CreateSigningRequests1763710000000, AddSolanaRequests1763900000000];
