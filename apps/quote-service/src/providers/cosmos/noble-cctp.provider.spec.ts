import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import { SupportPolicy } from '../../catalog/support-policy';
import { NoRouteError } from '../no-route.error';
import type { QuoteContext, QuoteToken } from '../quote-provider';
import { NobleCctpProvider, nobleCctpPathOf } from './noble-cctp.provider';

const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOLANA_VAULT = 'So11111111111111111111111111111111111111112';
const SOLANA_VAULT_OWNER = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
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
  solana: {
    id: 'solana-devnet',
    name: 'Solana devnet',
    family: 'solana',
    rpcUrl: 'http://127.0.0.1:8899',
    nativeSymbol: 'SOL',
    tokens: { USDC: { mint: SOLANA_USDC, decimals: 6, name: 'USD Coin' } },
    bridgeAuthority: SOLANA_VAULT_OWNER,
    accounts: [],
    slotMs: 400,
    bridge: {
      chainId: 1399811149,
      token: 'USDC',
      vault: SOLANA_VAULT,
      vaultOwner: SOLANA_VAULT_OWNER,
      estimatedDurationSeconds: 3,
    },
  },
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

describe('noble-cctp: which pairs it serves', () => {
  it('goes from a Cosmos chain with a channel to Osmosis to Solana, through Osmosis and Noble', () => {
    const path = nobleCctpPathOf(registry, 'cosmoshub-devnet', 'solana-devnet');
    expect(path).toMatchObject({
      from: { id: 'cosmoshub-devnet' },
      osmosis: { id: 'osmosis-devnet' },
      noble: { chain: 'noble-devnet', family: 'cosmos' },
      nobleDenom: 'uusdc',
      to: { chain: 'solana-devnet', family: 'solana' },
    });
    // Not from Osmosis (a swap there then a transfer: more signatures) nor from Noble (the plain
    // burn is devnet-bridge's); not to an EVM chain (its mint is not read by the planner yet).
    expect(nobleCctpPathOf(registry, 'osmosis-devnet', 'solana-devnet')).toBeUndefined();
    expect(nobleCctpPathOf(registry, 'noble-devnet', 'solana-devnet')).toBeUndefined();
    expect(nobleCctpPathOf(registry, 'cosmoshub-devnet', 'devnet-a')).toBeUndefined();
    expect(nobleCctpPathOf(registry, 'devnet-a', 'solana-devnet')).toBeUndefined();
  });

  it('lists ATOM → USDC on Solana among the pairs, nothing else from the Hub to Solana', () => {
    const policy = new SupportPolicy(registry, false);
    const token = (symbol: string) => ({ symbol, address: null });
    expect(policy.pairProviders('cosmoshub-devnet', 'solana-devnet', token('ATOM'), token('USDC'))).toEqual([
      'noble-cctp',
    ]);
    expect(policy.pairProviders('cosmoshub-devnet', 'solana-devnet', token('ATOM'), token('SOL'))).toEqual(
      [],
    );
    expect(policy.pairProviders('cosmoshub-devnet', 'solana-devnet', token('OSMO'), token('USDC'))).toEqual(
      [],
    );
  });

  it('refuses, before reading any pool, a coin other than the source’s own and a token other than the bridged USDC', async () => {
    const provider = new NobleCctpProvider(registry, { priceImpactBps: 300, thinLiquidityBps: 500 }, 1_000);
    const token = (chain: string, symbol: string, address: string | null): QuoteToken => ({
      chain,
      symbol,
      address,
      decimals: 6,
    });
    const context = (tokenIn: QuoteToken, tokenOut: QuoteToken): QuoteContext => ({
      fromChain: registry.find(tokenIn.chain)!,
      toChain: registry.find(tokenOut.chain)!,
      tokenIn,
      tokenOut,
      amountIn: 2_000_000n,
    });
    const atom = token('cosmoshub-devnet', 'ATOM', 'uatom');
    const usdc = { ...token('solana-devnet', 'USDC', null), mint: SOLANA_USDC };
    expect(provider.applies(context(atom, usdc))).toBe(true);
    const signal = new AbortController().signal;
    await expect(
      provider.quote(context(token('cosmoshub-devnet', 'OSMO', 'ibc/OSMO'), usdc), signal),
    ).rejects.toMatchObject({ reason: 'PAIR_NOT_SUPPORTED' });
    await expect(
      provider.quote(
        context(atom, { ...token('solana-devnet', 'USDT', null), mint: SOLANA_VAULT_OWNER }),
        signal,
      ),
    ).rejects.toBeInstanceOf(NoRouteError);
  });
});
