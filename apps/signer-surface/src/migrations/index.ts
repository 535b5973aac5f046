import {
  AddMessagingRetentionIndexes1764500000000,
  CreateMessagingTables1763700000000,
} from '@swapgw/messaging';
import { CreateSigningRequests1763710000000 } from './1763710000000-create-signing-requests';
import { AddSolanaRequests1763900000000 } from './1763900000000-add-solana-requests';
import { CreateRelayingTables1764010000000 } from './1764010000000-create-relaying-tables';
import { AddSponsoredRequests1764200000000 } from './1764200000000-add-sponsored-requests';
import { AddSolanaSponsoredTransactions1764300000000 } from './1764300000000-add-solana-sponsored-transactions';
import { RelayerLedgerHeals1764700000000 } from './1764700000000-relayer-ledger-heals';
import { AddBitcoinFeeInputs1764810000000 } from './1764810000000-add-bitcoin-fee-inputs';
import { AddBitcoinRequests1764820000000 } from './1764820000000-add-bitcoin-requests';
import { AddBitcoinFeeBumps1764830000000 } from './1764830000000-add-bitcoin-fee-bumps';
import { StoreRequestSpecs1765010000000 } from './1765010000000-store-request-specs';
import { AddCosmosRequests1765110000000 } from './1765110000000-add-cosmos-requests';
import { AddCosmosSponsoredTransactions1765210000000 } from './1765210000000-add-cosmos-sponsored-transactions';
import { CheckRequestFamilyShape1765710000000 } from './1765710000000-check-request-family-shape';

/** Every migration of the `signer` schema, in order. */
export const SIGNER_MIGRATIONS = [
  CreateMessagingTables1763700000000,
  CreateSigningRequests1763710000000,
  AddSolanaRequests1763900000000,
  CreateRelayingTables1764010000000,
  AddSponsoredRequests1764200000000,
  AddSolanaSponsoredTransactions1764300000000,
  AddMessagingRetentionIndexes1764500000000,
  RelayerLedgerHeals1764700000000,
  AddBitcoinFeeInputs1764810000000,
  AddBitcoinRequests1764820000000,
  AddBitcoinFeeBumps1764830000000,
  StoreRequestSpecs1765010000000,
  AddCosmosRequests1765110000000,
  AddCosmosSponsoredTransactions1765210000000,
  CheckRequestFamilyShape1765710000000,
];
