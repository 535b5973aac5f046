import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { type AddressCheckedChain, type ChainFamily } from '@swapgw/chains';
import { BITCOIN_NETWORKS } from '@swapgw/chains/bitcoin-bridge';
import { cosmosAddressOfPubkey } from '@swapgw/chains/families';
import { ErrorCodes, type RoutePlan } from '@swapgw/contracts';
import { walletsOf } from './swap-wallets';

const regtest = BITCOIN_NETWORKS.regtest;
const USER_KEY = new Uint8Array(32).fill(1);
const OTHER_KEY = new Uint8Array(32).fill(2);
const compressed = (key: Uint8Array) => Buffer.from(secp256k1.getPublicKey(key, true)).toString('hex');
const xOnly = (key: Uint8Array) => Buffer.from(schnorr.getPublicKey(key)).toString('hex');
const TAPROOT = btc.p2tr(schnorr.getPublicKey(USER_KEY), undefined, regtest).address!;
const NESTED = btc.p2sh(btc.p2wpkh(secp256k1.getPublicKey(USER_KEY, true), regtest), regtest).address!;
const NATIVE = btc.p2wpkh(secp256k1.getPublicKey(USER_KEY, true), regtest).address!;
const EVM_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const chains: Record<string, AddressCheckedChain> = {
  'bitcoin-devnet': {
    id: 'bitcoin-devnet',
    family: 'bitcoin',
    network: 'testnet',
    bitcoinNetwork: 'regtest',
  },
  'devnet-a': { id: 'devnet-a', family: 'evm', network: 'testnet' },
};
const familyOf = (chain: string): ChainFamily => chains[chain].family;
const chainOf = (chain: string) => chains[chain];
const plan = (fromChain: string, toChain: string) =>
  ({ routeId: 'r', quoteId: 'q', fromChain, toChain, legs: [{ chain: fromChain }] }) as unknown as RoutePlan;
const fromBitcoin = plan('bitcoin-devnet', 'devnet-a');

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('not refused');
};

describe('walletsOf: the key a Bitcoin wallet signs with', () => {
  it.each([
    ['a Taproot address with its x-only key', TAPROOT, xOnly(USER_KEY)],
    ['a Taproot address with its compressed key', TAPROOT, compressed(USER_KEY)],
    ['a nested-SegWit (P2SH-P2WPKH) address with its key', NESTED, compressed(USER_KEY)],
    ['a native SegWit address with its key', NATIVE, compressed(USER_KEY)],
    ['a native SegWit address without a key', NATIVE, undefined],
  ])('takes %s, and hands the key to the steps', (_, userAddress, userPublicKey) => {
    const wallets = walletsOf(
      fromBitcoin,
      { userAddress, userPublicKey, recipient: EVM_RECIPIENT },
      familyOf,
      chainOf,
    );
    expect(wallets.userAddress).toBe(userAddress);
    expect(wallets.userPublicKey).toBe(userPublicKey);
  });

  it.each([
    ['a Taproot address without its key', TAPROOT, undefined, /P2TR address needs userPublicKey/],
    ['a nested-SegWit address without its key', NESTED, undefined, /P2SH address needs userPublicKey/],
    ['a Taproot address with another key', TAPROOT, xOnly(OTHER_KEY), /not the key of/],
    ['a nested-SegWit address with another key', NESTED, compressed(OTHER_KEY), /spent as P2SH-P2WPKH/],
    ['a native SegWit address with another key', NATIVE, compressed(OTHER_KEY), /not the key of/],
  ])('refuses %s: 400 INVALID_ADDRESS on userPublicKey', (_, userAddress, userPublicKey, reason) => {
    const error = refusal(() =>
      walletsOf(fromBitcoin, { userAddress, userPublicKey, recipient: EVM_RECIPIENT }, familyOf, chainOf),
    );
    expect(error.code).toBe(ErrorCodes.INVALID_ADDRESS);
    expect(error.message).toMatch(reason);
    expect(error.details).toMatchObject({ field: 'userPublicKey', chain: 'bitcoin-devnet' });
  });

  it('does not read a key sent for an EVM wallet', () => {
    const wallets = walletsOf(
      plan('devnet-a', 'devnet-a'),
      { userAddress: EVM_RECIPIENT, userPublicKey: compressed(OTHER_KEY) },
      familyOf,
      chainOf,
    );
    expect(wallets.finalRecipient).toBe(EVM_RECIPIENT);
  });
});

describe('the wallets of a Cosmos route', () => {
  const cosmosKey = secp256k1.getPublicKey(USER_KEY, true);
  const recipientKey = secp256k1.getPublicKey(OTHER_KEY, true);
  const cosmosChains: Record<string, AddressCheckedChain> = {
    'cosmoshub-devnet': { id: 'cosmoshub-devnet', family: 'cosmos', cosmos: { bech32Prefix: 'cosmos' } },
    'osmosis-devnet': { id: 'osmosis-devnet', family: 'cosmos', cosmos: { bech32Prefix: 'osmo' } },
    'noble-devnet': { id: 'noble-devnet', family: 'cosmos', cosmos: { bech32Prefix: 'noble' } },
  };
  const addressOf = (prefix: string, key: Uint8Array) => cosmosAddressOfPubkey(prefix, key);

  it('is the user on the source chain, the recipient on the destination, the same key elsewhere', () => {
    const wallets = walletsOf(
      plan('cosmoshub-devnet', 'osmosis-devnet'),
      { userAddress: addressOf('cosmos', cosmosKey), recipient: addressOf('osmo', recipientKey) },
      (chain) => cosmosChains[chain].family,
      (chain) => cosmosChains[chain],
    );
    expect(wallets.walletOn('cosmoshub-devnet')).toBe(addressOf('cosmos', cosmosKey));
    expect(wallets.walletOn('osmosis-devnet')).toBe(addressOf('osmo', recipientKey));
    expect(wallets.walletOn('noble-devnet')).toBe(addressOf('noble', cosmosKey));
  });
});
