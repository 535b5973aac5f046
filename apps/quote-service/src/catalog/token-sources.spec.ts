import { ChainRegistry } from '@swapgw/chains';
import { completeDevnetManifest } from '@swapgw/chains/devnet-manifest/fixture';
import { uniswapV2Deployment } from '../providers/uniswap-v2-deployments';
import {
  assetKeyOf,
  ChainCatalogSource,
  coreRank,
  DevnetTokenSource,
  tokensFromTokenList,
} from './token-sources';

describe('token list mapping', () => {
  const registry = new ChainRegistry({});

  it('maps Ethereum, Base, Arbitrum and the Uniswap list Solana id onto our chains, skipping others', () => {
    const tokens = tokensFromTokenList(
      {
        tokens: [
          {
            chainId: 1,
            address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
            name: 'USD Coin',
            symbol: 'USDC',
            decimals: 6,
            logoURI: 'https://x/usdc.png',
          },
          {
            chainId: 8453,
            address: '0x4200000000000000000000000000000000000006',
            name: 'Wrapped Ether',
            symbol: 'WETH',
            decimals: 18,
            extensions: { bridgeInfo: { '1': {}, '10': {} } },
          },
          {
            chainId: 501000101,
            address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
            name: 'USD Coin',
            symbol: 'USDC',
            decimals: 6,
          },
          {
            chainId: 137,
            address: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174',
            name: 'USD Coin',
            symbol: 'USDC',
            decimals: 6,
          },
          { chainId: 42161, address: 'not-an-address', name: 'Broken', symbol: 'BRK', decimals: 18 },
          {
            chainId: 42161,
            address: '0x912CE59144191C1204E64559FE8253a0e49E6548',
            name: 'Arbitrum',
            symbol: 'ARB',
            decimals: 18,
            logoURI: 'ipfs://x',
          },
        ],
      },
      registry,
    );
    expect(tokens.map((t) => `${t.chain}:${t.symbol}`)).toEqual([
      'ethereum:USDC',
      'base:WETH',
      'solana:USDC',
      'arbitrum:ARB',
    ]);
    expect(tokens[0]).toMatchObject({
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      mint: null,
      logoUrl: 'https://x/usdc.png',
      rank: coreRank('USDC'),
    });
    expect(tokens[1].bridgedChains).toBe(2);
    expect(tokens[2]).toMatchObject({ address: null, mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' });
    expect(tokens[3]).toMatchObject({ logoUrl: null, rank: 1005 }); // not http(s); list position 5 after the core ranks
  });

  it('refuses a document without tokens', () => {
    expect(() => tokensFromTokenList({} as never, registry)).toThrow(/no tokens array/);
  });

  it('keys assets by lower-case address, mint or native', () => {
    expect(assetKeyOf({ address: '0xAbC', mint: null })).toBe('0xabc');
    expect(assetKeyOf({ address: null, mint: 'Mint1' })).toBe('Mint1');
    expect(assetKeyOf({ address: null, mint: null })).toBe('native');
  });
});

describe('the shipped catalog as a token source', () => {
  it('lists each real network’s catalog tokens with logos, bridged where Across carries the symbol', async () => {
    const tokens = await new ChainCatalogSource().load(new ChainRegistry({}));
    const baseUsdc = tokens.find((t) => t.chain === 'base' && t.symbol === 'USDC');
    expect(baseUsdc).toMatchObject({
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      mint: null,
      decimals: 6,
      logoUrl: expect.stringMatching(/^https:\/\//),
      rank: coreRank('USDC'),
      // Ethereum and Arbitrum have a SpokePool and USDC; Solana has no SpokePool in the catalog.
      bridgedChains: 2,
    });
    expect(tokens.find((t) => t.chain === 'solana' && t.symbol === 'USDC')).toMatchObject({
      address: null,
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      bridgedChains: 0,
    });
  });

  it('gives Uniswap V2 on every catalog chain with an RPC, at the canonical Router02', () => {
    const registry = new ChainRegistry({
      rpcUrls: { ethereum: 'http://127.0.0.1:1', base: 'http://127.0.0.1:2' },
    });
    expect(uniswapV2Deployment(registry, 'ethereum')?.router).toBe(
      '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
    );
    expect(uniswapV2Deployment(registry, 'base')).toMatchObject({
      factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
      weth: '0x4200000000000000000000000000000000000006',
    });
    expect(uniswapV2Deployment(registry, 'arbitrum')).toBeUndefined(); // no RPC configured
  });
});

describe('DevnetTokenSource', () => {
  it("lists BTC on bitcoin-devnet, bridged to the chains the devnet's THORNode names (not the devnet bridge's ends)", async () => {
    const bitcoin = completeDevnetManifest().bitcoin!;
    const registryWith = (thornodeChains?: Record<string, string>) =>
      new ChainRegistry({
        manifest: {
          generatedAtMs: 1,
          chains: [],
          bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: '0x' },
          accounts: [],
          bitcoin: {
            ...bitcoin,
            bridge: {
              ...bitcoin.bridge,
              ...(thornodeChains ? { thornode: { url: 'http://127.0.0.1:4', chains: thornodeChains } } : {}),
            },
          },
        },
      });
    const btcOf = async (registry: ChainRegistry) => new DevnetTokenSource().load(registry);
    expect(await btcOf(registryWith())).toEqual([
      expect.objectContaining({
        chain: 'bitcoin-devnet',
        symbol: 'BTC',
        name: 'Bitcoin',
        decimals: 8,
        address: null,
        mint: null,
        bridgedChains: 0,
      }),
    ]);
    expect(await btcOf(registryWith({ 'devnet-a': 'ETH', 'devnet-b': 'BSC' }))).toEqual([
      expect.objectContaining({ chain: 'bitcoin-devnet', symbol: 'BTC', bridgedChains: 2 }),
    ]);
  });
});
