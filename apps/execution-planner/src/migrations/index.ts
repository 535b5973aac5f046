import {
  AddMessagingRetentionIndexes1764500000000,
  CreateMessagingTables1763700000000,
} from '@swapgw/messaging';
import { CreateSwaps1763740000000 } from './1763740000000-create-swaps';
import { AddSolanaSteps1763900000000 } from './1763900000000-add-solana-steps';
import { AllowRefusedSwaps1764000000000 } from './1764000000000-allow-refused-swaps';
import { AddSponsoredSteps1764100000000 } from './1764100000000-add-sponsored-steps';
import { AddBitcoinSteps1764800000000 } from './1764800000000-add-bitcoin-steps';
import { AddStepPriceChecks1764900000000 } from './1764900000000-add-step-price-checks';
import { StoreStepSpecs1765000000000 } from './1765000000000-store-step-specs';
import { AddCosmosSteps1765100000000 } from './1765100000000-add-cosmos-steps';
import { AddStepSettlements1765200000000 } from './1765200000000-add-step-settlements';
import { AddIbcSettlements1765300000000 } from './1765300000000-add-ibc-settlements';
import { AddThorchainProgress1765400000000 } from './1765400000000-add-thorchain-progress';
import { AddCctpSettlements1765500000000 } from './1765500000000-add-cctp-settlements';
import { AddForwardingSettlements1765600000000 } from './1765600000000-add-forwarding-settlements';
import { CheckStepFamilyShape1765700000000 } from './1765700000000-check-step-family-shape';

/** Every migration of the `planner` schema, in order. */
export const PLANNER_MIGRATIONS = [
  CreateMessagingTables1763700000000,
  CreateSwaps1763740000000,
  AddSolanaSteps1763900000000,
  AllowRefusedSwaps1764000000000,
  AddSponsoredSteps1764100000000,
  AddMessagingRetentionIndexes1764500000000,
  AddBitcoinSteps1764800000000,
  AddStepPriceChecks1764900000000,
  StoreStepSpecs1765000000000,
  AddCosmosSteps1765100000000,
  AddStepSettlements1765200000000,
  AddIbcSettlements1765300000000,
  AddThorchainProgress1765400000000,
  AddCctpSettlements1765500000000,
  AddForwardingSettlements1765600000000,
  CheckStepFamilyShape1765700000000,
];
