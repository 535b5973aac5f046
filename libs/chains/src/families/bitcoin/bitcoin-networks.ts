import type { BTC_NETWORK } from '@scure/btc-signer/utils.js';

/**
 * The Bitcoin networks the suite speaks, with the parameters @scure/btc-signer encodes addresses
 * and keys with. `regtest` is the local devnet's (`bcrt1…`), `testnet` the public test networks'
 * (`tb1…`), `mainnet` Bitcoin's (`bc1…`). One table, read by the devnet chain, the PSBT builder and
 * address validation alike.
 */
export type BitcoinNetworkName = 'mainnet' | 'testnet' | 'regtest';

export type BitcoinNetworkParams = BTC_NETWORK;

export const BITCOIN_NETWORKS: Readonly<Record<BitcoinNetworkName, BitcoinNetworkParams>> = {
  mainnet: { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
  testnet: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
};

/**
 * BIP84 coin type of a network (`m/84'/<coin>'/…`): 0 on mainnet, 1 on every test network
 * (SLIP-44), so the standard test mnemonic's regtest wallets are `m/84'/1'/0'/0/<index>`.
 */
export function bip84CoinType(network: BitcoinNetworkName): 0 | 1 {
  return network === 'mainnet' ? 0 : 1;
}

/** Satoshis per BTC: the chain's base unit (8 decimals). */
export const SATS_PER_BTC = 100_000_000n;

const TEST_NETWORKS: readonly BitcoinNetworkName[] = ['testnet', 'regtest'];
const ALL_NETWORKS: readonly BitcoinNetworkName[] = ['mainnet', 'testnet', 'regtest'];

/**
 * The Bitcoin networks a chain's addresses may be of: its `bitcoinNetwork` when it names one (the
 * devnet's `regtest`); else what `network` allows (`mainnet`, or either test network: a chain known
 * only as in GET /chains does not say which); any of them when nothing is known.
 */
export function bitcoinNetworksOfChain(chain: {
  network?: 'mainnet' | 'testnet';
  bitcoinNetwork?: BitcoinNetworkName;
}): readonly BitcoinNetworkName[] {
  if (chain.bitcoinNetwork) return [chain.bitcoinNetwork];
  if (chain.network === 'mainnet') return ['mainnet'];
  return chain.network === 'testnet' ? TEST_NETWORKS : ALL_NETWORKS;
}
