import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import {
  hex,
  SOLANA_BRIDGE_ID,
  SOLANA_USDC,
  SOLANA_VAULT,
  solanaDevnetSection,
} from '../../test/support/devnet-solana-section';
import { SupportPolicy } from '../catalog/support-policy';
import { bridgedAmount, DevnetBridgeProvider, smallestBridgedInput } from './devnet-bridge.provider';
import { devnetBridgeEnd } from './devnet-bridge-ends';
import { NoRouteError } from './no-route.error';
import { QuoteContext, QuoteToken } from './quote-provider';
import { PathQuote, UniswapV2Quoter } from './uniswap-v2-quoter';

const MINT = SOLANA_USDC;
const VAULT = SOLANA_VAULT;

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
  solana: solanaDevnetSection,
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
class FixedRateQuoter implements Pick<UniswapV2Quoter, 'quotePaths' | 'smallestQuotableAmount'> {
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
  async smallestQuotableAmount(
    _chain: string,
    _tokenIn: QuoteToken,
    _tokenOut: QuoteToken,
    _signal: AbortSignal,
    amountOut = 1n,
  ): Promise<bigint> {
    return (amountOut * this.den + this.num - 1n) / this.num;
  }
}

/** As FixedRateQuoter, but, as the Uniswap quoters do, finds no path for an amount that buys nothing. */
class RoundingQuoter extends FixedRateQuoter {
  override async quotePaths(
    chain: string,
    tokenIn: QuoteToken,
    tokenOut: QuoteToken,
    amountIn: bigint,
  ): Promise<PathQuote[]> {
    const paths = await super.quotePaths(chain, tokenIn, tokenOut, amountIn);
    return paths.filter((path) => path.amounts[path.amounts.length - 1] > 0n);
  }
}

/** A quoter that finds no pool. */
class EmptyQuoter implements Pick<UniswapV2Quoter, 'quotePaths' | 'smallestQuotableAmount'> {
  async quotePaths(): Promise<PathQuote[]> {
    return [];
  }
  async smallestQuotableAmount(): Promise<undefined> {
    return undefined;
  }
}

const thresholds = { priceImpactBps: 100, thinLiquidityBps: 1000 };
/** The quote context of `amountIn` of tokenIn for tokenOut over the chains of `on`. */
const contextOn =
  (on: ChainRegistry) =>
  (tokenIn: QuoteToken, tokenOut: QuoteToken, amountIn: bigint): QuoteContext => ({
    fromChain: on.get(tokenIn.chain),
    toChain: on.get(tokenOut.chain),
    tokenIn,
    tokenOut,
    amountIn,
    slippageBps: 50,
  });
const context = contextOn(registry);

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
        slippageBps: 0,
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

  it('says AMOUNT_TOO_LOW when what the bridge pays buys nothing on the destination, with the least deposit whose payout buys one unit', async () => {
    // One base unit of WETH costs 2,000 base units of USDC on devnet-a.
    const provider = new DevnetBridgeProvider(registry, new RoundingQuoter(1n, 2000n), thresholds);
    const quote = (amount: bigint) =>
      provider.quote(context(solUsdc, evmWeth, amount), new AbortController().signal);
    const error = (await quote(1500n).catch((e: unknown) => e)) as NoRouteError;
    expect(error).toBeInstanceOf(NoRouteError);
    expect(error.reason).toBe('AMOUNT_TOO_LOW');
    expect(error.bounds?.token).toMatchObject({ chain: 'solana-devnet', symbol: 'USDC' });
    // The bound is exact: the bridge (10 bps kept on deposit) pays 2,000 for it, and one unit less pays 1,999.
    const min = error.bounds!.minAmount!;
    expect(bridgedAmount(min, 10)).toBe(2000n);
    expect(bridgedAmount(min - 1n, 10)).toBe(1999n);
    const [route] = await quote(min);
    expect(route.expectedAmountOut).toBe(1n);
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
      slippageBps: 0,
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
    await expect(
      provider.quote(context(sol, evmUsdc, 10n ** 9n), new AbortController().signal),
    ).rejects.toMatchObject({
      reason: 'PAIR_NOT_SUPPORTED',
    });
    await expect(
      provider.quote(context(evmWeth, sol, 10n ** 18n), new AbortController().signal),
    ).rejects.toMatchObject({
      reason: 'PAIR_NOT_SUPPORTED',
    });
    expect(quoter.calls).toEqual([]);
  });

  it('lists pairs and support accordingly: USDC rides the bridge to and from Solana, SOL does not', () => {
    const policy = new SupportPolicy(registry, { lifiEnabled: false });
    expect(policy.pairProviders('devnet-a', 'solana-devnet', evmWeth, solUsdc)).toEqual(['devnet-bridge']);
    expect(
      policy.pairProviders('solana-devnet', 'devnet-a', solUsdc, { symbol: 'DAI', address: hex(5) }),
    ).toEqual(['devnet-bridge']);
    expect(policy.pairProviders('solana-devnet', 'devnet-a', sol, evmUsdc)).toEqual([]);
    expect(policy.pairProviders('solana-devnet', 'solana-devnet', sol, solUsdc)).toEqual([]);
    expect(policy.tokenProviders('solana-devnet', 'USDC')).toEqual(['devnet-bridge']);
    expect(policy.tokenProviders('solana-devnet', 'SOL')).toEqual([]);
    expect(policy.supportVariesByToken('solana-devnet')).toBe(true);
    const withJupiter = new SupportPolicy(registry, { lifiEnabled: false, jupiterChain: 'solana-devnet' });
    expect(withJupiter.pairProviders('solana-devnet', 'solana-devnet', sol, solUsdc)).toEqual(['jupiter']);
  });
});

