import { DEVNET_MNEMONIC } from '../anvil';
import {
  type DevnetSponsor,
  sponsorAddressesOf,
  callerSponsorKeys,
  sponsorManifestOf,
} from '../devnet-sponsor';
import { bitcoinFeeWalletAddressOf, devnetBitcoinFeeWalletKeys } from './bitcoin-fee-wallet-keys';

/** Addresses per chain of BITCOIN_FEE_WALLET_KEYS JSON: P2WPKH on mainnet for `bitcoin`, on regtest for any other. */
const bitcoinAddressesOf = (keysJson: string) =>
  sponsorAddressesOf(keysJson, (key, chain) =>
    bitcoinFeeWalletAddressOf(key, chain === 'bitcoin' ? 'mainnet' : 'regtest'),
  );

/**
 * The Bitcoin fee wallets whose UTXO pays the miner fee of sponsored Bitcoin transactions
 * (BITCOIN_FEE_WALLET_KEYS): 0.1 BTC per API key, Bitcoin chain and day on the devnet (signer-surface's
 * own default is 0.01 BTC). Devnet blocks come every second: a transaction unconfirmed for 15 s is
 * stuck and fee-bumped (default 10 min). The caller's keys (their addresses P2WPKH on mainnet for the
 * `bitcoin` chain, on regtest for any other); none when the _FILE is set; else the devnet's
 * (devnetBitcoinFeeWalletKeys: the manifest's `bitcoin.feeWallets`, m/84'/1'/1'/0/<index> of its
 * mnemonic, each checked against the manifest's address; the replica's `bitcoin` chain shows mainnet
 * addresses, its fee wallets are mainnet keys, m/84'/0'/1'/0/<i>).
 */
export const bitcoinFeeWalletSponsor: DevnetSponsor = {
  variable: 'BITCOIN_FEE_WALLET_KEYS',
  accounts: 'fee wallets',
  budget: { SPONSORSHIP_DAILY_BUDGET_SATS: '10000000' },
  devnetSettings: { BITCOIN_STUCK_AFTER_MS: '15000' },
  keysOf(manifestPath, env = process.env) {
    const caller = callerSponsorKeys('BITCOIN_FEE_WALLET_KEYS', env, bitcoinAddressesOf);
    if (caller) return caller;
    const manifest = sponsorManifestOf(manifestPath);
    if (!manifest) return undefined;
    const devnetBitcoin = manifest.bitcoin;
    const bitcoin = devnetBitcoin ?? manifest.mainnetReplica?.bitcoin;
    if (!bitcoin?.feeWallets?.length) return undefined;
    const keys = JSON.stringify(
      devnetBitcoinFeeWalletKeys(
        bitcoin.id,
        manifest.mnemonic ?? DEVNET_MNEMONIC,
        bitcoin.feeWallets,
        devnetBitcoin ? 'regtest' : 'mainnet',
      ),
    );
    return {
      source: manifest.mainnetReplica ? 'test mnemonic fee wallets on the mainnet replica' : 'devnet keys',
      keys,
      addresses: { [bitcoin.id]: bitcoin.feeWallets.map((w) => w.address) },
    };
  },
};
