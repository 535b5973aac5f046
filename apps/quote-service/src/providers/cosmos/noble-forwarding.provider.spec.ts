import { ChainRegistry } from '@swapgw/chains';
import { cosmosDevnetManifest, hex } from '../../../test/support/cosmos-devnet-manifest';
import { SupportPolicy } from '../../catalog/support-policy';
import { NoRouteError } from '../no-route.error';
import type { QuoteContext, QuoteToken } from '../quote-provider';
import { NobleForwardingProvider, nobleForwardingPathOf } from './noble-forwarding.provider';

const manifest = cosmosDevnetManifest();
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

  it('goes from Solana too (its deposit memo names the forwarding account), USDC only', () => {
    const withSolana = new ChainRegistry({ manifest: cosmosDevnetManifest(true) });
    const path = nobleForwardingPathOf(withSolana, 'solana-devnet', 'cosmoshub-devnet');
    expect(path?.from).toMatchObject({ family: 'solana', chain: 'solana-devnet' });
    expect(path?.home?.chain.id).toBe('cosmoshub-devnet');
    const policy = new SupportPolicy(withSolana, false);
    const token = (symbol: string) => ({ symbol, address: null });
    expect(policy.pairProviders('solana-devnet', 'cosmoshub-devnet', token('USDC'), token('ATOM'))).toEqual([
      'noble-forwarding',
    ]);
    expect(policy.pairProviders('solana-devnet', 'osmosis-devnet', token('USDC'), token('OSMO'))).toEqual([
      'noble-forwarding',
    ]);
    expect(policy.pairProviders('solana-devnet', 'cosmoshub-devnet', token('SOL'), token('ATOM'))).toEqual(
      [],
    );
    // Solana's USDC is supported by both; SOL by neither (no swap venue before the deposit).
    expect(policy.tokenProviders('solana-devnet', 'USDC')).toEqual(['devnet-bridge', 'noble-forwarding']);
    expect(policy.tokenProviders('solana-devnet', 'SOL')).toEqual([]);
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
