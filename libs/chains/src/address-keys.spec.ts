import { addressKey, addressKeyByForm, sameTokenAddress } from './address-keys';

const CHECKSUMMED = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('address keys per chain family', () => {
  it('compares EVM addresses whatever their letter case', () => {
    expect(addressKey('evm', CHECKSUMMED)).toBe(CHECKSUMMED.toLowerCase());
    expect(sameTokenAddress('evm', CHECKSUMMED, CHECKSUMMED.toLowerCase())).toBe(true);
    expect(sameTokenAddress('evm', CHECKSUMMED, CHECKSUMMED.replace('A0', 'B0'))).toBe(false);
  });

  it('compares Solana mints exactly as written (base58 is case-sensitive)', () => {
    expect(addressKey('solana', MINT)).toBe(MINT);
    expect(sameTokenAddress('solana', MINT, MINT)).toBe(true);
    expect(sameTokenAddress('solana', MINT, MINT.toLowerCase())).toBe(false);
  });

  it('treats null as the native coin: equal only to null', () => {
    expect(sameTokenAddress('evm', null, null)).toBe(true);
    expect(sameTokenAddress('evm', null, CHECKSUMMED)).toBe(false);
    expect(sameTokenAddress('solana', MINT, null)).toBe(false);
  });

  it('keys an address by its form when the chain is not at hand', () => {
    expect(addressKeyByForm(CHECKSUMMED)).toBe(CHECKSUMMED.toLowerCase());
    expect(addressKeyByForm(MINT)).toBe(MINT);
    expect(addressKeyByForm('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    );
  });
});
