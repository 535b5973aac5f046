import { DEVNET_MNEMONIC } from '../anvil';
import { type DevnetSponsor, callerSponsorKeys, sponsorManifestOf } from '../devnet-sponsor';
import { devnetCosmosFeeGranterAddress, devnetCosmosFeeGranterKeys } from './cosmos-keys';

/**
 * The fee granters signer-surface names as `fee.granter` on Cosmos chains (COSMOS_FEE_GRANTER_KEYS,
 * x/feegrant); no daily budget of their own: their grants are their limit. The caller's keys; none
 * when the _FILE is set; else the devnet's (devnetCosmosFeeGranterKeys: test wallet 9 of the
 * manifest's mnemonic on each chain of its `cosmos` section, or of the mainnet replica's, whose
 * mnemonic is the standard test one).
 */
export const cosmosFeeGranterSponsor: DevnetSponsor = {
  variable: 'COSMOS_FEE_GRANTER_KEYS',
  accounts: 'fee granters',
  budget: {},
  keysOf(manifestPath, env = process.env) {
    const caller = callerSponsorKeys('COSMOS_FEE_GRANTER_KEYS', env, () => ({}));
    if (caller) return caller;
    const manifest = sponsorManifestOf(manifestPath);
    const cosmos = manifest?.cosmos ?? manifest?.mainnetReplica?.cosmos;
    if (!manifest || !cosmos?.length) return undefined;
    const words = manifest.mnemonic ?? DEVNET_MNEMONIC;
    return {
      source: manifest.mainnetReplica ? 'devnet keys on the mainnet replica' : 'devnet keys',
      keys: JSON.stringify(devnetCosmosFeeGranterKeys(cosmos, words)),
      addresses: Object.fromEntries(
        cosmos.map((chain) => [chain.id, [devnetCosmosFeeGranterAddress(chain.bech32Prefix, words)]]),
      ),
    };
  },
};
