import { computeAddress } from 'ethers';
import { DEVNET_MNEMONIC } from './anvil';
import { devnetRelayerKeys } from './devnet-parameters';
import {
  type DevnetSponsor,
  sponsorAddressesOf,
  callerSponsorKeys,
  sponsorManifestOf,
} from './devnet-sponsor';

const evmAddressesOf = (keysJson: string) => sponsorAddressesOf(keysJson, (key) => computeAddress(key));

/**
 * The gas-sponsorship relayers signer-surface sends users' signed intents and permits from
 * (RELAYER_KEYS): 1 ETH per API key, chain and day on the devnet (signer-surface's own default is
 * 0.1 ETH). The caller's RELAYER_KEYS when set; none when RELAYER_KEYS_FILE is set (signer-surface
 * reads the file); else the devnet's (SPONSOR_RELAYER_INDICES of the manifest's mnemonic, on each of
 * its chains; the replica's manifest names no mnemonic: its accounts are the standard test mnemonic's).
 */
export const relayerSponsor: DevnetSponsor = {
  variable: 'RELAYER_KEYS',
  accounts: 'relayers',
  budget: { SPONSORSHIP_DAILY_BUDGET_WEI: '1000000000000000000' },
  keysOf(manifestPath, env = process.env) {
    const caller = callerSponsorKeys('RELAYER_KEYS', env, evmAddressesOf);
    if (caller) return caller;
    const manifest = sponsorManifestOf(manifestPath);
    if (!manifest) return undefined;
    const { mnemonic, chains, mainnetReplica } = manifest;
    const chainIds = (mainnetReplica ? mainnetReplica.evm : chains).map((c) => c.id);
    const keys = JSON.stringify(devnetRelayerKeys(mnemonic ?? DEVNET_MNEMONIC, chainIds));
    return {
      source: mainnetReplica ? 'test mnemonic accounts on the mainnet replica' : 'devnet accounts',
      keys,
      addresses: evmAddressesOf(keys),
    };
  },
};