describe('DevnetBridgeProvider with a Bitcoin chain in the manifest', () => {
  const VAULT_BTC = 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x';
  const BITCOIN_BRIDGE_ID = 20000000000001;
  const withBitcoin = new ChainRegistry({
    manifest: {
      ...manifest,
      bitcoin: {
        id: 'bitcoin-devnet',
        name: 'Bitcoin Devnet',
        family: 'bitcoin',
        network: 'regtest',
        esploraUrl: 'http://127.0.0.1:3',
        nativeSymbol: 'BTC',
        decimals: 8,
        blockMs: 1000,
        accounts: [],
        feeWallets: [],
        bridge: {
          chainId: BITCOIN_BRIDGE_ID,
          vault: VAULT_BTC,
          token: 'USDC',
          usdcPerBtc: 90_000,
          feeBps: 5,
          outboundFeeSats: 1_000,
          estimatedDurationSeconds: 9,
        },
      },
    },
  });
  const btc: QuoteToken = { chain: 'bitcoin-devnet', symbol: 'BTC', address: null, decimals: 8 };
  const at = contextOn(withBitcoin);

  it('its Bitcoin end reaches Noble only: BTC to USDC, to WETH and to Solana, and USDC or WETH to BTC, are not its routes', () => {
    expect(devnetBridgeEnd(withBitcoin, 'bitcoin-devnet')?.family).toBe('bitcoin');
    const provider = new DevnetBridgeProvider(withBitcoin, new FixedRateQuoter(1n, 1n), thresholds);
    for (const request of [
      at(btc, evmUsdc, 1_000_000n),
      at(btc, evmWeth, 1_000_000n),
      at(btc, solUsdc, 1_000_000n),
      at(evmUsdc, btc, 900_000_000n),
      at(evmWeth, btc, 10n ** 18n),
      at(solUsdc, btc, 900_000_000n),
    ])
      expect(provider.applies(request)).toBe(false);
  });

  it("lists BTC pairs only where THORChain serves them: the chains the devnet's THORNode names, none to Solana", () => {
    const bitcoin = withBitcoin.manifest!.bitcoin!;
    const withThornode = new ChainRegistry({
      manifest: {
        ...withBitcoin.manifest!,
        bitcoin: {
          ...bitcoin,
          bridge: {
            ...bitcoin.bridge,
            thornode: { url: 'http://127.0.0.1:4', chains: { 'devnet-a': 'ETH' } },
          },
        },
      },
    });
    const policy = new SupportPolicy(withThornode, {
      lifiEnabled: false,
      thorchainPrefixes: { 'devnet-a': 'ETH' },
    });
    // Before THORNode's pools are read THORChain is listed for every token (WETH's quote answers no
    // route): support-policy.spec.ts narrows it by the pools.
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, evmUsdc)).toEqual(['thorchain']);
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, evmWeth)).toEqual(['thorchain']);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', evmUsdc, btc)).toEqual(['thorchain']);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', evmWeth, btc)).toEqual(['thorchain']);
    // THORChain serves no Solana: no provider at all.
    expect(policy.pairProviders('bitcoin-devnet', 'solana-devnet', btc, solUsdc)).toEqual([]);
    expect(policy.pairProviders('solana-devnet', 'bitcoin-devnet', solUsdc, btc)).toEqual([]);
    expect(policy.tokenProviders('bitcoin-devnet', 'BTC')).toEqual(['thorchain']);
    // Without THORNODE_URL nothing carries BTC.
    const withoutThornode = new SupportPolicy(withThornode, { lifiEnabled: false });
    expect(withoutThornode.pairProviders('bitcoin-devnet', 'devnet-a', btc, evmUsdc)).toEqual([]);
    expect(withoutThornode.pairProviders('devnet-a', 'bitcoin-devnet', evmWeth, btc)).toEqual([]);
    expect(withoutThornode.tokenProviders('bitcoin-devnet', 'BTC')).toEqual([]);
  });
});

