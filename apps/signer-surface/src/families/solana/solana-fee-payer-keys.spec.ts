import { Keypair } from '@solana/web3.js';
import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import bs58 from 'bs58';
import type { DataSource } from 'typeorm';
import { inspect } from 'node:util';
import { SignerChains } from '../../chains/signer-chains';
import { configHidingKeys, configProblemsOf, keyProblemOf } from '../../../test/key-file-specs';
import { verifyEd25519 } from '@swapgw/chains/families';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { RelayerAccountsRepository } from '../../sponsorship/relayer-accounts.repository';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { SolanaFeePayerSettings } from './solana-fee-payer-settings';
import { parseSolanaFeePayerKeys } from './solana-fee-payer-keys';
import { SolanaFeePayers } from './solana-fee-payers';

const payerA = Keypair.fromSeed(new Uint8Array(32).fill(0x11));
const payerB = Keypair.fromSeed(new Uint8Array(32).fill(0x2b));
const secretOf = (keypair: Keypair) => bs58.encode(keypair.secretKey);
const KEY_A = secretOf(payerA);
const KEY_B = secretOf(payerB);

const problemOf = (json: string): string =>
  keyProblemOf(parseSolanaFeePayerKeys, json, 'SOLANA_FEE_PAYER_KEYS', [KEY_A, KEY_B]);

