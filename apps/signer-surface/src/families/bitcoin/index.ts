// The Bitcoin family of signer-surface: its payload kind (bitcoin-psbt), its fee wallets (keys,
// settings, budget, held fee inputs), their CPFP fee bumps and the settlement of their
// transactions. What the composition root (families/) takes from it; nothing else imports this folder.
import { SignerChains } from '../../chains/signer-chains';
import type { SignerFamily } from '../../signing/signer-family';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { BitcoinFeeBumpPolicy, BitcoinFeeBumps } from './bitcoin-fee-bump';
import { BitcoinFeeInputsRepository } from './bitcoin-fee-inputs.repository';
import { BitcoinFeeWalletSettings, BitcoinSponsorshipBudget } from './bitcoin-fee-wallet-settings';
import { BitcoinFeeWallets } from './bitcoin-fee-wallets';
import { BitcoinFeeWalletSponsor } from './bitcoin-fee-wallet-sponsor';
import { BitcoinSettlement } from './bitcoin-settlement';
import { BitcoinPsbtKind } from './bitcoin-psbt/bitcoin-psbt.kind';

export { BitcoinFeeBumps } from './bitcoin-fee-bump';
export { withBitcoinFeeWalletSettings } from './bitcoin-fee-wallet-config';
export { BitcoinFeeWalletSettings, BitcoinSponsorshipBudget } from './bitcoin-fee-wallet-settings';
export { BitcoinFeeWallets } from './bitcoin-fee-wallets';
export { BitcoinSettlement } from './bitcoin-settlement';

export const bitcoinFamily: SignerFamily = {
  family: 'bitcoin',
  payloadKinds: [BitcoinPsbtKind],
  sponsorship: [
    BitcoinFeeWalletSettings,
    BitcoinFeeBumpPolicy,
    // The fee wallets, checked against the chain registry; a key of another network stops the boot.
    {
      provide: BitcoinFeeWallets,
      inject: [BitcoinFeeWalletSettings, SignerChains, BitcoinFeeInputsRepository, FeeAccountLedger],
      useFactory: (
        settings: BitcoinFeeWalletSettings,
        chains: SignerChains,
        holds: BitcoinFeeInputsRepository,
        ledger: FeeAccountLedger,
      ) => new BitcoinFeeWallets(settings.keys, chains, settings.minBalanceSats, holds, ledger),
    },
    BitcoinFeeInputsRepository,
    BitcoinFeeBumps,
    BitcoinSponsorshipBudget,
    BitcoinFeeWalletSponsor,
    BitcoinSettlement,
  ],
  kindSponsors: [BitcoinFeeWalletSponsor],
  tracking: BitcoinSettlement,
};
