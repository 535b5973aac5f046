import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REAL_NETWORK_CATALOG, SWAP_GATEWAY_ROUTER } from './catalog';
import { ChainRegistry } from './chain-registry';
import { DevnetManifestView } from './devnet-manifest';
import { completeDevnetManifest } from './devnet-manifest/devnet-manifest.fixture';

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const manifest: DevnetManifestView = {
  generatedAtMs: 1,
  chains: [
    {
      id: 'devnet-a',
      name: 'Devnet A',
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:8545',
      nativeSymbol: 'ETH',
      tokens: { USDC: { address: address(1), decimals: 6, name: 'USD Coin' } },
      uniswapV2: { factory: address(2), router: address(3), initCodeHash: `0x${'ab'.repeat(32)}`, pairs: {} },
      bridge: { address: address(4), token: 'USDC' },
    },
  ],
  bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: address(5) },
  accounts: [],
};

const withSolana: DevnetManifestView = {
  ...manifest,
  solana: {
    id: 'solana-devnet',
    name: 'Solana Devnet',
    family: 'solana',
    rpcUrl: 'http://127.0.0.1:8899',
    nativeSymbol: 'SOL',
    tokens: { USDC: { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6, name: 'USD Coin' } },
    accounts: [],
    slotMs: 400,
    bridge: {
      chainId: 1399811149,
      token: 'USDC',
      vault: '11111111111111111111111111111112',
      vaultOwner: '11111111111111111111111111111113',
      estimatedDurationSeconds: 3,
    },
  },
};

const withBitcoin: DevnetManifestView = { ...withSolana, bitcoin: completeDevnetManifest().bitcoin };

