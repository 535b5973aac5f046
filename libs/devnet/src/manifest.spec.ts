import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PublicKey } from '@solana/web3.js';
import { DevnetError } from './devnet-error';
import { DevnetManifest, devnetChain, devnetManifestProblems, loadDevnetManifest } from './manifest';
import { writeDevnetManifest } from './manifest-writer';

const solanaKey = (n: number) => new PublicKey(Buffer.alloc(32, n)).toBase58();
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

function validManifest(): DevnetManifest {
  const chain = (id: string, chainId: number, port: number) => ({
    id,
    name: id,
    chainId,
    rpcUrl: `http://127.0.0.1:${port}`,
    nativeSymbol: 'ETH',
    tokens: {
      USDC: { address: address(1), decimals: 6, name: 'USD Coin', permit: true, permitVersion: '1' },
      WETH: { address: address(3), decimals: 18, name: 'Wrapped Ether', permit: false },
    },
    uniswapV2: {
      factory: address(4),
      router: address(5),
      initCodeHash: `0x${'ab'.repeat(32)}`,
      pairs: { 'WETH/USDC': address(6) },
    },
    bridge: { address: address(7), token: 'USDC' },
    permits: { permit2: address(10), permitRouter: address(11) },
  });
  return {
    generatedAtMs: 1,
    mnemonic: 'test test test test test test test test test test test junk',
    chains: [chain('devnet-a', 31337, 8545), chain('devnet-b', 31338, 8546)],
    bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: address(8) },
    accounts: [{ index: 1, address: address(9) }],
    solana: {
      id: 'solana-devnet',
      name: 'Solana Devnet (local)',
      family: 'solana',
      rpcUrl: 'http://127.0.0.1:8899',
      nativeSymbol: 'SOL',
      tokens: { USDC: { mint: solanaKey(1), decimals: 6, name: 'USD Coin' } },
      bridgeAuthority: solanaKey(2),
      accounts: [{ index: 1, address: solanaKey(3) }],
      slotMs: 400,
      bridge: {
        chainId: 1399811149,
        token: 'USDC',
        vault: solanaKey(4),
        vaultOwner: solanaKey(2),
        estimatedDurationSeconds: 3,
      },
    },
    bitcoin: {
      id: 'bitcoin-devnet',
      name: 'Bitcoin Devnet',
      family: 'bitcoin',
      network: 'regtest',
      esploraUrl: 'http://127.0.0.1:3002',
      nativeSymbol: 'BTC',
      decimals: 8,
      blockMs: 1000,
      accounts: [{ index: 1, address: 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj' }],
      feeWallets: [{ index: 0, address: 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj' }],
      bridge: {
        chainId: 20000000000001,
        vault: 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj',
        token: 'USDC',
        usdcPerBtc: 90_000,
        feeBps: 5,
        outboundFeeSats: 1_000,
        estimatedDurationSeconds: 4,
      },
    },
  };
}

describe('devnet manifest', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devnet-manifest-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('round-trips through write and load', () => {
    const file = path.join(dir, 'nested', 'manifest.json');
    writeDevnetManifest(file, validManifest());
    expect(loadDevnetManifest(file)).toEqual(validManifest());
    expect(fs.readdirSync(path.dirname(file))).toEqual(['manifest.json']);
  });

  it('names the missing file and how to fix it', () => {
    const file = path.join(dir, 'absent.json');
    expect(() => loadDevnetManifest(file)).toThrow(expect.objectContaining({ code: 'MANIFEST_UNREADABLE' }));
    expect(() => loadDevnetManifest(file)).toThrow(/npm run devnet/);
  });

  it('rejects a file that is not JSON', () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, '{"chains": [');
    expect(() => loadDevnetManifest(file)).toThrow(DevnetError);
    expect(() => loadDevnetManifest(file)).toThrow(/not JSON/);
  });

  it('reports each malformed field by its path', () => {
    const manifest = validManifest() as unknown as {
      chains: Record<string, unknown>[];
      bridge: Record<string, unknown>;
    };
    manifest.chains[1].rpcUrl = 'localhost:8546';
    (manifest.chains[0].tokens as Record<string, Record<string, unknown>>).USDC.decimals = '6';
    manifest.bridge.feeBps = 10_000;
    (manifest.chains[1].permits as Record<string, unknown>).permitRouter = 'router';
    expect(devnetManifestProblems(manifest)).toEqual([
      'chains[0].tokens.USDC.decimals must be an integer',
      'chains[1].rpcUrl must be an http(s) URL',
      'chains[1].permits.permitRouter must be an address',
      'bridge.feeBps must be an integer in [0, 10000)',
    ]);
    expect(devnetManifestProblems(validManifest())).toEqual([]);
    expect(devnetManifestProblems([])).toEqual(['the manifest is not an object']);
  });

  it('checks the Solana section, and requires it', () => {
    const manifest = validManifest() as unknown as {
      solana: Record<string, unknown> & { bridge: Record<string, unknown> };
    };
    manifest.solana.rpcUrl = '127.0.0.1:8899';
    manifest.solana.bridge.vault = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
    delete manifest.solana.bridge.estimatedDurationSeconds;
    expect(devnetManifestProblems(manifest)).toEqual([
      'solana.rpcUrl must be an http(s) URL',
      'solana.bridge.vault must be a base58 public key',
      'solana.bridge.estimatedDurationSeconds must be a non-negative integer',
    ]);
    const withoutSolana: Record<string, unknown> = { ...validManifest() };
    delete withoutSolana.solana;
    expect(devnetManifestProblems(withoutSolana)).toEqual(['solana must be an object']);
  });

  it('checks the Bitcoin section, and requires it', () => {
    const manifest = validManifest() as unknown as {
      bitcoin: Record<string, unknown> & { bridge: Record<string, unknown> };
    };
    manifest.bitcoin.esploraUrl = 'http://127.0.0.1:3002/';
    manifest.bitcoin.bridge.vault = 'bc1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj';
    delete manifest.bitcoin.bridge.usdcPerBtc;
    expect(devnetManifestProblems(manifest)).toEqual([
      'bitcoin.esploraUrl must be an http(s) URL without a trailing slash',
      'bitcoin.bridge.vault must be a bcrt1 address',
      'bitcoin.bridge.usdcPerBtc must be a positive integer',
    ]);
    const withoutBitcoin: Record<string, unknown> = { ...validManifest() };
    delete withoutBitcoin.bitcoin;
    expect(devnetManifestProblems(withoutBitcoin)).toEqual(['bitcoin must be an object']);
  });

  it('finds a chain by its API id', () => {
    expect(devnetChain(validManifest(), 'devnet-b').chainId).toBe(31338);
    expect(() => devnetChain(validManifest(), 'solana-devnet')).toThrow(/has devnet-a, devnet-b/);
  });
});
