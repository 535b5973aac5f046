import { Logger } from '@nestjs/common';
import { ManualClock } from '@swapgw/runtime';
import {
  ChainDescriptor,
  ChainRegistry,
  DevnetManifestView,
  SPONSORED_FEE_RECIPIENT_COSTS,
  SponsoredFeeRates,
} from '@swapgw/chains';
import type { RouteGasCoverage, RouteLeg, TokenRef } from '@swapgw/contracts';
import {
  ChainFeeOracle,
  ChainFeeQuote,
  ChainFeeReaders,
  chainsOfLegs,
  gasCoverageOf,
  sponsoredLegViewOf,
} from './gas-coverage';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const GWEI = 1_000_000_000n;

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
  uniswapV2: { factory: hex(3), router: hex(4), initCodeHash: `0x${'ab'.repeat(32)}`, pairs: {} },
  bridge: { address: hex(5), token: 'USDC' },
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
const registry = new ChainRegistry({ manifest, rpcUrls: { ethereum: 'http://127.0.0.1:1' } });

const token = (chain: string, symbol: string, address: string | null, decimals = 18): TokenRef => ({
  chain,
  symbol,
  address,
  decimals,
});
const usdc = (chain: string) => token(chain, 'USDC', chain === 'solana-devnet' ? MINT : hex(1), 6);
const weth = (chain: string) => token(chain, 'WETH', hex(2));

function leg(
  overrides: Partial<RouteLeg> & Pick<RouteLeg, 'kind' | 'chain' | 'tokenIn' | 'tokenOut'>,
): RouteLeg {
  return {
    provider: 'uniswap-v2',
    amountIn: '1000000',
    expectedAmountOut: '1',
    minAmountOut: '1',
    spender: hex(4),
    estimatedDurationSeconds: 5,
    ...overrides,
  };
}

const bridge = (from: string, to: string): RouteLeg =>
  leg({
    kind: 'bridge',
    chain: from,
    provider: 'devnet-bridge',
    tokenIn: usdc(from),
    tokenOut: usdc(to),
    destinationChain: to,
  });

const node = (feePerGas: bigint, tokenAccountRent = 0n): ChainFeeQuote => ({
  feePerGas,
  tokenAccountRent,
  source: 'node',
});

describe('sponsoredLegViewOf', () => {
  it("knows EIP-2612 from the manifest, and a devnet-bridge release as the relayer's", () => {
    expect(
      sponsoredLegViewOf(
        registry,
        leg({ kind: 'swap', chain: 'devnet-a', tokenIn: usdc('devnet-a'), tokenOut: weth('devnet-a') }),
      ),
    ).toMatchObject({
      family: 'evm',
      inputHasEip2612: true,
    });
    expect(
      sponsoredLegViewOf(
        registry,
        leg({ kind: 'swap', chain: 'devnet-a', tokenIn: weth('devnet-a'), tokenOut: usdc('devnet-a') }),
      ),
    ).toMatchObject({
      inputHasEip2612: false,
    });
    expect(sponsoredLegViewOf(registry, bridge('devnet-a', 'solana-devnet'))).toMatchObject({
      destinationChain: 'solana-devnet',
      destinationFamily: 'solana',
      releasedByRelayer: true,
    });
    const lifi = leg({
      kind: 'bridge',
      chain: 'ethereum',
      provider: 'lifi',
      tokenIn: token('ethereum', 'USDC', hex(11), 6),
      tokenOut: token('base', 'USDC', hex(12), 6),
      destinationChain: 'base',
    });
    expect(sponsoredLegViewOf(registry, lifi)).toMatchObject({
      family: 'evm',
      inputHasEip2612: false,
      releasedByRelayer: false,
    });
  });
});

describe('chainsOfLegs', () => {
  it("lists each leg's chain and each bridge destination once", () => {
    expect(
      chainsOfLegs([
        bridge('devnet-a', 'devnet-b'),
        leg({ kind: 'swap', chain: 'devnet-b', tokenIn: usdc('devnet-b'), tokenOut: weth('devnet-b') }),
      ]),
    ).toEqual(['devnet-a', 'devnet-b']);
  });
});

