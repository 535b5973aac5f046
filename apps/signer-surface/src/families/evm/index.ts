// The EVM family of signer-surface: its payload kinds (evm-transaction, evm-typed-data), its
// relayers (keys, pool, nonce ledger reconciliation, fee bumps), their settings, budget and
// tracking. What the composition root (families/) takes from it; nothing else imports this folder.
import { SignerChains } from '../../chains/signer-chains';
import type { SignerFamily } from '../../signing/signer-family';
import { EvmRelayedTracking } from './evm-relayed-tracking';
import { EvmTransactionKind } from './evm-transaction/evm-transaction.kind';
import { EvmTypedDataKind } from './evm-typed-data/evm-typed-data.kind';
import { RelayerPool } from './relayer-pool';
import { EvmSponsorshipBudget, RelayerSettings } from './relayer-settings';
import { Relayers, RelayersPolicy } from './relayers';

export { EvmRelayedTracking } from './evm-relayed-tracking';
export { withRelayerSettings } from './relayer-config';
export { RelayerPool } from './relayer-pool';
export { EvmSponsorshipBudget, RelayerSettings } from './relayer-settings';
export { Relayers, RelayersPolicy } from './relayers';
export type { RelayedCall, RelayedSend } from './relayers';

export const evmFamily: SignerFamily = {
  family: 'evm',
  payloadKinds: [EvmTransactionKind, EvmTypedDataKind],
  sponsorship: [
    RelayerSettings,
    RelayersPolicy,
    // The relayers' accounts, checked against the chain registry (the constructor, shared with the
    // specs, takes the parsed keys rather than the settings).
    {
      provide: RelayerPool,
      inject: [RelayerSettings, SignerChains],
      useFactory: (settings: RelayerSettings, chains: SignerChains) =>
        new RelayerPool(settings.keys, chains, settings.minBalance),
    },
    EvmSponsorshipBudget,
    Relayers,
    EvmRelayedTracking,
  ],
  // Its kinds are sponsored through the shared GasSponsor port (RelayerGasSponsor).
  kindSponsors: [],
  tracking: EvmRelayedTracking,
};