describe('ChainRegistry', () => {
  it('lists bitcoin-devnet (bitcoin family, regtest addresses, its Esplora API for signing and status) when the manifest has a Bitcoin section', () => {
    const registry = new ChainRegistry({ manifest: withBitcoin });
    expect(
      registry
        .list()
        .map((c) => c.id)
        .slice(0, 4),
    ).toEqual(['devnet-a', 'solana-devnet', 'bitcoin-devnet', 'ethereum']);
    expect(registry.get('bitcoin-devnet')).toMatchObject({
      family: 'bitcoin',
      network: 'testnet',
      bitcoinNetwork: 'regtest',
      devnet: true,
      rpcUrl: 'http://127.0.0.1:3002',
      statusApiUrl: 'http://127.0.0.1:3002',
      nativeSymbol: 'BTC',
      nativeDecimals: 8,
      caip2: 'bip122:bitcoin-devnet',
    });
    expect(registry.devnetBitcoin('bitcoin-devnet')?.bridge.usdcPerBtc).toBe(90000);
    expect(registry.devnetBitcoin('solana-devnet')).toBeUndefined();
    expect(registry.get('bitcoin')).toMatchObject({ bitcoinNetwork: 'mainnet', network: 'mainnet' });
    expect(new ChainRegistry({ manifest: withSolana }).find('bitcoin-devnet')).toBeUndefined();
  });

  it('lists solana-devnet (solana family, testnet, with a signing surface) when the manifest has a Solana section', () => {
    const registry = new ChainRegistry({ manifest: withSolana });
    expect(
      registry
        .list()
        .map((c) => c.id)
        .slice(0, 3),
    ).toEqual(['devnet-a', 'solana-devnet', 'ethereum']);
    expect(registry.get('solana-devnet')).toMatchObject({
      family: 'solana',
      network: 'testnet',
      devnet: true,
      rpcUrl: 'http://127.0.0.1:8899',
      nativeSymbol: 'SOL',
      nativeDecimals: 9,
      caip2: 'solana:solana-devnet',
    });
    expect(registry.hasSigningSurface('solana-devnet')).toBe(true);
    expect(registry.devnetSolana('solana-devnet')?.bridge.vault).toBe('11111111111111111111111111111112');
    expect(registry.devnetSolana('devnet-a')).toBeUndefined();
    expect(registry.devnetChain('solana-devnet')).toBeUndefined();
    expect(registry.solanaConnection('solana-devnet').rpcEndpoint).toBe('http://127.0.0.1:8899');
    expect(new ChainRegistry({ manifest }).find('solana-devnet')).toBeUndefined();
  });

  it("lists the manifest's cosmos section as chains of the cosmos family (families/cosmos/cosmos-registry.spec.ts)", () => {
    const complete = completeDevnetManifest();
    const registry = new ChainRegistry({ manifest: complete });
    const withoutCosmos = new ChainRegistry({ manifest: { ...complete, cosmos: undefined } });
    expect(registry.get('cosmoshub-devnet').family).toBe('cosmos');
    expect(withoutCosmos.find('cosmoshub-devnet')).toBeUndefined();
  });

  it('lists devnet chains (testnet, with their RPC) before the real networks', () => {
    const registry = new ChainRegistry({ manifest });
    const ids = registry.list().map((c) => c.id);
    expect(ids.slice(0, 5)).toEqual(['devnet-a', 'ethereum', 'base', 'arbitrum', 'solana']);
    expect(registry.get('devnet-a')).toMatchObject({
      family: 'evm',
      network: 'testnet',
      evmChainId: 31337,
      caip2: 'eip155:31337',
      devnet: true,
    });
    expect(registry.get('base')).toMatchObject({ evmChainId: 8453, network: 'mainnet', devnet: false });
    expect(registry.get('arbitrum').evmChainId).toBe(42161);
    expect(registry.get('solana')).toMatchObject({
      family: 'solana',
      nativeSymbol: 'SOL',
      nativeDecimals: 9,
    });
  });

  it('has a signing surface only where an RPC URL is configured or known', () => {
    const registry = new ChainRegistry({ manifest, rpcUrls: { ethereum: 'https://rpc.example' } });
    expect(registry.hasSigningSurface('devnet-a')).toBe(true);
    expect(registry.hasSigningSurface('ethereum')).toBe(true);
    expect(registry.hasSigningSurface('base')).toBe(false);
    expect(registry.hasSigningSurface('solana')).toBe(false);
    expect(registry.hasSigningSurface('nowhere')).toBe(false);
    expect(() => registry.evmProvider('base')).toThrow(/RPC_URL_BASE/);
  });

  it('reads RPC_URL_* and DEVNET_MANIFEST from the environment; a missing manifest means no devnet chains', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chains-'));
    const file = path.join(dir, 'manifest.json');
    fs.writeFileSync(file, JSON.stringify(manifest));
    const withDevnet = ChainRegistry.fromEnvironment({
      DEVNET_MANIFEST: file,
      RPC_URL_ARBITRUM: 'https://arb.example',
    });
    expect(withDevnet.find('devnet-a')).toBeDefined();
    expect(withDevnet.get('arbitrum').rpcUrl).toBe('https://arb.example');
    expect(withDevnet.findByCaip2('eip155:31337')?.id).toBe('devnet-a');

    const without = ChainRegistry.fromEnvironment({ DEVNET_MANIFEST: path.join(dir, 'missing.json') });
    expect(without.find('devnet-a')).toBeUndefined();
    expect(without.manifestProblem).toMatch(/no devnet manifest/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives a cached ethers provider bound to the chain id without probing the node', () => {
    const registry = new ChainRegistry({ manifest });
    const provider = registry.evmProvider('devnet-a');
    expect(registry.evmProvider('devnet-a')).toBe(provider);
    expect(provider._network.chainId).toBe(31337n);
    registry.destroy();
  });
});

describe('ChainRegistry.permitContracts', () => {
  it('joins a chain’s router and Permit2 with the venues the router may be told to call; none without a router', () => {
    const withPermits: DevnetManifestView = {
      ...manifest,
      chains: [{ ...manifest.chains[0], permits: { permit2: address(6), permitRouter: address(7) } }],
    };
    expect(new ChainRegistry({ manifest: withPermits }).permitContracts('devnet-a')).toEqual({
      permit2: address(6),
      permitRouter: address(7),
      uniswapV2Router: address(3),
      bridge: address(4),
    });
    expect(new ChainRegistry({ manifest }).permitContracts('devnet-a')).toBeUndefined();
    // A real network: the catalog's router and Permit2, its Uniswap venues and Across's SpokePool
    // (no bridge of ours).
    expect(new ChainRegistry({ manifest: withPermits }).permitContracts('ethereum')).toEqual({
      permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
      permitRouter: SWAP_GATEWAY_ROUTER,
      uniswapV2Router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
      uniswapV3SwapRouter02: '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
      acrossSpokePool: '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5',
    });
    const withoutRouter = REAL_NETWORK_CATALOG.map((e) => ({ ...e, gatewayRouter: undefined }));
    expect(new ChainRegistry({ catalog: withoutRouter }).permitContracts('ethereum')).toBeUndefined();
  });
});

