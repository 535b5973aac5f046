import { ChainRegistry } from '@swapgw/chains';
import { cosmosDevnetManifest } from '../../../test/support/cosmos-devnet-manifest';
import { SOLANA_USDC } from '../../../test/support/devnet-solana-section';
import { SupportPolicy } from '../../catalog/support-policy';
import { NoRouteError } from '../no-route.error';
import type { QuoteContext, QuoteToken } from '../quote-provider';
import { NobleCctpProvider, nobleCctpPathOf } from './noble-cctp.provider';

const manifest = cosmosDevnetManifest(true);
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
        context(atom, {
          ...token('solana-devnet', 'USDT', null),
          mint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
        }),
        signal,
      ),
    ).rejects.toBeInstanceOf(NoRouteError);
  });
});
