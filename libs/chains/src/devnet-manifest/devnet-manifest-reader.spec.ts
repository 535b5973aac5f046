import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DevnetManifestError,
  readCompleteDevnetManifest,
  readDevnetManifest,
} from './devnet-manifest-reader';
import { completeDevnetManifest } from './devnet-manifest.fixture';

const { bitcoin, cosmos } = completeDevnetManifest();

/** A temporary folder and a writer of manifests into it (one file per manifest). */
function manifestFiles(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const write = (manifest: unknown) => {
    const file = path.join(dir, `${Math.random()}.json`);
    fs.writeFileSync(file, JSON.stringify(manifest));
    return file;
  };
  return { dir, write };
}

describe('readDevnetManifest, bitcoin section', () => {
  const { dir, write } = manifestFiles('swapgw-manifest-view-');
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

describe('readDevnetManifest, cosmos section (a family no service serves yet)', () => {
  const { dir, write } = manifestFiles('swapgw-manifest-cosmos-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the Cosmos chains beside the EVM ones, which stay as they were', () => {
    const manifest = readDevnetManifest(write(completeDevnetManifest()));
    expect(manifest.cosmos).toEqual(cosmos);
    expect(manifest.chains.map((c) => c.id)).toEqual(['devnet-a', 'devnet-b']);
    const { cosmos: _omitted, ...older } = completeDevnetManifest();
    expect(readDevnetManifest(write(older)).cosmos).toBeUndefined();
  });

  it('refuses a cosmos chain a wallet could not reach or address', () => {
    const broken = { ...cosmos[0], rpc: 'http://127.0.0.1:26657/', family: 'evm', minGasPrice: '0.005' };
    expect(() => readDevnetManifest(write({ ...completeDevnetManifest(), cosmos: [broken] }))).toThrow(
      expect.objectContaining({
        problems: [
          'cosmos[0].family must be cosmos',
          'cosmos[0].rpc must be an http(s) URL without a trailing slash',
          'cosmos[0].minGasPrice must be a decimal coin (0.005uatom)',
        ],
      }),
    );
    const foreign = {
      ...cosmos[0],
      accounts: [{ index: 1, address: 'osmo1erxf3sa9q2j4vgseu7jq4a258ckmk7cy89fm3s' }],
    };
    expect(() => readDevnetManifest(write({ ...completeDevnetManifest(), cosmos: [foreign] }))).toThrow(
      DevnetManifestError,
    );
  });

  it("reads Osmosis's crosschain-swaps contract address, and refuses one that is not the chain's bech32", () => {
    const contract = 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8';
    const osmosis = { ...cosmos[0], bech32Prefix: 'osmo', accounts: [], crosschainSwapsContract: contract };
    const manifest = readDevnetManifest(write({ ...completeDevnetManifest(), cosmos: [osmosis] }));
    expect(manifest.cosmos?.[0].crosschainSwapsContract).toBe(contract);
    const foreign = { ...osmosis, crosschainSwapsContract: 'cosmos1erxf3sa9q2j4vgseu7jq4a258ckmk7cy076t8z' };
    expect(() => readDevnetManifest(write({ ...completeDevnetManifest(), cosmos: [foreign] }))).toThrow(
      expect.objectContaining({
        problems: ["cosmos[0].crosschainSwapsContract must be a bech32 address of the chain's prefix"],
      }),
    );
  });
});

describe('readDevnetManifest and readCompleteDevnetManifest, one schema', () => {
  const { dir, write } = manifestFiles('swapgw-manifest-check-');
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
          'cosmos must be an array',
        ],
      }),
    );
    expect(() => readCompleteDevnetManifest(path.join(dir, 'absent.json'))).toThrow(
      expect.objectContaining({ fault: 'unreadable' }),
    );
  });
});
