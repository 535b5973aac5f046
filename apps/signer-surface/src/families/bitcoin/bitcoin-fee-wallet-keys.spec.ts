import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import * as btc from '@scure/btc-signer';
import { ChainRegistry, DevnetBitcoinView, DevnetManifestView } from '@swapgw/chains';
import { BITCOIN_NETWORKS } from '@swapgw/chains/families';
import { inspect } from 'node:util';
import { DataSource } from 'typeorm';
import { SignerChains } from '../../chains/signer-chains';
import { configHidingKeys, configProblemsOf, keyProblemOf } from '../../../test/key-file-specs';
import { BitcoinFeeInputsRepository } from './bitcoin-fee-inputs.repository';
import { parseBitcoinFeeWalletKeys } from './bitcoin-fee-wallet-keys';
import { BitcoinFeeWallets } from './bitcoin-fee-wallets';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { RelayerAccountsRepository } from '../../sponsorship/relayer-accounts.repository';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { BitcoinFeeWalletSettings } from './bitcoin-fee-wallet-settings';

const keyA = new Uint8Array(32).fill(0x11);
const keyB = new Uint8Array(32).fill(0x2b);
const testWif = (key: Uint8Array) => btc.WIF(BITCOIN_NETWORKS.regtest).encode(key);
const mainnetWif = (key: Uint8Array) => btc.WIF(BITCOIN_NETWORKS.mainnet).encode(key);
const WIF_A = testWif(keyA);
const WIF_B = testWif(keyB);
const regtestAddressOf = (key: Uint8Array) =>
  btc.p2wpkh(secp256k1.getPublicKey(key, true), BITCOIN_NETWORKS.regtest).address!;

const problemOf = (json: string): string =>
  keyProblemOf(parseBitcoinFeeWalletKeys, json, 'BITCOIN_FEE_WALLET_KEYS', [WIF_A, WIF_B]);

