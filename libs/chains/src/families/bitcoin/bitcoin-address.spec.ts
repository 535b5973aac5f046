import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { ErrorCodes } from '@swapgw/contracts';
import { assertBitcoinAddress, bitcoinAddressOf } from './bitcoin-address';
import { BITCOIN_NETWORKS } from './bitcoin-networks';

const key = new Uint8Array(32).fill(7);
const wpkhOf = (network: keyof typeof BITCOIN_NETWORKS) =>
  btc.p2wpkh(secp256k1.getPublicKey(key, true), BITCOIN_NETWORKS[network]).address!;
const trOf = (network: keyof typeof BITCOIN_NETWORKS) =>
  btc.p2tr(schnorr.getPublicKey(key), undefined, BITCOIN_NETWORKS[network]).address!;

describe('Bitcoin addresses per network', () => {
  it('accepts P2WPKH and P2TR of the network, with their output scripts', () => {
    expect(wpkhOf('regtest')).toMatch(/^bcrt1q/);
    expect(bitcoinAddressOf(wpkhOf('regtest'), 'regtest')).toMatchObject({
      kind: 'p2wpkh',
      network: 'regtest',
    });
    expect(bitcoinAddressOf(trOf('regtest'), 'regtest')?.kind).toBe('p2tr');
    expect(bitcoinAddressOf(wpkhOf('testnet'), 'testnet')?.kind).toBe('p2wpkh');
    const mainnet = bitcoinAddressOf(trOf('mainnet'), 'mainnet');
    expect(mainnet?.script).toEqual(btc.p2tr(schnorr.getPublicKey(key)).script);
    expect(bitcoinAddressOf('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'mainnet')?.kind).toBe('p2wpkh');
  });

  it('refuses an address of another network and names it', () => {
    expect(bitcoinAddressOf(wpkhOf('regtest'), 'mainnet')).toBeNull();
    expect(bitcoinAddressOf(wpkhOf('mainnet'), 'regtest')).toBeNull();
    expect(bitcoinAddressOf(trOf('testnet'), 'regtest')).toBeNull();
    expect(() => assertBitcoinAddress(wpkhOf('regtest'), 'mainnet', 'recipient')).toThrow(
      expect.objectContaining({
        code: ErrorCodes.INVALID_ADDRESS,
        message: expect.stringMatching(/recipient .* is a regtest address \(bcrt1…\); this chain is mainnet/),
      }),
    );
    expect(() => assertBitcoinAddress(wpkhOf('mainnet'), 'regtest')).toThrow(/is a mainnet address/);
  });

  it('accepts P2SH (nested SegWit) addresses: 3… on mainnet, 2… on testnet and regtest', () => {
    const pubkey = secp256k1.getPublicKey(key, true);
    const nested = (network: keyof typeof BITCOIN_NETWORKS) =>
      btc.p2sh(btc.p2wpkh(pubkey, BITCOIN_NETWORKS[network]), BITCOIN_NETWORKS[network]);
    expect(nested('mainnet').address).toMatch(/^3/);
    expect(bitcoinAddressOf(nested('mainnet').address!, 'mainnet')).toMatchObject({
      kind: 'p2sh',
      script: nested('mainnet').script,
    });
    expect(nested('regtest').address).toMatch(/^2/);
    expect(bitcoinAddressOf(nested('regtest').address!, 'regtest')?.kind).toBe('p2sh');
    expect(bitcoinAddressOf(nested('regtest').address!, 'testnet')?.kind).toBe('p2sh');
    expect(() => assertBitcoinAddress(nested('mainnet').address!, 'regtest')).toThrow(
      /is a mainnet P2SH address \(3…\); this chain is regtest \(2…\)/,
    );
    expect(bitcoinAddressOf(nested('regtest').address!, 'mainnet')).toBeNull();
    const broken =
      nested('mainnet').address!.slice(0, -1) + (nested('mainnet').address!.endsWith('1') ? '2' : '1');
    expect(() => assertBitcoinAddress(broken, 'mainnet')).toThrow(/not a valid base58check address/);
  });

  it('refuses legacy and P2WSH addresses, a broken checksum, upper case and garbage', () => {
    const pubkey = secp256k1.getPublicKey(key, true);
    expect(bitcoinAddressOf(btc.p2pkh(pubkey).address!, 'mainnet')).toBeNull();
    expect(bitcoinAddressOf(btc.p2wsh(btc.p2pk(pubkey)).address!, 'mainnet')).toBeNull();
    const address = wpkhOf('mainnet');
    const broken = address.slice(0, -1) + (address.endsWith('q') ? 'p' : 'q');
    expect(bitcoinAddressOf(broken, 'mainnet')).toBeNull();
    expect(() => assertBitcoinAddress(address.toUpperCase(), 'mainnet')).toThrow(/lower case/);
    expect(bitcoinAddressOf('', 'mainnet')).toBeNull();
    expect(bitcoinAddressOf('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'mainnet')).toBeNull();
  });
});