describe('gasCoverageOf', () => {
  it('a same-chain USDC swap: permit + swap intent at the node price, user pays 0', () => {
    const coverage = gasCoverageOf(
      registry,
      [leg({ kind: 'swap', chain: 'devnet-a', tokenIn: usdc('devnet-a'), tokenOut: weth('devnet-a') })],
      new Map([['devnet-a', node(GWEI + GWEI / 2n)]]),
    );
    expect(coverage).toEqual({
      paidBy: 'service',
      userPays: '0',
      chains: [
        {
          chain: 'devnet-a',
          nativeSymbol: 'ETH',
          nativeDecimals: 18,
          estimatedGasUnits: '300000',
          feePerGasBaseUnits: '1500000000',
          feeSource: 'node',
          estimatedCostBaseUnits: '450000000000000',
          estimatedCostFormatted: '0.00045',
          breakdown: [
            { kind: 'permit', leg: 0, estimatedGasUnits: '60000', estimatedCostBaseUnits: '90000000000000' },
            {
              kind: 'swap-intent',
              leg: 0,
              estimatedGasUnits: '240000',
              estimatedCostBaseUnits: '360000000000000',
            },
          ],
        },
      ],
    });
  });

  it('a native ETH input: the user transaction and its top-up, no allowance step', () => {
    const coverage = gasCoverageOf(
      registry,
      [
        leg({
          kind: 'swap',
          chain: 'devnet-a',
          tokenIn: token('devnet-a', 'ETH', null),
          tokenOut: usdc('devnet-a'),
        }),
      ],
      new Map([['devnet-a', node(GWEI)]]),
    );
    expect(coverage.chains[0]).toMatchObject({
      estimatedGasUnits: '171000',
      estimatedCostBaseUnits: (171_000n * GWEI).toString(),
      breakdown: [{ kind: 'native-input-top-up' }],
    });
  });

  it('a bridge then a swap: one entry per chain, each at its own price', () => {
    const coverage = gasCoverageOf(
      registry,
      [
        bridge('devnet-a', 'devnet-b'),
        leg({ kind: 'swap', chain: 'devnet-b', tokenIn: usdc('devnet-b'), tokenOut: weth('devnet-b') }),
      ],
      new Map([
        ['devnet-a', node(GWEI)],
        ['devnet-b', node(2n * GWEI)],
      ]),
    );
    expect(
      coverage.chains.map((c) => [
        c.chain,
        c.estimatedGasUnits,
        c.estimatedCostBaseUnits,
        c.breakdown.map((b) => `${b.leg}:${b.kind}`),
      ]),
    ).toEqual([
      ['devnet-a', '210000', (210_000n * GWEI).toString(), ['0:permit', '0:bridge-intent']],
      [
        'devnet-b',
        '380000',
        (380_000n * 2n * GWEI).toString(),
        ['0:bridge-release', '1:permit', '1:swap-intent'],
      ],
    ]);
  });

  it("EVM → Solana: the release costs one signature and the recipient's token account rent, in lamports", () => {
    const coverage = gasCoverageOf(
      registry,
      [bridge('devnet-a', 'solana-devnet')],
      new Map([
        ['devnet-a', node(GWEI)],
        ['solana-devnet', node(5_000n, 2_039_280n)],
      ]),
    );
    expect(coverage.chains[1]).toEqual({
      chain: 'solana-devnet',
      nativeSymbol: 'SOL',
      nativeDecimals: 9,
      estimatedGasUnits: '1',
      feePerGasBaseUnits: '5000',
      feeSource: 'node',
      estimatedCostBaseUnits: '2044280',
      estimatedCostFormatted: '0.00204',
      breakdown: [
        { kind: 'bridge-release', leg: 0, estimatedGasUnits: '1', estimatedCostBaseUnits: '5000' },
        { kind: 'solana-ata-rent', leg: 0, estimatedGasUnits: '0', estimatedCostBaseUnits: '2039280' },
      ],
    });
  });

  it("counts each integrator fee recipient in the first leg's transaction, at that chain's price", () => {
    const route = [
      bridge('devnet-a', 'devnet-b'),
      leg({ kind: 'swap', chain: 'devnet-b', tokenIn: usdc('devnet-b'), tokenOut: weth('devnet-b') }),
    ];
    const rates = new Map([
      ['devnet-a', node(GWEI)],
      ['devnet-b', node(2n * GWEI)],
    ]);
    const recipients = [hex(21), hex(22)];
    const [none, one, two] = [0, 1, 2].map((n) =>
      gasCoverageOf(registry, route, rates, recipients.slice(0, n)),
    );
    const perRecipient =
      SPONSORED_FEE_RECIPIENT_COSTS.evmTokenTransfer + SPONSORED_FEE_RECIPIENT_COSTS.evmFeePaidEvent;
    // The first fee also has the router approve the venue again for what is left, once.
    const once = SPONSORED_FEE_RECIPIENT_COSTS.evmTokenFeesReapproval;
    const source = (coverage: RouteGasCoverage) => coverage.chains[0];
    const intentOf = (coverage: RouteGasCoverage) =>
      source(coverage).breakdown.find((item) => item.kind === 'bridge-intent')!;
    expect(BigInt(intentOf(none).estimatedGasUnits)).toBe(150_000n);
    expect(BigInt(intentOf(one).estimatedGasUnits) - BigInt(intentOf(none).estimatedGasUnits)).toBe(
      once + perRecipient,
    );
    expect(BigInt(intentOf(two).estimatedGasUnits) - BigInt(intentOf(one).estimatedGasUnits)).toBe(
      perRecipient,
    );
    expect(BigInt(source(two).estimatedGasUnits) - BigInt(source(none).estimatedGasUnits)).toBe(
      once + 2n * perRecipient,
    );
    expect(BigInt(source(two).estimatedCostBaseUnits) - BigInt(source(none).estimatedCostBaseUnits)).toBe(
      (once + 2n * perRecipient) * GWEI,
    );
    // The destination's release and swap pay no fee.
    expect(two.chains[1]).toEqual(none.chains[1]);
  });

  it('a chain whose price was not read is priced with its family fallback and says so', () => {
    const lifi = leg({
      kind: 'bridge',
      chain: 'ethereum',
      provider: 'lifi',
      tokenIn: token('ethereum', 'USDC', hex(11), 6),
      tokenOut: token('solana', 'USDC', MINT, 6),
      destinationChain: 'solana',
    });
    const coverage = gasCoverageOf(registry, [lifi], new Map());
    expect(coverage.chains).toEqual([
      expect.objectContaining({
        chain: 'ethereum',
        feeSource: 'fallback',
        feePerGasBaseUnits: '2000000000',
        estimatedGasUnits: '221000',
        estimatedCostBaseUnits: (221_000n * 2n * GWEI).toString(),
      }),
      expect.objectContaining({
        chain: 'solana',
        nativeSymbol: 'SOL',
        feeSource: 'fallback',
        estimatedGasUnits: '0',
        estimatedCostBaseUnits: '0',
        estimatedCostFormatted: '0',
        breakdown: [],
      }),
    ]);
  });
});

