import { getAddress, Wallet } from 'ethers';
import { checksumEvmAddress } from './evm-address';

describe('checksumEvmAddress', () => {
  it('answers what getAddress answers, for every spelling, also when asked again', () => {
    for (let i = 0; i < 20; i++) {
      const address = Wallet.createRandom().address;
      for (const spelling of [address, address.toLowerCase(), `0x${address.slice(2).toUpperCase()}`]) {
        expect(checksumEvmAddress(spelling)).toBe(getAddress(spelling));
        expect(checksumEvmAddress(spelling)).toBe(getAddress(spelling));
      }
    }
  });

  it('throws as getAddress does for a wrong checksum or a non-address, every time', () => {
    const address = Wallet.createRandom().address;
    const wrongCase =
      address.slice(0, 2) +
      [...address.slice(2)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    for (const bad of [wrongCase, '0x1234', 'not an address']) {
      if (bad === wrongCase && wrongCase === wrongCase.toLowerCase()) continue; // all digits: no case to get wrong
      expect(() => getAddress(bad)).toThrow();
      expect(() => checksumEvmAddress(bad)).toThrow();
      expect(() => checksumEvmAddress(bad)).toThrow();
    }
  });

  it('keeps answering correctly past its memo limit', () => {
    const addresses = Array.from({ length: 20_050 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    for (const address of addresses) expect(checksumEvmAddress(address)).toBe(getAddress(address));
    expect(checksumEvmAddress(addresses[0])).toBe(getAddress(addresses[0]));
  });
});
