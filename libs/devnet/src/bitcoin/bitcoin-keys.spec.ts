import { bitcoinFeeWalletAddressOf, devnetBitcoinFeeWalletKeys } from './bitcoin-fee-wallet-keys';
import { bitcoinDevnetKey, bitcoinTestWallet } from './bitcoin-keys';

// The published test vectors of BIP84, BIP86 and BIP49: the mnemonic "abandon … about", account 0,
// first receive address. A wallet restoring a mnemonic shows exactly these.
const BIP_VECTOR_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('bitcoinTestWallet: the addresses a wallet restoring the mnemonic derives', () => {
  it.each([
    ['p2wpkh', 'mainnet', "m/84'/0'/0'/0/0", 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['p2tr', 'mainnet', "m/86'/0'/0'/0/0", 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr'],
    ['p2sh-p2wpkh', 'mainnet', "m/49'/0'/0'/0/0", '37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf'],
    ['p2sh-p2wpkh', 'regtest', "m/49'/1'/0'/0/0", '2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2'],
  ] as const)('%s on %s at %s is %s', (kind, network, path, address) => {
    const wallet = bitcoinTestWallet(kind, 0, network, BIP_VECTOR_MNEMONIC);
    expect(wallet.key.path).toBe(path);
    expect(wallet.address).toBe(address);
  });

  it("names the replica's wallets with mainnet prefixes and the devnet's with regtest ones", () => {
    expect(bitcoinTestWallet('p2wpkh', 1, 'mainnet').address).toMatch(/^bc1q/);
    expect(bitcoinTestWallet('p2tr', 1, 'mainnet').address).toMatch(/^bc1p/);
    expect(bitcoinTestWallet('p2sh-p2wpkh', 1, 'mainnet').address).toMatch(/^3/);
    expect(bitcoinDevnetKey('wallet', 1).address).toMatch(/^bcrt1q/);
    expect(bitcoinDevnetKey('wallet', 1, undefined, 'mainnet').path).toBe("m/84'/0'/0'/0/1");
  });

  it("gives the replica's fee wallets as mainnet WIFs of m/84'/0'/1'/0/<index>", () => {
    const wallets = [0, 1].map((index) => ({
      index,
      address: bitcoinDevnetKey('fee-wallet', index, undefined, 'mainnet').address,
    }));
    const keys = devnetBitcoinFeeWalletKeys('bitcoin', undefined, wallets, 'mainnet');
    expect(keys.bitcoin.map((wif) => bitcoinFeeWalletAddressOf(wif, 'mainnet'))).toEqual(
      wallets.map((w) => w.address),
    );
    expect(keys.bitcoin.every((wif) => /^[KL]/.test(wif))).toBe(true);
  });
});