describe('DevnetBridgeProvider without a source pool', () => {
  it('says NO_LIQUIDITY when no pool brings the token to the bridged USDC', async () => {
    const provider = new DevnetBridgeProvider(registry, new EmptyQuoter(), thresholds);
    await expect(
      provider.quote(context(evmWeth, solUsdc, 10n ** 18n), new AbortController().signal),
    ).rejects.toMatchObject({
      reason: 'NO_LIQUIDITY',
    });
  });
});

describe('smallestBridgedInput', () => {
  it('is the least deposit the bridge pays for: 1 base unit between EVM chains without a fee that rounds it away', () => {
    expect(smallestBridgedInput(10)).toBe(1n);
    expect(bridgedAmount(1n, 10)).toBe(1n);
  });
});

describe("DevnetBridgeProvider with the Cosmos end (Noble's CCTP)", () => {
  const CCTP_MODULE = 'noble12l2w4ugfz4m6dd73yysz477jszqnfughxvkss5';
  const withNoble = new ChainRegistry({
    manifest: {
      ...manifest,
      cosmos: [
        {
          id: 'noble-devnet',
          name: 'Noble Devnet',
          family: 'cosmos',
          chainId: 'noble-devnet',
          rpc: 'http://127.0.0.1:4',
          rest: 'http://127.0.0.1:5',
          bech32Prefix: 'noble',
          nativeDenom: 'uusdc',
          nativeSymbol: 'USDC',
          decimals: 6,
          minGasPrice: '0.1uusdc',
          blockMs: 1000,
          accounts: [],
          ibcChannels: {},
          bridge: {
            chainId: 4,
            token: 'USDC',
            denom: 'uusdc',
            moduleAddress: CCTP_MODULE,
            estimatedDurationSeconds: 5,
          },
        },
      ],
    },
  });
  const nobleUsdc: QuoteToken = {
    chain: 'noble-devnet',
    symbol: 'USDC',
    address: null,
    mint: 'uusdc',
    decimals: 6,
  };
  const at = contextOn(withNoble);

  it('bridges EVM USDC to Noble and Noble USDC to the EVM chain and Solana, the fee kept on deposit, Noble duration', async () => {
    const provider = new DevnetBridgeProvider(withNoble, new FixedRateQuoter(1n, 1n), thresholds);
    const [toNoble] = await provider.quote(at(evmUsdc, nobleUsdc, 2_000_000n), new AbortController().signal);
    expect(toNoble.expectedAmountOut).toBe(1_998_000n);
    expect(toNoble.legs).toEqual([
      expect.objectContaining({
        kind: 'bridge',
        chain: 'devnet-a',
        tokenOut: { chain: 'noble-devnet', symbol: 'USDC', address: 'uusdc', decimals: 6 },
        spender: hex(5),
        destinationChain: 'noble-devnet',
        destinationBridgeChainId: 4,
        estimatedDurationSeconds: 5,
      }),
    ]);
    const [fromNoble] = await provider.quote(
      at(nobleUsdc, solUsdc, 2_000_000n),
      new AbortController().signal,
    );
    expect(fromNoble.legs).toEqual([
      expect.objectContaining({
        kind: 'bridge',
        chain: 'noble-devnet',
        tokenIn: { chain: 'noble-devnet', symbol: 'USDC', address: 'uusdc', decimals: 6 },
        tokenOut: { chain: 'solana-devnet', symbol: 'USDC', address: MINT, decimals: 6 },
        spender: CCTP_MODULE,
        destinationBridgeChainId: SOLANA_BRIDGE_ID,
      }),
    ]);
    // WETH on the EVM side rides through a Uniswap swap after the bridge.
    const [toWeth] = await provider.quote(at(nobleUsdc, evmWeth, 2_000_000n), new AbortController().signal);
    expect(toWeth.legs.map((leg) => [leg.kind, leg.chain])).toEqual([
      ['bridge', 'noble-devnet'],
      ['swap', 'devnet-a'],
    ]);
  });

  it('bridges Solana USDC to Noble from the vault, the fee kept on deposit, the longer of the two ends’ durations', async () => {
    const provider = new DevnetBridgeProvider(withNoble, new FixedRateQuoter(1n, 1n), thresholds);
    const [toNoble] = await provider.quote(at(solUsdc, nobleUsdc, 2_000_000n), new AbortController().signal);
    expect(toNoble.expectedAmountOut).toBe(1_998_000n);
    expect(toNoble.legs).toEqual([
      expect.objectContaining({
        kind: 'bridge',
        chain: 'solana-devnet',
        tokenIn: { chain: 'solana-devnet', symbol: 'USDC', address: MINT, decimals: 6 },
        tokenOut: { chain: 'noble-devnet', symbol: 'USDC', address: 'uusdc', decimals: 6 },
        spender: solanaDevnetSection.bridge.vault,
        destinationChain: 'noble-devnet',
        destinationBridgeChainId: 4,
        // Solana's figure is 7 s, Noble's 5 s (this fixture's): the larger holds either way.
        estimatedDurationSeconds: 7,
      }),
    ]);
    expect(toNoble.estimatedDurationSeconds).toBe(7);
    // Nothing but the bridged USDC rides from Solana (no swap venue there).
    await expect(
      provider.quote(at(sol, nobleUsdc, 2_000_000n), new AbortController().signal),
    ).rejects.toMatchObject({ reason: 'PAIR_NOT_SUPPORTED' });
  });

  it('serves Noble with the EVM chains and Solana, both ways (its burns name a CCTP domain; a Solana memo names a noble1… account)', () => {
    const provider = new DevnetBridgeProvider(withNoble, new FixedRateQuoter(1n, 1n), thresholds);
    expect(provider.applies(at(nobleUsdc, evmUsdc, 1n))).toBe(true);
    expect(provider.applies(at(evmWeth, nobleUsdc, 1n))).toBe(true);
    expect(provider.applies(at(nobleUsdc, solUsdc, 1n))).toBe(true);
    expect(provider.applies(at(solUsdc, nobleUsdc, 1n))).toBe(true);
    const policy = new SupportPolicy(withNoble, { lifiEnabled: false });
    expect(policy.pairProviders('devnet-a', 'noble-devnet', evmUsdc, nobleUsdc)).toEqual(['devnet-bridge']);
    expect(policy.pairProviders('noble-devnet', 'solana-devnet', nobleUsdc, solUsdc)).toEqual([
      'devnet-bridge',
    ]);
    expect(policy.pairProviders('solana-devnet', 'noble-devnet', solUsdc, nobleUsdc)).toEqual([
      'devnet-bridge',
    ]);
    expect(policy.tokenProviders('noble-devnet', 'USDC')).toContain('devnet-bridge');
  });
});

