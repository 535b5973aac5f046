import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DevnetManifestError,
  readCompleteDevnetManifest,
  readDevnetManifest,
} from './devnet-manifest-reader';
import { completeDevnetManifest } from './devnet-manifest.fixture';

const { bitcoin } = completeDevnetManifest();

describe('readDevnetManifest, bitcoin section', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-manifest-view-'));
  const write = (manifest: unknown) => {
    const file = path.join(dir, `${Math.random()}.json`);
    fs.writeFileSync(file, JSON.stringify(manifest));
    return file;
  };
  const base = {
    generatedAtMs: 1,
    chains: [],
    bridge: {
      provider: 'devnet-bridge',
      feeBps: 5,
      estimatedDurationSeconds: 2,
      relayer: `0x${'0'.repeat(39)}8`,
    },
    accounts: [],
  };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the Bitcoin chain as the devnet writes it, and manifests without one', () => {
    expect(readDevnetManifest(write({ ...base, bitcoin })).bitcoin).toEqual(bitcoin);
    expect(readDevnetManifest(write(base)).bitcoin).toBeUndefined();
  });

  it('refuses a bitcoin section a service could not use', () => {
    for (const broken of [
      { ...bitcoin, esploraUrl: 'http://127.0.0.1:3002/' },
      { ...bitcoin, network: 'mainnet' },
      { ...bitcoin, bridge: { ...bitcoin.bridge, vault: undefined } },
    ])
      expect(() => readDevnetManifest(write({ ...base, bitcoin: broken }))).toThrow(DevnetManifestError);
  });
});

describe('readDevnetManifest and readCompleteDevnetManifest, one schema', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-manifest-check-'));
  const write = (manifest: unknown) => {
    const file = path.join(dir, `${Math.random()}.json`);
    fs.writeFileSync(file, JSON.stringify(manifest));
    return file;
  };
  const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
  const replica = { generatedAtMs: 1, chains: [], accounts: [{ index: 1, address: address(9) }] };
  const olderChain = {
    id: 'devnet-a',
    name: 'Devnet A',
    chainId: 31337,
    rpcUrl: 'http://127.0.0.1:8545',
    nativeSymbol: 'ETH',
    tokens: { USDC: { address: address(1), decimals: 6, name: 'USD Coin' } },
    uniswapV2: { factory: address(2), router: address(3), initCodeHash: `0x${'ab'.repeat(32)}`, pairs: {} },
    bridge: { address: address(4), token: 'USDC' },
  };
  const bridge = { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: address(8) };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the mainnet replica manifest and one written before permits, Solana and Bitcoin as a view', () => {
    expect(readDevnetManifest(write(replica)).chains).toEqual([]);
    expect(
      readDevnetManifest(write({ ...replica, chains: [olderChain], bridge })).chains[0].permits,
    ).toBeUndefined();
  });

  it('checks what a view manifest holds with the rules of the complete one', () => {
    const file = write({ ...replica, chains: [{ ...olderChain, rpcUrl: '127.0.0.1:8545' }], bridge });
    expect(() => readDevnetManifest(file)).toThrow(
      expect.objectContaining({ fault: 'invalid', problems: ['chains[0].rpcUrl must be an http(s) URL'] }),
    );
  });

  it('reads the complete manifest startDevnet writes as it is', () => {
    expect(readCompleteDevnetManifest(write(completeDevnetManifest()))).toEqual(completeDevnetManifest());
  });

  it('requires every section of the manifest startDevnet writes', () => {
    expect(() => readCompleteDevnetManifest(write(replica))).toThrow(
      expect.objectContaining({
        fault: 'invalid',
        problems: [
          'mnemonic must be a 12+ word phrase',
          'chains must be a non-empty array',
          'bridge must be an object',
          'solana must be an object',
          'bitcoin must be an object',
        ],
      }),
    );
    expect(() => readCompleteDevnetManifest(path.join(dir, 'absent.json'))).toThrow(
      expect.objectContaining({ fault: 'unreadable' }),
    );
  });
});
