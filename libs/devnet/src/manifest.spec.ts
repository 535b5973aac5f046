import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { completeDevnetManifest } from '@swapgw/chains/devnet-manifest/fixture';
import { DevnetError } from './devnet-error';
import { devnetChain, devnetManifestProblems, loadDevnetManifest } from './manifest';
import { writeDevnetManifest } from './manifest-writer';

describe('devnet manifest', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devnet-manifest-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('round-trips through write and load', () => {
    const file = path.join(dir, 'nested', 'manifest.json');
    writeDevnetManifest(file, completeDevnetManifest());
    expect(loadDevnetManifest(file)).toEqual(completeDevnetManifest());
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
    const manifest = completeDevnetManifest() as unknown as {
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
    expect(devnetManifestProblems(completeDevnetManifest())).toEqual([]);
    expect(devnetManifestProblems([])).toEqual(['the manifest is not an object']);
  });

  it('checks the Solana section, and requires it', () => {
    const manifest = completeDevnetManifest() as unknown as {
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
    const withoutSolana: Record<string, unknown> = { ...completeDevnetManifest() };
    delete withoutSolana.solana;
    expect(devnetManifestProblems(withoutSolana)).toEqual(['solana must be an object']);
  });

  it('checks the Bitcoin section, and requires it', () => {
    const manifest = completeDevnetManifest() as unknown as {
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
    const withoutBitcoin: Record<string, unknown> = { ...completeDevnetManifest() };
    delete withoutBitcoin.bitcoin;
    expect(devnetManifestProblems(withoutBitcoin)).toEqual(['bitcoin must be an object']);
  });

  it('finds a chain by its API id', () => {
    expect(devnetChain(completeDevnetManifest(), 'devnet-b').chainId).toBe(31338);
    expect(() => devnetChain(completeDevnetManifest(), 'solana-devnet')).toThrow(/has devnet-a, devnet-b/);
  });
});