describe('parseBitcoinFeeWalletKeys', () => {
  it('reads WIFs of compressed keys per chain, of either network', () => {
    const reading = parseBitcoinFeeWalletKeys(
      JSON.stringify({ 'bitcoin-devnet': [WIF_A, WIF_B], bitcoin: [mainnetWif(keyA)] }),
      'BITCOIN_FEE_WALLET_KEYS',
    );
    if (!reading.ok) throw new Error(reading.problem);
    expect(reading.keys.keysOf('bitcoin-devnet')).toEqual([WIF_A, WIF_B]);
    expect(reading.keys.keysOf('bitcoin')).toEqual([mainnetWif(keyA)]);
  });

  // An uncompressed WIF: version, the 32 bytes, no 0x01 suffix.
  const uncompressed = createBase58check(sha256).encode(Uint8Array.from([0xef, ...keyA]));

  it.each([
    ['not JSON', `{"bitcoin-devnet": [${WIF_A}]}`, /BITCOIN_FEE_WALLET_KEYS is not valid JSON/],
    [
      'a key where a chain id goes',
      JSON.stringify({ [WIF_A]: [WIF_B] }),
      /chain id #1 is not a chain identifier/,
    ],
    [
      'a 0x hex key',
      JSON.stringify({ 'bitcoin-devnet': [`0x${'11'.repeat(32)}`] }),
      /key #1 is not the WIF of a compressed secp256k1 private key/,
    ],
    [
      'a WIF with a broken checksum',
      JSON.stringify({ 'bitcoin-devnet': [`${WIF_A.slice(0, -1)}${WIF_A.endsWith('1') ? '2' : '1'}`] }),
      /key #1 is not the WIF of a compressed secp256k1 private key/,
    ],
    [
      'an uncompressed WIF',
      JSON.stringify({ 'bitcoin-devnet': [uncompressed] }),
      /key #1 is not the WIF of a compressed secp256k1 private key/,
    ],
    [
      'an address',
      JSON.stringify({ 'bitcoin-devnet': [regtestAddressOf(keyA)] }),
      /key #1 is not the WIF of a compressed secp256k1 private key/,
    ],
    ['the same key twice', JSON.stringify({ 'bitcoin-devnet': [WIF_A, WIF_A] }), /key #2 repeats key #1/],
    [
      'the same key twice, once per network',
      JSON.stringify({ 'bitcoin-devnet': [WIF_A, mainnetWif(keyA)] }),
      /key #2 repeats key #1/,
    ],
  ])('refuses %s without quoting it', (_what, json, expected) => {
    expect(problemOf(json)).toMatch(expected);
  });
});

describe('SignerSurfaceConfig Bitcoin fee wallets', () => {
  it('reads BITCOIN_FEE_WALLET_KEYS, never shows it, and budgets Bitcoin in sats', () => {
    const config = configHidingKeys(
      {
        BITCOIN_FEE_WALLET_KEYS: JSON.stringify({ 'bitcoin-devnet': [WIF_A] }),
        SPONSORSHIP_BUDGET_OVERRIDES: '{"broke": "1"}',
      },
      'BITCOIN_FEE_WALLET_KEYS',
      [WIF_A],
    );
    const settings = new BitcoinFeeWalletSettings(config);
    expect(settings.keys.keysOf('bitcoin-devnet')).toEqual([WIF_A]);
    expect(settings.minBalanceSats).toBe(100_000n);
    expect(settings.budget.dailyLimitOf('someone', 'bitcoin-devnet')).toBe(1_000_000n);
    expect(settings.budget.dailyLimitOf('broke', 'bitcoin-devnet')).toBe(1n);
  });

  it('refuses bad keys naming the position, both forms at once, and amounts that are not sats', () => {
    const message = configProblemsOf({
      BITCOIN_FEE_WALLET_KEYS: JSON.stringify({ 'bitcoin-devnet': [WIF_A, 'garbage'] }),
    });
    expect(message).toContain(
      'BITCOIN_FEE_WALLET_KEYS["bitcoin-devnet"] key #2 is not the WIF of a compressed secp256k1 private key',
    );
    expect(message).not.toContain(WIF_A.slice(0, 12));
    expect(
      configProblemsOf({ BITCOIN_FEE_WALLET_KEYS: '{}', BITCOIN_FEE_WALLET_KEYS_FILE: '/nowhere' }),
    ).toContain('set BITCOIN_FEE_WALLET_KEYS or BITCOIN_FEE_WALLET_KEYS_FILE, not both');
    expect(configProblemsOf({ SPONSORSHIP_DAILY_BUDGET_SATS: '0.01' })).toContain(
      'SPONSORSHIP_DAILY_BUDGET_SATS must be a decimal string of sats',
    );
    expect(configProblemsOf({ BITCOIN_FEE_WALLET_MIN_BALANCE_SATS: '-1' })).toContain(
      'BITCOIN_FEE_WALLET_MIN_BALANCE_SATS must be a decimal string of sats',
    );
  });
});

describe('BitcoinFeeWallets', () => {
  const bitcoin = {
    id: 'bitcoin-devnet',
    name: 'Bitcoin devnet',
    family: 'bitcoin',
    network: 'regtest',
    esploraUrl: 'http://127.0.0.1:9',
    nativeSymbol: 'BTC',
    decimals: 8,
    blockMs: 1000,
    accounts: [],
    feeWallets: [],
  } as unknown as DevnetBitcoinView;
  const chains = () =>
    new SignerChains(
      new ChainRegistry({
        manifest: {
          generatedAtMs: 0,
          chains: [],
          bridge: { provider: 'devnet-bridge', feeBps: 0, estimatedDurationSeconds: 1, relayer: '' },
          accounts: [],
          bitcoin,
        } as DevnetManifestView,
      }),
      1000,
    );
  const keys = (byChain: Record<string, string[]>) => new RelayerKeySet(new Map(Object.entries(byChain)));
  // Construction and keys touch no database.
  const ledger = new FeeAccountLedger(
    new RelayerAccountsRepository({} as DataSource),
    new SponsoredTransactionsRepository({} as DataSource),
  );
  const holds = new BitcoinFeeInputsRepository({} as DataSource);
  const wallets = (byChain: Record<string, string[]>) =>
    new BitcoinFeeWallets(keys(byChain), chains(), 0n, holds, ledger);

  it('refuses keys of an unknown or non-Bitcoin chain, or of another network, naming positions only', () => {
    let message = '';
    try {
      wallets({
        'bitcoin-devnet': [WIF_A, mainnetWif(keyB)],
        bitcoin: [WIF_B],
        'devnet-z': [WIF_A],
        solana: [WIF_A],
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Invalid Bitcoin fee wallet configuration: ' +
        [
          `BITCOIN_FEE_WALLET_KEYS["bitcoin-devnet"] key #2 is not a WIF of the chain's network (regtest)`,
          `BITCOIN_FEE_WALLET_KEYS["bitcoin"] key #1 is not a WIF of the chain's network (mainnet)`,
          'BITCOIN_FEE_WALLET_KEYS names chain devnet-z, which is not known',
          'BITCOIN_FEE_WALLET_KEYS names chain solana, a solana chain: fee wallets pay Bitcoin transactions only',
        ].join('; '),
    );
    expect(message).not.toContain(WIF_A.slice(0, 12));
    expect(message).not.toContain(mainnetWif(keyB).slice(0, 12));
  });

  it("names each wallet by its P2WPKH address on the chain's network and lends its key to a callback only", () => {
    const feeWallets = wallets({ 'bitcoin-devnet': [WIF_A, WIF_B], bitcoin: [mainnetWif(keyB)] });
    expect(feeWallets.addresses('bitcoin-devnet')).toEqual([regtestAddressOf(keyA), regtestAddressOf(keyB)]);
    expect(feeWallets.addresses('bitcoin')).toEqual([
      btc.p2wpkh(secp256k1.getPublicKey(keyB, true), BITCOIN_NETWORKS.mainnet).address,
    ]);
    let lent: Uint8Array | undefined;
    const signed = feeWallets.withKey(regtestAddressOf(keyB), (privateKey) => {
      lent = privateKey;
      return Buffer.from(privateKey).equals(Buffer.from(keyB));
    });
    expect(signed).toBe(true);
    expect(lent).toEqual(new Uint8Array(32));
    expect(feeWallets.withKey(regtestAddressOf(new Uint8Array(32).fill(7)), () => true)).toBeNull();
    const dump = inspect(feeWallets, { depth: 10 });
    expect(dump).not.toContain(WIF_A.slice(0, 12));
    expect(dump).not.toContain(Buffer.from(keyA).toString('hex'));
  });

  it('is unavailable on a chain without fee wallets', async () => {
    await expect(
      wallets({ 'bitcoin-devnet': [WIF_A] }).hold(
        { chain: 'bitcoin', swapId: 's', stepIndex: 0 },
        1_000n,
        Date.now() + 60_000,
        Date.now(),
      ),
    ).rejects.toMatchObject({ code: 'SPONSORSHIP_UNAVAILABLE' });
  });
});
