import { ChainRegistry, DevnetManifestView, REAL_NETWORK_CATALOG } from '@swapgw/chains';
import type { RouteLeg, TokenRef } from '@swapgw/contracts';
import { signaturesOf } from './signature-expectations';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ROUTER = hex(4);
const BRIDGE = hex(5);

const evmChain = (id: string, chainId: number) => ({
  id,
  name: id,
  chainId,
  rpcUrl: `http://127.0.0.1:${chainId}`,
  nativeSymbol: 'ETH',
  tokens: {
    USDC: { address: hex(1), decimals: 6, name: 'USD Coin', permit: true, permitVersion: '2' },
    WETH: { address: hex(2), decimals: 18, name: 'Wrapped Ether' },
  },
  uniswapV2: { factory: hex(3), router: ROUTER, initCodeHash: `0x${'ab'.repeat(32)}`, pairs: {} },
  bridge: { address: BRIDGE, token: 'USDC' },
  permits: { permit2: hex(10), permitRouter: hex(11) },
});

const manifest: DevnetManifestView = {
  generatedAtMs: 1,
  chains: [evmChain('devnet-a', 31337), evmChain('devnet-b', 31338)],
  bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: hex(6) },
  accounts: [],
  solana: {
    id: 'solana-devnet',
    name: 'Solana Devnet',
    family: 'solana',
    rpcUrl: 'http://127.0.0.1:8899',
    nativeSymbol: 'SOL',
    tokens: { USDC: { mint: MINT, decimals: 6, name: 'USD Coin' } },
    accounts: [],
    slotMs: 400,
    bridge: {
      chainId: 1399811149,
      token: 'USDC',
      vault: hex(8),
      vaultOwner: hex(9),
      estimatedDurationSeconds: 3,
    },
  },
};
const registry = new ChainRegistry({ manifest });

const token = (chain: string, symbol: string, address: string | null, decimals = 18): TokenRef => ({
  chain,
  symbol,
  address,
  decimals,
});
const usdc = (chain: string) => token(chain, 'USDC', hex(1), 6);
const weth = (chain: string) => token(chain, 'WETH', hex(2));
const leg = (overrides: Partial<RouteLeg>): RouteLeg => ({
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: usdc('devnet-a'),
  tokenOut: weth('devnet-a'),
  amountIn: '1000000',
  expectedAmountOut: '1',
  minAmountOut: '1',
  spender: ROUTER,
  path: [hex(1), hex(2)],
  estimatedDurationSeconds: 1,
  ...overrides,
});
const shapeOf = (legs: RouteLeg[]) =>
  signaturesOf(registry, legs).map(
    (s) => `${s.kind}@${s.chain}:${s.payloadType}${s.mayBeSkipped ? '?' : ''}`,
  );

