import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from '@swapgw/chains/bitcoin-bridge';
import { DEVNET_MNEMONIC } from '../anvil';
import { BITCOIN_DEVNET_CHAIN_ID, BITCOIN_FEE_WALLET_INDICES } from './bitcoin-devnet';
import { bitcoinDevnetKey } from './bitcoin-keys';

/**
 * BITCOIN_FEE_WALLET_KEYS of signer-surface on the devnet, `{"<chain id>": ["<WIF>", ...]}`: the
 * fee wallets m/84'/<coin>'/1'/0/<index> of `mnemonic` as WIFs of `network` (regtest `c…` on the
 * devnet; mainnet `K…`/`L…` and coin 0 on the mainnet replica's `bitcoin`). `feeWallets` are the
 * manifest's (default: the devnet's indices); one whose address is not the key's stops here, since
 * signer-surface would sign for a wallet the chain never funded.
 */
export function devnetBitcoinFeeWalletKeys(
  chainId: string = BITCOIN_DEVNET_CHAIN_ID,
  mnemonic: string = DEVNET_MNEMONIC,
  feeWallets: readonly { index: number; address?: string }[] = BITCOIN_FEE_WALLET_INDICES.map((index) => ({
    index,
  })),
  network: BitcoinNetworkName = 'regtest',
): Record<string, string[]> {
  const keys = feeWallets.map(({ index, address }) => {
    const key = bitcoinDevnetKey('fee-wallet', index, mnemonic, network);
    if (address !== undefined && address !== key.address) {
      throw new Error(
        `the manifest's Bitcoin fee wallet ${index} is ${address}, but ${key.path} of the mnemonic is ${key.address}`,
      );
    }
    return btc.WIF(BITCOIN_NETWORKS[network]).encode(key.privateKey);
  });
  return { [chainId]: keys };
}

/**
 * The P2WPKH address of a WIF on `network` (what signer-surface names the fee wallet), or null when
 * it is not the WIF of a compressed key of that network. For printing a caller's keys.
 */
export function bitcoinFeeWalletAddressOf(wif: string, network: BitcoinNetworkName): string | null {
  try {
    const privateKey = btc.WIF(BITCOIN_NETWORKS[network]).decode(wif);
    return btc.p2wpkh(secp256k1.getPublicKey(privateKey, true), BITCOIN_NETWORKS[network]).address ?? null;
  } catch {
    return null;
  }
}
