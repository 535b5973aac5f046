import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import { SupportPolicy } from '../catalog/support-policy';
import { DevnetBridgeProvider } from './devnet-bridge.provider';
import { QuoteContext, QuoteToken } from './quote-provider';
import { PathQuote, UniswapV2Quoter } from './uniswap-v2-quoter';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const VAULT = 'So11111111111111111111111111111111111111112';
const SOLANA_BRIDGE_ID = 1399811149;

const manifest: DevnetManifestView = {
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
    name: 'Solana Devnet',
    family: 'solana',
    rpcUrl: 'http://127.0.0.1:2',
    nativeSymbol: 'SOL',
    tokens: { USDC: { mint: MINT, decimals: 6, name: 'USD Coin' } },
    accounts: [],
    slotMs: 400,
    bridge: {
      chainId: SOLANA_BRIDGE_ID,
      token: 'USDC',
      vault: VAULT,
      vaultOwner: hex(7),
      estimatedDurationSeconds: 7,
    },
  },
};

const registry = new ChainRegistry({ manifest });
const evmUsdc: QuoteToken = { chain: 'devnet-a', symbol: 'USDC', address: hex(1), decimals: 6 };
const evmWeth: QuoteToken = { chain: 'devnet-a', symbol: 'WETH', address: hex(2), decimals: 18 };
const solUsdc: QuoteToken = {
  chain: 'solana-devnet',
  symbol: 'USDC',
  address: null,
  mint: MINT,
  decimals: 6,
};
const sol: QuoteToken = { chain: 'solana-devnet', symbol: 'SOL', address: null, mint: null, decimals: 9 };

/** A quoter that prices every path at a fixed rate (out = in × num / den), recording the calls. */
class FixedRateQuoter implements Pick<UniswapV2Quoter, 'quotePaths'> {
  readonly calls: { chain: string; tokenIn: string; tokenOut: string; amountIn: bigint }[] = [];
  constructor(
    private readonly num: bigint,
    private readonly den: bigint,
  ) {}
  async quotePaths(
    chain: string,
    tokenIn: QuoteToken,
    tokenOut: QuoteToken,
    amountIn: bigint,
  ): Promise<PathQuote[]> {
    this.calls.push({ chain, tokenIn: tokenIn.symbol, tokenOut: tokenOut.symbol, amountIn });
    const path = [tokenIn.address ?? hex(2), tokenOut.address!];
    return [
      {
        deployment: { chain, factory: hex(3), router: hex(4), initCodeHash: '0x', weth: hex(2) },
        path,
        pairs: [hex(9)],
        hops: [],
        amounts: [amountIn, (amountIn * this.num) / this.den],
        priceImpactBps: 0,
        maxReserveShareBps: 0,
      },
    ];
  }
}

const thresholds = { priceImpactBps: 100, thinLiquidityBps: 1000 };
const context = (tokenIn: QuoteToken, tokenOut: QuoteToken, amountIn: bigint): QuoteContext => ({
  fromChain: registry.get(tokenIn.chain),
  toChain: registry.get(tokenOut.chain),
  tokenIn,
  tokenOut,
  amountIn,
  slippageBps: 50,
});

