import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DevnetError } from './devnet-error';
import { DevnetManifest, devnetChain, loadDevnetManifest, manifestProblems, writeDevnetManifest } from './manifest';

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
    uniswapV2: { factory: address(4), router: address(5), initCodeHash: `0x${'ab'.repeat(32)}`, pairs: { 'WETH/USDC': address(6) } },
    bridge: { address: address(7), token: 'USDC' },
  });
  return {
    generatedAtMs: 1,
    mnemonic: 'test test test test test test test test test test test junk',
    chains: [chain('devnet-a', 31337, 8545), chain('devnet-b', 31338, 8546)],
    bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: address(8) },
    accounts: [{ index: 1, address: address(9) }],
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
    const manifest = validManifest() as unknown as { chains: Record<string, unknown>[]; bridge: Record<string, unknown> };
    manifest.chains[1].rpcUrl = 'localhost:8546';
    (manifest.chains[0].tokens as Record<string, Record<string, unknown>>).USDC.decimals = '6';
    manifest.bridge.feeBps = 10_000;
    expect(manifestProblems(manifest)).toEqual([
      'chains[0].tokens.USDC.decimals must be an integer',
      'chains[1].rpcUrl must be an http(s) URL',
      'bridge.feeBps must be an integer in [0, 10000)',
    ]);
    expect(manifestProblems(validManifest())).toEqual([]);
    expect(manifestProblems([])).toEqual(['the manifest is not an object']);
  });

  it('finds a chain by its API id', () => {
    expect(devnetChain(validManifest(), 'devnet-b').chainId).toBe(31338);
    expect(() => devnetChain(validManifest(), 'solana-devnet')).toThrow(/has devnet-a, devnet-b/);
  });
});