describe('signaturesOf (what a sponsored build asks the wallet to sign)', () => {
  it('a same-chain ERC-20 swap through the router: a permit (typed data, skippable), then the swap intent', () => {
    expect(shapeOf([leg({})])).toEqual(['approve@devnet-a:evm-typed-data?', 'swap@devnet-a:evm-typed-data']);
  });

  it("a token without EIP-2612: the approve is the wallet's own transaction", () => {
    expect(
      shapeOf([leg({ tokenIn: weth('devnet-a'), tokenOut: usdc('devnet-a'), path: [hex(2), hex(1)] })]),
    ).toEqual(['approve@devnet-a:evm-transaction?', 'swap@devnet-a:evm-typed-data']);
  });

  it('a native input or an aggregator call: transactions, with an approve only for an ERC-20', () => {
    expect(shapeOf([leg({ tokenIn: token('devnet-a', 'ETH', null), path: [hex(2), hex(1)] })])).toEqual([
      'swap@devnet-a:evm-transaction',
    ]);
    expect(
      shapeOf([
        leg({
          provider: 'lifi',
          spender: hex(20),
          path: undefined,
          call: { to: hex(20), data: '0x', value: '0', from: hex(21) },
        }),
      ]),
    ).toEqual(['approve@devnet-a:evm-transaction?', 'swap@devnet-a:evm-transaction']);
  });

  it('a bridge into a swap through both routers signs once on the source; Solana legs sign one transaction', () => {
    const bridge = leg({
      kind: 'bridge',
      provider: 'devnet-bridge',
      tokenOut: usdc('devnet-b'),
      spender: BRIDGE,
      path: undefined,
      destinationChain: 'devnet-b',
    });
    const swapOnB = leg({ chain: 'devnet-b', tokenIn: usdc('devnet-b'), tokenOut: weth('devnet-b') });
    expect(shapeOf([bridge, swapOnB])).toEqual([
      'approve@devnet-a:evm-typed-data?',
      'bridge@devnet-a:evm-typed-data',
    ]);
    const solanaSwap = leg({
      chain: 'solana-devnet',
      provider: 'jupiter',
      tokenIn: token('solana-devnet', 'USDC', MINT, 6),
      tokenOut: token('solana-devnet', 'SOL', null, 9),
    });
    expect(shapeOf([solanaSwap])).toEqual(['swap@solana-devnet:solana-versioned-transaction']);
  });
  it('on a real network (the shipped catalog, base): a Uniswap V3 swap is a USDC permit and a Permit2 witness through the SwapGatewayRouter, and so is an Across deposit, with the destination’s Uniswap V3 swap or without', () => {
    const base = REAL_NETWORK_CATALOG.find((e) => e.chain === 'base')!;
    const arbitrum = REAL_NETWORK_CATALOG.find((e) => e.chain === 'arbitrum')!;
    const real = new ChainRegistry({
      rpcUrls: { base: 'http://127.0.0.1:1', arbitrum: 'http://127.0.0.1:2' },
    });
    const [usdcOnBase, wethOnBase] = base.tokens.map((t) => token('base', t.symbol, t.address, t.decimals));
    const v3 = leg({
      chain: 'base',
      provider: 'uniswap-v3',
      tokenIn: usdcOnBase,
      tokenOut: wethOnBase,
      spender: base.uniswapV3!.swapRouter02,
      path: [usdcOnBase.address!, wethOnBase.address!],
      poolFees: [500],
    });
    const shape = (legs: RouteLeg[]) =>
      signaturesOf(real, legs).map(
        (s) => `${s.kind}@${s.chain}:${s.payloadType}${s.mayBeSkipped ? '?' : ''}`,
      );
    expect(shape([v3])).toEqual(['approve@base:evm-typed-data?', 'swap@base:evm-typed-data']);
    const across = leg({
      kind: 'bridge',
      chain: 'base',
      provider: 'across',
      tokenIn: usdcOnBase,
      tokenOut: token('arbitrum', 'USDC', arbitrum.tokens[0].address, 6),
      spender: base.across!.spokePool,
      path: undefined,
      destinationChain: 'arbitrum',
    });
    expect(shape([across])).toEqual(['approve@base:evm-typed-data?', 'bridge@base:evm-typed-data']);
    // Across into a Uniswap V3 swap on arbitrum: one AcrossSwapIntent on base, nothing on arbitrum.
    const [usdcOnArbitrum, wethOnArbitrum] = arbitrum.tokens.map((t) =>
      token('arbitrum', t.symbol, t.address, t.decimals),
    );
    const v3OnArbitrum = leg({
      chain: 'arbitrum',
      provider: 'uniswap-v3',
      tokenIn: usdcOnArbitrum,
      tokenOut: wethOnArbitrum,
      spender: arbitrum.uniswapV3!.swapRouter02,
      path: [usdcOnArbitrum.address!, wethOnArbitrum.address!],
      poolFees: [500],
    });
    expect(shape([across, v3OnArbitrum])).toEqual([
      'approve@base:evm-typed-data?',
      'bridge@base:evm-typed-data',
    ]);
    // A Uniswap V2 swap after Across is not what AcrossSwapMessage carries: its own steps there.
    const v2OnArbitrum = {
      ...v3OnArbitrum,
      provider: 'uniswap-v2',
      spender: arbitrum.uniswapV2!.router,
      poolFees: undefined,
    };
    expect(shape([across, v2OnArbitrum])).toEqual([
      'approve@base:evm-typed-data?',
      'bridge@base:evm-typed-data',
      'approve@arbitrum:evm-typed-data?',
      'swap@arbitrum:evm-typed-data',
    ]);
  });
});