describe('DevnetBridgeProvider between EVM and Solana', () => {
  it('bridges EVM USDC to solana-devnet: one bridge leg to the EVM bridge, tokenOut the USDC mint, Solana duration', async () => {
    const provider = new DevnetBridgeProvider(registry, new FixedRateQuoter(1n, 1n), thresholds);
    const request = context(evmUsdc, solUsdc, 1_000_000n);
    expect(provider.applies(request)).toBe(true);
    const [route] = await provider.quote(request, new AbortController().signal);
    expect(route.providers).toEqual(['devnet-bridge']);
    expect(route.bridgeProvider).toBe('devnet-bridge');
    expect(route.expectedAmountOut).toBe(999_000n); // 10 bps kept on deposit
    expect(route.estimatedDurationSeconds).toBe(7);
    expect(route.legs).toEqual([
      {
        kind: 'bridge',
        chain: 'devnet-a',
        provider: 'devnet-bridge',
        tokenIn: { chain: 'devnet-a', symbol: 'USDC', address: hex(1), decimals: 6 },
        tokenOut: { chain: 'solana-devnet', symbol: 'USDC', address: MINT, decimals: 6 },
        amountIn: '1000000',
        expectedAmountOut: '999000',
        minAmountOut: '999000',
        spender: hex(5),
        destinationChain: 'solana-devnet',
        destinationBridgeChainId: SOLANA_BRIDGE_ID,
        estimatedDurationSeconds: 7,
      },
    ]);
  });

  it('swaps WETH into USDC on the EVM chain first, then bridges what the swap yields', async () => {
    const quoter = new FixedRateQuoter(3000n, 10n ** 12n); // 1 WETH (1e18) → 3000 USDC (3e9)
    const provider = new DevnetBridgeProvider(registry, quoter, thresholds);
    const [route] = await provider.quote(context(evmWeth, solUsdc, 10n ** 18n), new AbortController().signal);
    expect(route.providers).toEqual(['uniswap-v2', 'devnet-bridge']);
    expect(route.legs.map((l) => l.kind)).toEqual(['swap', 'bridge']);
    expect(route.legs[0]).toMatchObject({
      chain: 'devnet-a',
      spender: hex(4),
      expectedAmountOut: '3000000000',
      minAmountOut: '2985000000',
    });
    expect(route.legs[1]).toMatchObject({ amountIn: '3000000000', expectedAmountOut: '2997000000' });
    expect(route.expectedAmountOut).toBe(2_997_000_000n);
    expect(route.estimatedDurationSeconds).toBe(5 + 7);
  });

  it('bridges solana-devnet USDC to the EVM chain from the vault, then swaps out on the EVM chain', async () => {
    const quoter = new FixedRateQuoter(10n ** 12n, 3000n);
    const provider = new DevnetBridgeProvider(registry, quoter, thresholds);
    const [route] = await provider.quote(
      context(solUsdc, evmWeth, 3_000_000_000n),
      new AbortController().signal,
    );
    expect(route.providers).toEqual(['devnet-bridge', 'uniswap-v2']);
    const [bridge, swap] = route.legs;
    expect(bridge).toEqual({
      kind: 'bridge',
      chain: 'solana-devnet',
      provider: 'devnet-bridge',
      tokenIn: { chain: 'solana-devnet', symbol: 'USDC', address: MINT, decimals: 6 },
      tokenOut: { chain: 'devnet-a', symbol: 'USDC', address: hex(1), decimals: 6 },
      amountIn: '3000000000',
      expectedAmountOut: '2997000000',
      minAmountOut: '2997000000',
      spender: VAULT,
      destinationChain: 'devnet-a',
      destinationBridgeChainId: 31337,
      estimatedDurationSeconds: 7,
    });
    expect(swap).toMatchObject({
      kind: 'swap',
      chain: 'devnet-a',
      amountIn: '2997000000',
      tokenOut: { symbol: 'WETH' },
    });
    expect(quoter.calls).toEqual([
      { chain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'WETH', amountIn: 2_997_000_000n },
    ]);
  });

  it('has no route for SOL on either side (no swap venue on the Solana devnet) and asks no pool', async () => {
    const quoter = new FixedRateQuoter(1n, 1n);
    const provider = new DevnetBridgeProvider(registry, quoter, thresholds);
    expect(await provider.quote(context(sol, evmUsdc, 10n ** 9n), new AbortController().signal)).toEqual([]);
    expect(await provider.quote(context(evmWeth, sol, 10n ** 18n), new AbortController().signal)).toEqual([]);
    expect(quoter.calls).toEqual([]);
  });

  it('lists pairs and support accordingly: USDC rides the bridge to and from Solana, SOL does not', () => {
    const policy = new SupportPolicy(registry, { lifiEnabled: false });
    expect(policy.pairProviders('devnet-a', 'solana-devnet', 'WETH', 'USDC')).toEqual(['devnet-bridge']);
    expect(policy.pairProviders('solana-devnet', 'devnet-a', 'USDC', 'DAI')).toEqual(['devnet-bridge']);
    expect(policy.pairProviders('solana-devnet', 'devnet-a', 'SOL', 'USDC')).toEqual([]);
    expect(policy.pairProviders('solana-devnet', 'solana-devnet', 'SOL', 'USDC')).toEqual([]);
    expect(policy.tokenProviders('solana-devnet', 'USDC')).toEqual(['devnet-bridge']);
    expect(policy.tokenProviders('solana-devnet', 'SOL')).toEqual([]);
    expect(policy.supportVariesByToken('solana-devnet')).toBe(true);
    const withJupiter = new SupportPolicy(registry, { lifiEnabled: false, jupiterChain: 'solana-devnet' });
    expect(withJupiter.pairProviders('solana-devnet', 'solana-devnet', 'SOL', 'USDC')).toEqual(['jupiter']);
  });
});