describe("DevnetBridgeProvider between Noble's CCTP end and the Bitcoin end", () => {
  const bitcoinSection = new ChainRegistry({ manifest }).manifest!;
  const withBoth = new ChainRegistry({
    manifest: {
      ...bitcoinSection,
      bitcoin: {
        id: 'bitcoin-devnet',
        name: 'Bitcoin Devnet',
        family: 'bitcoin',
        network: 'regtest',
        esploraUrl: 'http://127.0.0.1:3',
        nativeSymbol: 'BTC',
        decimals: 8,
        blockMs: 1000,
        accounts: [],
        feeWallets: [],
        bridge: {
          chainId: 20000000000001,
          vault: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
          token: 'USDC',
          usdcPerBtc: 90_000,
          feeBps: 5,
          outboundFeeSats: 1_000,
          estimatedDurationSeconds: 9,
        },
      },
      cosmos: [
        {
          id: 'noble-devnet',
          name: 'Noble Devnet',
          family: 'cosmos',
          chainId: 'noble-devnet',
          rpc: 'http://127.0.0.1:4',
          rest: 'http://127.0.0.1:5',
          bech32Prefix: 'noble',
          nativeDenom: 'uusdc',
          nativeSymbol: 'USDC',
          decimals: 6,
          minGasPrice: '0.1uusdc',
          blockMs: 1000,
          accounts: [],
          ibcChannels: {},
          bridge: {
            chainId: 4,
            token: 'USDC',
            denom: 'uusdc',
            moduleAddress: 'noble12l2w4ugfz4m6dd73yysz477jszqnfughxvkss5',
            estimatedDurationSeconds: 5,
          },
        },
      ],
    },
  });
  const nobleUsdc: QuoteToken = {
    chain: 'noble-devnet',
    symbol: 'USDC',
    address: null,
    mint: 'uusdc',
    decimals: 6,
  };
  const btc: QuoteToken = { chain: 'bitcoin-devnet', symbol: 'BTC', address: null, decimals: 8 };
  const at = contextOn(withBoth);
  const provider = new DevnetBridgeProvider(withBoth, new FixedRateQuoter(1n, 1n), thresholds);

  it("pays BTC for Noble USDC: the bridge's fee on the burn, its price, the outbound fee; the Bitcoin end's duration", async () => {
    const [route] = await provider.quote(at(nobleUsdc, btc, 90_000_000n), new AbortController().signal);
    // 90 USDC less 10 bps = 89.91 USDC = 99,900 sats at 90,000 USDC per BTC, less 1,000 sats.
    expect(route.expectedAmountOut).toBe(98_900n);
    expect(route.legs).toEqual([
      expect.objectContaining({
        kind: 'bridge',
        chain: 'noble-devnet',
        provider: 'devnet-bridge',
        tokenOut: { chain: 'bitcoin-devnet', symbol: 'BTC', address: null, decimals: 8 },
        minAmountOut: '98900',
        spender: 'noble12l2w4ugfz4m6dd73yysz477jszqnfughxvkss5',
        destinationChain: 'bitcoin-devnet',
        destinationBridgeChainId: 20000000000001,
        estimatedDurationSeconds: 9,
      }),
    ]);
    // Under the dust of a payout after its miner fee: the least burn that pays 540 sats.
    await expect(
      provider.quote(at(nobleUsdc, btc, 1_000_000n), new AbortController().signal),
    ).rejects.toMatchObject({
      reason: 'AMOUNT_TOO_LOW',
      bounds: expect.objectContaining({ minAmount: 1_387_387n }),
    });
  });

  it("pays Noble USDC for BTC: at the bridge's price less the Bitcoin end's fee", async () => {
    const [route] = await provider.quote(at(btc, nobleUsdc, 100_000n), new AbortController().signal);
    // 0.001 BTC = 90 USDC, less 5 bps.
    expect(route.expectedAmountOut).toBe(89_955_000n);
    // A deposit under the dust threshold would not relay: the least is 540 sats.
    await expect(
      provider.quote(at(btc, nobleUsdc, 539n), new AbortController().signal),
    ).rejects.toMatchObject({
      reason: 'AMOUNT_TOO_LOW',
      bounds: expect.objectContaining({ minAmount: 540n }),
    });
    expect(route.legs).toEqual([
      expect.objectContaining({
        kind: 'bridge',
        chain: 'bitcoin-devnet',
        tokenIn: { chain: 'bitcoin-devnet', symbol: 'BTC', address: null, decimals: 8 },
        tokenOut: { chain: 'noble-devnet', symbol: 'USDC', address: 'uusdc', decimals: 6 },
        spender: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
        destinationBridgeChainId: 4,
      }),
    ]);
  });

  it('lists BTC ⇄ Noble USDC, and still no BTC with the EVM chain or Solana', () => {
    const policy = new SupportPolicy(withBoth, { lifiEnabled: false });
    expect(policy.pairProviders('noble-devnet', 'bitcoin-devnet', nobleUsdc, btc)).toEqual(['devnet-bridge']);
    expect(policy.pairProviders('bitcoin-devnet', 'noble-devnet', btc, nobleUsdc)).toEqual(['devnet-bridge']);
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, evmUsdc)).toEqual([]);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', evmUsdc, btc)).toEqual([]);
    expect(policy.pairProviders('solana-devnet', 'bitcoin-devnet', solUsdc, btc)).toEqual([]);
    expect(policy.tokenProviders('bitcoin-devnet', 'BTC')).toEqual(['devnet-bridge']);
    for (const request of [
      at(btc, evmUsdc, 100_000n),
      at(evmUsdc, btc, 90_000_000n),
      at(btc, solUsdc, 100_000n),
    ])
      expect(provider.applies(request)).toBe(false);
  });
});
