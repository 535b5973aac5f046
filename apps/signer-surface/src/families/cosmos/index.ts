// The Cosmos family of signer-surface: its payload kind (cosmos-sign-direct) and its fee granters
// (keys, settings, budget, grants through x/feegrant, the ledger rows of what they pay) and the
// registration of the Noble forwarding accounts steps pay. What the composition root (families/) takes from it;
// nothing else imports this folder.
import type { SignerFamily } from '../../signing/signer-family';
import { CosmosFeeGrantTracking } from './cosmos-fee-grant-tracking';
import { CosmosFeeGranterSettings, CosmosSponsorshipBudget } from './cosmos-fee-granter-settings';
import { CosmosFeeGranters } from './cosmos-fee-granters';
import { CosmosSignDirectKind } from './cosmos-sign-direct/cosmos-sign-direct.kind';
import { NobleForwardingRegistration } from './noble-forwarding-registration';

export { withCosmosFeeGranterSettings } from './cosmos-fee-granter-config';
export { CosmosFeeGranters } from './cosmos-fee-granters';

export const cosmosFamily: SignerFamily = {
  family: 'cosmos',
  payloadKinds: [CosmosSignDirectKind],
  sponsorship: [
    CosmosFeeGranterSettings,
    CosmosSponsorshipBudget,
    CosmosFeeGranters,
    CosmosFeeGrantTracking,
    NobleForwardingRegistration,
  ],
  kindSponsors: [CosmosFeeGranters],
  stepPrerequisites: [NobleForwardingRegistration],
  tracking: CosmosFeeGrantTracking,
};
