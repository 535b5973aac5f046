import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import { SupportPolicy } from '../../catalog/support-policy';
import { NoRouteError } from '../no-route.error';
import type { QuoteContext, QuoteToken } from '../quote-provider';
import { NobleForwardingProvider, nobleForwardingPathOf } from './noble-forwarding.provider';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const CONTRACT = 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8';
const cosmosChain = (
  id: string,
  prefix: string,
  denom: string,
  symbol: string,
  port: number,
  ibcChannels: Record<string, string>,
  extra: Record<string, unknown> = {},
) => ({
  id,
  name: id,
  family: 'cosmos' as const,
  chainId: id,
  rpc: `http://127.0.0.1:${port}`,
  rest: `http://127.0.0.1:${port + 1}`,
  bech32Prefix: prefix,
  nativeDenom: denom,
  nativeSymbol: symbol,
  decimals: 6,
  minGasPrice: `0.1${denom}`,
  blockMs: 1000,
  accounts: [],
  ibcChannels,
  ...extra,
});

const manifest = {
  generatedAtMs: 1,
  chains: [
    {
      id: 'devnet-a',
      name: 'Devnet A',
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:1',
      nativeSymbol: 'ETH',
      tokens: {
        USDC: { address: hex(1), decimals: 6, name: 'USD Coin' },
        WETH: { address: hex(2), decimals: 18, name: 'Wrapped Ether' },
      },
      uniswapV2: { factory: hex(3), router: hex(4), initCodeHash: `0x${'ab'.repeat(32)}`, pairs: {} },
      bridge: { address: hex(5), token: 'USDC' },
    },
  ],
  bridge: { provider: 'devnet-bridge', feeBps: 10, estimatedDurationSeconds: 2, relayer: hex(6) },
  accounts: [],
  cosmos: [
    cosmosChain('cosmoshub-devnet', 'cosmos', 'uatom', 'ATOM', 10, {
      'osmosis-devnet': 'channel-0',
      'noble-devnet': 'channel-1',
    }),
    cosmosChain(
      'osmosis-devnet',
      'osmo',
      'uosmo',
      'OSMO',
      20,
      { 'cosmoshub-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
      { crosschainSwapsContract: CONTRACT },
    ),
    cosmosChain(
      'noble-devnet',
      'noble',
      'uusdc',
      'USDC',
      30,
      { 'osmosis-devnet': 'channel-0', 'cosmoshub-devnet': 'channel-1' },
      {
        bridge: {
          chainId: 4,
          token: 'USDC',
          denom: 'uusdc',
          moduleAddress: 'noble12l2w4ugfz4m6dd73yysz477jszqnfughxvkss5',
          estimatedDurationSeconds: 5,
        },
      },
    ),
  ],
} as unknown as DevnetManifestView;
const registry = new ChainRegistry({ manifest });

describe('noble-forwarding: which pairs it serves', () => {
  it('goes from an EVM devnet chain to Osmosis and to the Hub, never to Noble itself nor from a Cosmos chain', () => {
    expect(nobleForwardingPathOf(registry, 'devnet-a', 'cosmoshub-devnet')?.home?.osmosisChannel).toBe(
      'channel-0',
    );
    expect(nobleForwardingPathOf(registry, 'devnet-a', 'osmosis-devnet')?.home).toBeUndefined();
    expect(nobleForwardingPathOf(registry, 'devnet-a', 'noble-devnet')).toBeUndefined();
    expect(nobleForwardingPathOf(registry, 'cosmoshub-devnet', 'osmosis-devnet')).toBeUndefined();
  });

  it('lists USDC → ATOM on the Hub and USDC → OSMO (and ATOM) on Osmosis among the pairs, nothing else', () => {
    const policy = new SupportPolicy(registry, false);
    // The policy reads symbols for these providers; the address matters only to THORChain's pools.
    const token = (symbol: string) => ({ symbol, address: null });
    expect(policy.pairProviders('devnet-a', 'cosmoshub-devnet', token('USDC'), token('ATOM'))).toEqual([
      'noble-forwarding',
    ]);
    expect(policy.pairProviders('devnet-a', 'osmosis-devnet', token('USDC'), token('OSMO'))).toEqual([
      'noble-forwarding',
    ]);
    expect(policy.pairProviders('devnet-a', 'osmosis-devnet', token('USDC'), token('ATOM'))).toEqual([
      'noble-forwarding',
    ]);
    expect(policy.pairProviders('devnet-a', 'osmosis-devnet', token('USDC'), token('USDC'))).toEqual([]);
    expect(policy.pairProviders('devnet-a', 'cosmoshub-devnet', token('WETH'), token('ATOM'))).toEqual([]);
    expect(policy.pairProviders('devnet-a', 'noble-devnet', token('USDC'), token('USDC'))).toEqual([
      'devnet-bridge',
    ]);
  });

  it('refuses, before reading any pool, another token than the bridged USDC and a foreign coin sent home', async () => {
    const provider = new NobleForwardingProvider(
      registry,
      { priceImpactBps: 300, thinLiquidityBps: 500 },
      1_000,
    );
    const token = (chain: string, symbol: string, address: string | null, decimals = 6): QuoteToken => ({
      chain,
      symbol,
      address,
      decimals,
    });
    const context = (tokenIn: QuoteToken, tokenOut: QuoteToken): QuoteContext => ({
      fromChain: registry.find(tokenIn.chain)!,
      toChain: registry.find(tokenOut.chain)!,
      tokenIn,
      tokenOut,
      amountIn: 10_000_000n,
    });
    const weth = token('devnet-a', 'WETH', hex(2), 18);
    const usdc = token('devnet-a', 'USDC', hex(1));
    const atom = token('cosmoshub-devnet', 'ATOM', 'uatom');
    expect(provider.applies(context(usdc, atom))).toBe(true);
    const signal = new AbortController().signal;
    await expect(provider.quote(context(weth, atom), signal)).rejects.toMatchObject({
      reason: 'PAIR_NOT_SUPPORTED',
    });
    await expect(
      provider.quote(context(usdc, token('cosmoshub-devnet', 'OSMO', 'ibc/OSMO')), signal),
    ).rejects.toBeInstanceOf(NoRouteError);
  });
});
