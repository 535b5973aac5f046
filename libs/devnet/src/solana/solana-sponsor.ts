import bs58 from 'bs58';
import {
  type DevnetSponsor,
  sponsorAddressesOf,
  callerSponsorKeys,
  sponsorManifestOf,
} from '../devnet-sponsor';
import { devnetSolanaFeePayerKeys } from './solana-keys';

/** The public half of each 64-byte secret key of SOLANA_FEE_PAYER_KEYS JSON, per chain. */
const solanaAddressesOf = (keysJson: string) =>
  sponsorAddressesOf(keysJson, (key) => {
    const bytes = bs58.decode(key);
    return bytes.length === 64 ? bs58.encode(bytes.subarray(32)) : null;
  });

/**
 * The Solana fee payers signer-surface names in the Solana transactions of sponsored swaps
 * (SOLANA_FEE_PAYER_KEYS): 1 SOL per API key, Solana chain and day on the devnet (signer-surface's own
 * default is 0.1 SOL). As relayerSponsor: the caller's keys, none when the _FILE is set, else the
 * devnet's (devnetSolanaFeePayerKeys, on the manifest's Solana chain or the replica's).
 */
export const solanaFeePayerSponsor: DevnetSponsor = {
  variable: 'SOLANA_FEE_PAYER_KEYS',
  accounts: 'fee payers',
  budget: { SPONSORSHIP_DAILY_BUDGET_LAMPORTS: '1000000000' },
  keysOf(manifestPath, env = process.env) {
    const caller = callerSponsorKeys('SOLANA_FEE_PAYER_KEYS', env, solanaAddressesOf);
    if (caller) return caller;
    const manifest = sponsorManifestOf(manifestPath);
    const chainId = manifest?.solana?.id ?? manifest?.mainnetReplica?.solana?.id;
    if (!chainId) return undefined;
    const keys = JSON.stringify(devnetSolanaFeePayerKeys(chainId));
    return {
      source: manifest?.mainnetReplica ? 'devnet keys on the mainnet replica' : 'devnet keys',
      keys,
      addresses: solanaAddressesOf(keys),
    };
  },
};