describe('parseSolanaFeePayerKeys', () => {
  it('reads base58 64-byte secret keys per chain', () => {
    const reading = parseSolanaFeePayerKeys(
      JSON.stringify({ 'solana-devnet': [KEY_A, KEY_B] }),
      'SOLANA_FEE_PAYER_KEYS',
    );
    if (!reading.ok) throw new Error(reading.problem);
    expect(reading.keys.keysOf('solana-devnet')).toEqual([KEY_A, KEY_B]);
  });

  it.each([
    ['not JSON', `{"solana-devnet": [${KEY_A}]}`, /SOLANA_FEE_PAYER_KEYS is not valid JSON/],
    [
      'a key where a chain id goes',
      JSON.stringify({ [KEY_A]: [KEY_B] }),
      /chain id #1 is not a chain identifier/,
    ],
    [
      'a 0x EVM key',
      JSON.stringify({ 'solana-devnet': [`0x${'11'.repeat(32)}`] }),
      /key #1 is not a base58 64-byte Solana secret key/,
    ],
    [
      'a public key (32 bytes)',
      JSON.stringify({ 'solana-devnet': [payerA.publicKey.toBase58()] }),
      /key #1 is not a base58 64-byte Solana secret key/,
    ],
    [
      'a seed with another public key',
      JSON.stringify({
        'solana-devnet': [
          bs58.encode(Buffer.concat([payerA.secretKey.subarray(0, 32), payerB.publicKey.toBytes()])),
        ],
      }),
      /key #1 is not a consistent Solana secret key/,
    ],
    ['the same key twice', JSON.stringify({ 'solana-devnet': [KEY_A, KEY_A] }), /key #2 repeats key #1/],
  ])('refuses %s without quoting it', (_what, json, expected) => {
    expect(problemOf(json)).toMatch(expected);
  });
});

describe('SignerSurfaceConfig Solana fee payers', () => {
  it('reads SOLANA_FEE_PAYER_KEYS, never shows it, and budgets Solana in lamports', () => {
    const config = configHidingKeys(
      {
        SOLANA_FEE_PAYER_KEYS: JSON.stringify({ 'solana-devnet': [KEY_A] }),
        SPONSORSHIP_BUDGET_OVERRIDES: '{"broke": "1"}',
      },
      'SOLANA_FEE_PAYER_KEYS',
      [KEY_A],
    );
    const settings = new SolanaFeePayerSettings(config);
    expect(settings.keys.keysOf('solana-devnet')).toEqual([KEY_A]);
    expect(settings.minBalanceLamports).toBe(10_000_000n);
    expect(settings.budget.dailyLimitOf('someone', 'solana-devnet')).toBe(100_000_000n); // 0.1 SOL
    expect(settings.budget.dailyLimitOf('broke', 'solana-devnet')).toBe(1n);
  });

  it('refuses bad keys naming the position, and both forms at once', () => {
    const message = configProblemsOf({
      SOLANA_FEE_PAYER_KEYS: JSON.stringify({ 'solana-devnet': [KEY_A, KEY_A.slice(0, 40)] }),
    });
    expect(message).toContain(
      'SOLANA_FEE_PAYER_KEYS["solana-devnet"] key #2 is not a base58 64-byte Solana secret key',
    );
    expect(message).not.toContain(KEY_A.slice(0, 12));
    expect(
      configProblemsOf({ SOLANA_FEE_PAYER_KEYS: '{}', SOLANA_FEE_PAYER_KEYS_FILE: '/nowhere' }),
    ).toContain('set SOLANA_FEE_PAYER_KEYS or SOLANA_FEE_PAYER_KEYS_FILE, not both');
    expect(configProblemsOf({ SPONSORSHIP_DAILY_BUDGET_LAMPORTS: '0.1' })).toContain(
      'SPONSORSHIP_DAILY_BUDGET_LAMPORTS must be a decimal string of lamports',
    );
  });
});

describe('SolanaFeePayers', () => {
  const chains = () =>
    new SignerChains(
      new ChainRegistry({
        manifest: {
          generatedAtMs: 0,
          chains: [],
          bridge: { provider: 'devnet-bridge', feeBps: 0, estimatedDurationSeconds: 1, relayer: '' },
          accounts: [],
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

  it('refuses keys of an unknown or non-Solana chain at construction, naming chains only', () => {
    expect(
      () =>
        new SolanaFeePayers(
          keys({ solana: [KEY_A], 'devnet-z': [KEY_B], ethereum: [KEY_B] }),
          chains(),
          0n,
          ledger,
        ),
    ).toThrow(
      'Invalid Solana fee payer configuration: SOLANA_FEE_PAYER_KEYS names chain devnet-z, which is not known; SOLANA_FEE_PAYER_KEYS names chain ethereum, a evm chain: fee payers pay Solana transactions only',
    );
  });

  it('signs a message as its fee payers only, deterministically, and prints no key', () => {
    const payers = new SolanaFeePayers(keys({ solana: [KEY_A, KEY_B] }), chains(), 0n, ledger);
    expect(payers.addresses('solana')).toEqual([payerA.publicKey.toBase58(), payerB.publicKey.toBase58()]);
    const message = Buffer.from('a transaction message');
    const signature = payers.sign(payerB.publicKey.toBase58(), message)!;
    expect(verifyEd25519(payerB.publicKey, message, signature)).toBe(true);
    expect(payers.sign(payerB.publicKey.toBase58(), message)).toEqual(signature);
    expect(payers.sign(Keypair.generate().publicKey.toBase58(), message)).toBeNull();
    expect(inspect(payers, { depth: 10 })).not.toContain(KEY_A.slice(0, 12));
  });

  it('takes fee payers in turn, skips one under its minimum balance, and is unavailable when none can pay', async () => {
    const payers = new SolanaFeePayers(keys({ solana: [KEY_A, KEY_B] }), chains(), 1_000n, ledger);
    const [a, b] = payers.addresses('solana');
    expect([await payers.pick('solana', 10n), await payers.pick('solana', 10n)]).toEqual([a, b]);
    payers.noteBalance('solana', a, 999n);
    payers.noteBalance('solana', b, 5_000n);
    expect(await payers.pick('solana', 10n)).toBe(b);
    payers.noteBalance('solana', b, 999n);
    await expect(payers.pick('solana', 10n)).rejects.toMatchObject({ code: 'SPONSORSHIP_UNAVAILABLE' });
    await expect(payers.pick('solana-devnet', 10n)).rejects.toMatchObject({
      code: 'SPONSORSHIP_UNAVAILABLE',
    });
  });
});