describe('ChainRegistry.deployments', () => {
  it('gives a real network the shipped catalog entry, whose USDC permit domain is Circle’s', () => {
    const registry = new ChainRegistry({ rpcUrls: { base: 'http://127.0.0.1:8546' } });
    const base = registry.deployments('base')!;
    expect(base.permit2).toBe('0x000000000022D473030F116dDEE9F6B43aC78BA3');
    expect(base.wrappedNative).toBe('0x4200000000000000000000000000000000000006');
    expect(base.uniswapV3?.swapRouter02).toBe('0x2626664c2603336E57B271c5C0b26F421741e481');
    expect(registry.tokenPermitOf('base', '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')).toEqual({
      name: 'USD Coin',
      version: '2',
    });
    expect(registry.tokenPermitOf('base', base.wrappedNative!)).toBeUndefined();
    expect(registry.deployments('bitcoin')).toBeUndefined();
  });

  it('gives a devnet chain its manifest entry in the same shape', () => {
    const permitted: DevnetManifestView = JSON.parse(JSON.stringify(withSolana));
    permitted.chains[0].tokens.USDC.permit = true;
    permitted.chains[0].tokens.WETH = { address: address(9), decimals: 18, name: 'Wrapped Ether' };
    permitted.chains[0].permits = { permit2: address(6), permitRouter: address(7) };
    const registry = new ChainRegistry({ manifest: permitted });
    expect(registry.deployments('devnet-a')).toEqual({
      chain: 'devnet-a',
      tokens: [
        {
          symbol: 'USDC',
          name: 'USD Coin',
          address: address(1),
          decimals: 6,
          permit: { name: 'USD Coin', version: '1' },
          // Not marked verified in this manifest: quote-service measures its taxes.
          verified: false,
        },
        { symbol: 'WETH', name: 'Wrapped Ether', address: address(9), decimals: 18, verified: false },
      ],
      wrappedNative: address(9),
      permit2: address(6),
      gatewayRouter: address(7),
      uniswapV2: { factory: address(2), router: address(3), initCodeHash: `0x${'ab'.repeat(32)}` },
    });
    expect(registry.deployments('solana-devnet')?.tokens).toEqual([
      {
        symbol: 'USDC',
        name: 'USD Coin',
        address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        decimals: 6,
      },
    ]);
  });

  it('refuses to start on a catalog entry that fails its boot check, or names a chain it does not sign on', () => {
    const [ethereum] = REAL_NETWORK_CATALOG;
    const typo = { ...ethereum, permit2: ethereum.permit2!.toLowerCase().replace('0x0', '0x1') };
    expect(() => new ChainRegistry({ catalog: [typo] })).toThrow(/catalog ethereum: permit2/);
    expect(() => new ChainRegistry({ catalog: [{ ...ethereum, chain: 'bitcoin' }] })).toThrow(
      /catalog bitcoin: not a real network/,
    );
  });

  it('reads a manifest that brings no devnet chains (no chains, no bridge) as no devnet chains', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-'));
    const file = path.join(dir, 'manifest.json');
    fs.writeFileSync(file, JSON.stringify({ generatedAtMs: 1, chains: [], accounts: [] }));
    const registry = ChainRegistry.fromEnvironment({ DEVNET_MANIFEST: file });
    expect(registry.list().filter((c) => c.devnet)).toEqual([]);
    fs.writeFileSync(file, JSON.stringify({ ...manifest, bridge: undefined }));
    expect(() => ChainRegistry.fromEnvironment({ DEVNET_MANIFEST: file })).toThrow(
      /has chains but no bridge/,
    );
    fs.rmSync(dir, { recursive: true });
  });
});