class FakeReaders implements ChainFeeReaders {
  calls: string[] = [];
  evm: (chain: string) => Promise<bigint> = async () => 7n * GWEI;
  rent: (chain: string) => Promise<bigint> = async () => 2_039_280n;
  /** Stands for the family clients' fees(): EVM gas price; Solana fee per signature and rent. */
  async feesOf(chain: ChainDescriptor): Promise<SponsoredFeeRates> {
    this.calls.push(`${chain.family}:${chain.id}`);
    if (chain.family === 'solana') return { feePerGas: 5_000n, tokenAccountRent: await this.rent(chain.id) };
    return { feePerGas: await this.evm(chain.id), tokenAccountRent: 0n };
  }
}

describe('ChainFeeOracle', () => {
  const clock = new ManualClock(0);
  beforeAll(() => Logger.overrideLogger(false)); // the fallback warnings are expected here
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));
  beforeEach(() => (clock.atMs = 1_000_000));

  it('reads the node once per chain within the TTL, concurrent quotes sharing the read', async () => {
    const readers = new FakeReaders();
    const oracle = new ChainFeeOracle(readers, { ttlMs: 10_000, timeoutMs: 100 }, clock);
    const [a, b] = await Promise.all([
      oracle.ratesOf(registry.get('devnet-a')),
      oracle.ratesOf(registry.get('devnet-a')),
    ]);
    expect(a).toEqual({ feePerGas: 7n * GWEI, tokenAccountRent: 0n, source: 'node' });
    expect(b).toBe(a);
    clock.atMs += 9_999;
    await oracle.ratesOf(registry.get('devnet-a'));
    expect(readers.calls).toEqual(['evm:devnet-a']);
    clock.atMs += 1;
    readers.evm = async () => 8n * GWEI;
    expect((await oracle.ratesOf(registry.get('devnet-a'))).feePerGas).toBe(8n * GWEI);
    expect(readers.calls).toEqual(['evm:devnet-a', 'evm:devnet-a']);
  });

  it("reads the rent of a token account from a Solana node; the fee per signature is the protocol's", async () => {
    const readers = new FakeReaders();
    readers.rent = async () => 2_100_000n;
    const oracle = new ChainFeeOracle(readers, { ttlMs: 10_000, timeoutMs: 100 }, clock);
    expect(await oracle.ratesOf(registry.get('solana-devnet'))).toEqual({
      feePerGas: 5_000n,
      tokenAccountRent: 2_100_000n,
      source: 'node',
    });
  });

  it('falls back, without failing, when the node errs, and keeps the fallback for the TTL', async () => {
    const readers = new FakeReaders();
    readers.evm = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:31337');
    };
    const oracle = new ChainFeeOracle(readers, { ttlMs: 10_000, timeoutMs: 100 }, clock);
    expect(await oracle.ratesOf(registry.get('devnet-a'))).toEqual({
      feePerGas: 2n * GWEI,
      tokenAccountRent: 0n,
      source: 'fallback',
      reason: 'connect ECONNREFUSED 127.0.0.1:31337',
    });
    await oracle.ratesOf(registry.get('devnet-a'));
    expect(readers.calls).toHaveLength(1);
  });

  it('falls back when the node does not answer in time', async () => {
    const readers = new FakeReaders();
    readers.evm = () => new Promise<bigint>(() => undefined);
    readers.rent = () => new Promise<bigint>(() => undefined);
    const oracle = new ChainFeeOracle(readers, { ttlMs: 10_000, timeoutMs: 20 }, clock);
    expect(await oracle.ratesOf(registry.get('devnet-b'))).toMatchObject({
      source: 'fallback',
      feePerGas: 2n * GWEI,
      reason: expect.stringContaining('no answer within 20 ms'),
    });
    expect(await oracle.ratesOf(registry.get('solana-devnet'))).toMatchObject({
      source: 'fallback',
      feePerGas: 5_000n,
      tokenAccountRent: 2_039_280n,
    });
  });

  it('does not ask for a chain without an RPC configured: the family fallback', async () => {
    const readers = new FakeReaders();
    const oracle = new ChainFeeOracle(readers, { ttlMs: 10_000, timeoutMs: 100 }, clock);
    expect(await oracle.ratesOf(registry.get('base'))).toMatchObject({
      source: 'fallback',
      feePerGas: 2n * GWEI,
      reason: 'no RPC configured (RPC_URL_BASE)',
    });
    expect(await oracle.ratesOf(registry.get('solana'))).toMatchObject({
      source: 'fallback',
      feePerGas: 5_000n,
      tokenAccountRent: 2_039_280n,
    });
    expect(await oracle.ratesOf(registry.get('ethereum'))).toMatchObject({ source: 'node' });
    expect(readers.calls).toEqual(['evm:ethereum']);
  });
});
