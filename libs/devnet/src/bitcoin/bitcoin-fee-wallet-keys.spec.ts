import { bitcoinFeeWalletAddressOf, devnetBitcoinFeeWalletKeys } from './bitcoin-fee-wallet-keys';
import { bitcoinDevnetKey } from './bitcoin-keys';

describe('devnetBitcoinFeeWalletKeys', () => {
  const wallets = [0, 1].map((index) => ({ index, address: bitcoinDevnetKey('fee-wallet', index).address }));

  it("gives the fee wallets' regtest WIFs, whose P2WPKH addresses are the manifest's", () => {
    const keys = devnetBitcoinFeeWalletKeys('bitcoin-devnet', undefined, wallets);
    expect(Object.keys(keys)).toEqual(['bitcoin-devnet']);
    expect(keys['bitcoin-devnet'].map((wif) => bitcoinFeeWalletAddressOf(wif, 'regtest'))).toEqual(
      wallets.map((w) => w.address),
    );
    expect(keys['bitcoin-devnet'].every((wif) => wif.startsWith('c'))).toBe(true);
    expect(devnetBitcoinFeeWalletKeys()).toEqual(keys);
  });

  it('refuses a manifest whose fee wallet is not the key of its index', () => {
    expect(() =>
      devnetBitcoinFeeWalletKeys('bitcoin-devnet', undefined, [{ index: 0, address: wallets[1].address }]),
    ).toThrow(`the manifest's Bitcoin fee wallet 0 is ${wallets[1].address}`);
  });

  it('reads no address from a WIF of another network', () => {
    const [wif] = devnetBitcoinFeeWalletKeys()['bitcoin-devnet'];
    expect(bitcoinFeeWalletAddressOf(wif, 'mainnet')).toBeNull();
    expect(bitcoinFeeWalletAddressOf('garbage', 'regtest')).toBeNull();
  });
});
