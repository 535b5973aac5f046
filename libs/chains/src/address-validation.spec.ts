import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { validateAddressForChain, validateEvmAddress, validateSolanaAddress } from './address-validation';

const CHECKSUMMED = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const evm = { id: 'devnet-a', family: 'evm' as const };
const solana = { id: 'solana-devnet', family: 'solana' as const };

describe('address validation per chain family', () => {
  it('accepts EVM addresses checksummed or all lower-case, refuses a broken checksum, upper case and bad length', () => {
    expect(validateEvmAddress(CHECKSUMMED)).toEqual({ ok: true });
    expect(validateEvmAddress(CHECKSUMMED.toLowerCase())).toEqual({ ok: true });
    const wrongCase = CHECKSUMMED.replace('A0b8', 'a0B8');
    expect(validateEvmAddress(wrongCase)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/checksum/),
    });
    expect(validateEvmAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`).ok).toBe(false);
    expect(validateEvmAddress(CHECKSUMMED.slice(0, 41)).ok).toBe(false);
    expect(validateEvmAddress(CHECKSUMMED.slice(2)).ok).toBe(false);
  });

  it('accepts a Solana public key, refuses base58 that is not 32 bytes and non-base58 text', () => {
    const key = Keypair.generate().publicKey.toBase58();
    expect(validateSolanaAddress(key)).toEqual({ ok: true });
    expect(validateSolanaAddress('11111111111111111111111111111111')).toEqual({ ok: true }); // System Program: 32 zero bytes
    expect(validateSolanaAddress(bs58.encode(Buffer.alloc(31, 7))).ok).toBe(false);
    expect(validateSolanaAddress(bs58.encode(Buffer.alloc(33, 7))).ok).toBe(false);
    expect(validateSolanaAddress(key.replace(/.$/, '0')).ok).toBe(false); // 0 is not a base58 digit
    expect(validateSolanaAddress(CHECKSUMMED).ok).toBe(false);
  });

  it('checks the address against the family of the chain and names the chain in the reason', () => {
    const key = Keypair.generate().publicKey.toBase58();
    expect(validateAddressForChain(evm, CHECKSUMMED)).toEqual({ ok: true });
    expect(validateAddressForChain(solana, key)).toEqual({ ok: true });
    expect(validateAddressForChain(evm, key)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('devnet-a'),
    });
    expect(validateAddressForChain(solana, CHECKSUMMED)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('solana-devnet'),
    });
    expect(validateAddressForChain(solana, '')).toMatchObject({ ok: false });
    expect(
      validateAddressForChain(
        { id: 'bitcoin', family: 'bitcoin' },
        'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      ),
    ).toEqual({ ok: true });
  });

  it('checks a Bitcoin address against the network of the chain: regtest on the devnet, mainnet on bitcoin', () => {
    const regtest = 'bcrt1q0xcqpzrky6eff2g52qdye53xkk9jxkvrl4xfg5';
    const mainnet = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const devnet = { id: 'bitcoin-devnet', family: 'bitcoin' as const, network: 'testnet' as const };
    expect(validateAddressForChain({ ...devnet, bitcoinNetwork: 'regtest' }, regtest)).toEqual({ ok: true });
    expect(validateAddressForChain({ ...devnet, bitcoinNetwork: 'regtest' }, mainnet)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/bitcoin-devnet: it is a mainnet address/),
    });
    const bitcoin = { id: 'bitcoin', family: 'bitcoin' as const, network: 'mainnet' as const };
    expect(validateAddressForChain(bitcoin, regtest)).toMatchObject({ ok: false });
    // a test chain that does not name its Bitcoin network takes either test network's addresses
    expect(validateAddressForChain(devnet, regtest)).toEqual({ ok: true });
    expect(validateAddressForChain(devnet, mainnet)).toMatchObject({ ok: false });
    // legacy addresses are not among the wallets' the suite serves
    expect(validateAddressForChain(bitcoin, '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toMatchObject({
      ok: false,
    });
  });
});
