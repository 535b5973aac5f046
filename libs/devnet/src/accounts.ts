import { HDNodeWallet, Mnemonic, Provider } from 'ethers';

/** Wallet of mnemonic account `index` (path m/44'/60'/0'/0/index, as anvil derives them). */
export function devnetWallet(mnemonic: string, index: number, provider?: Provider): HDNodeWallet {
  const wallet = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), `m/44'/60'/0'/0/${index}`);
  return provider ? wallet.connect(provider) : wallet;
}
