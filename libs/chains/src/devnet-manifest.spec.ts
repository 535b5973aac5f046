import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DevnetManifestError, readDevnetManifest } from './devnet-manifest';

const bitcoin = {
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
};

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
    bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: '0x' },
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
