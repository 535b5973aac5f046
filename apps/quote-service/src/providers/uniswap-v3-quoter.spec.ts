import { ChainRegistry } from '@swapgw/chains';
import { BlockScopedEvmProvider, type ChainFamilies } from '@swapgw/chains/families';
import { getAddress, JsonRpcPayload, JsonRpcProvider, JsonRpcResult, Network, toQuantity } from 'ethers';
import { ManualClock } from '@swapgw/runtime';
import type { QuoteToken } from './quote-provider';
import {
  QUOTER_V2_INTERFACE,
  UniswapV3Quoter,
  V3_NO_POOL_TTL_MS,
  V3_POOL_INTERFACE,
  V3PathQuote,
} from './uniswap-v3-quoter';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const BASE_WETH = '0x4200000000000000000000000000000000000006';
const usdc: QuoteToken = { chain: 'base', symbol: 'USDC', address: BASE_USDC, decimals: 6 };
const weth: QuoteToken = { chain: 'base', symbol: 'WETH', address: BASE_WETH, decimals: 18 };

const BASE = Network.from(8453);

/** WETH (token0 on base) at 3000 USDC: sqrt(3000e6 / 1e18) × 2^96. */
const SQRT_PRICE_3000 = 4339505179874779489431521n;

/**
 * Base's node behind the provider quote-service reads it through (BlockScopedEvmProvider, which
 * shares a block's reads between quotes): the head is `head`, and eth_call about the USDC/WETH pools
 * answers slot0 and liquidity of the pools `deploy` put there ('0x' elsewhere: no code), QuoterV2 at
 * 3000 USDC per WETH less the tier's fee. Each answer comes a turn of the event loop later, as over
 * a socket, so concurrent quotes overlap; every eth_call is counted by address and function.
 */
class FakeBaseNode extends BlockScopedEvmProvider {
  readonly calls = new Map<string, number>();
  private readonly pools = new Map<string, number>();
  failing = false;
  head = 30_000_000;

  constructor(private readonly quoterV2: string) {
    super('base', 'http://127.0.0.1:1', BASE, { staticNetwork: BASE, batchMaxCount: 1 });
  }

  deploy(pool: string, fee: number): void {
    this.pools.set(getAddress(pool), fee);
  }

  count(to: string, fn: 'slot0' | 'liquidity' | 'quoteExactInputSingle'): number {
    return this.calls.get(`${getAddress(to)}.${fn}`) ?? 0;
  }

  get total(): number {
    return [...this.calls.values()].reduce((sum, n) => sum + n, 0);
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const requests = Array.isArray(payload) ? payload : [payload];
    await new Promise((resolve) => setImmediate(resolve));
    return requests.map((request) => {
      if (request.method === 'eth_blockNumber') return { id: request.id, result: toQuantity(this.head) };
      const [tx] = request.params as [{ to: string; data: string }];
      return { id: request.id, result: this.answerCall(tx.to, tx.data) };
    });
  }

  private answerCall(address: string, data: string): string {
    const to = getAddress(address);
    const fn =
      to === this.quoterV2
        ? QUOTER_V2_INTERFACE.parseTransaction({ data })!
        : V3_POOL_INTERFACE.parseTransaction({ data })!;
    this.calls.set(`${to}.${fn.name}`, (this.calls.get(`${to}.${fn.name}`) ?? 0) + 1);
    if (this.failing) throw new Error('connection refused');
    if (to === this.quoterV2) {
      const [[, , amountIn, fee]] = fn.args as unknown as [[string, string, bigint, bigint]];
      const amountOut = (amountIn * 10n ** 12n * (1_000_000n - fee)) / 3000n / 1_000_000n;
      return QUOTER_V2_INTERFACE.encodeFunctionResult('quoteExactInputSingle', [
        amountOut,
        SQRT_PRICE_3000,
        1,
        90_000,
      ]);
    }
    if (!this.pools.has(to)) return '0x';
    return fn.name === 'slot0'
      ? V3_POOL_INTERFACE.encodeFunctionResult('slot0', [SQRT_PRICE_3000, 0, 0, 1, 1, 0, true])
      : V3_POOL_INTERFACE.encodeFunctionResult('liquidity', [10n ** 24n]);
  }
}

describe('UniswapV3Quoter reads', () => {
  let clock: ManualClock;
  let node: FakeBaseNode;
  let quoter: UniswapV3Quoter;
  let pools: Record<number, string>;
  const controller = new AbortController();
  const quote = (amount = 1_000_000_000n, signal = controller.signal): Promise<V3PathQuote[]> =>
    quoter.quotePaths('base', usdc, weth, amount, signal);

  beforeEach(() => {
    clock = new ManualClock(1_795_000_000_000);
    const registry = new ChainRegistry({ rpcUrls: { base: 'http://127.0.0.1:1' } });
    const deployment = registry.deployments('base')!.uniswapV3!;
    node = new FakeBaseNode(getAddress(deployment.quoterV2));
    const families: Pick<ChainFamilies, 'evmProvider'> = {
      evmProvider: () => node as unknown as JsonRpcProvider,
    };
    quoter = new UniswapV3Quoter(registry, families as ChainFamilies, clock);
    const v3 = quoter.deployment('base')!;
    pools = Object.fromEntries(
      v3.feeTiers.map((fee) => [fee, quoter.poolAddress(v3, BASE_USDC, BASE_WETH, fee)]),
    );
    node.deploy(pools[500], 500);
    node.deploy(pools[3000], 3000);
  });

  afterEach(() => {
    node.destroy();
    jest.restoreAllMocks();
  });

  it('N concurrent quotes of one pair read each pool once and ask QuoterV2 once per live pool', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => quote()));

    expect(answers[0].map((q) => q.fees)).toEqual([[500], [3000]]);
    expect(answers[0][0].amountOut).toBe((10n ** 21n * 999_500n) / 3000n / 1_000_000n);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    for (const fee of [100, 500, 3000, 10_000]) {
      expect(node.count(pools[fee], 'slot0')).toBe(1);
      expect(node.count(pools[fee], 'liquidity')).toBe(1);
    }
    const quoterV2 = quoter.deployment('base')!.quoterV2;
    expect(node.count(quoterV2, 'quoteExactInputSingle')).toBe(2);
    // Without sharing: 8 × (4 tiers × 2 reads + 2 quotes).
    expect(node.total).toBe(10);
  });

  it('shares QuoterV2 only between quotes of the same amount', async () => {
    await Promise.all([quote(1_000_000_000n), quote(1_000_000_000n), quote(2_000_000_000n)]);
    expect(node.count(quoter.deployment('base')!.quoterV2, 'quoteExactInputSingle')).toBe(4);
    expect(node.count(pools[500], 'slot0')).toBe(1);
  });

  it('reads nothing again for a later quote of the same block', async () => {
    await quote();
    const total = node.total;
    expect((await quote()).map((q) => q.fees)).toEqual([[500], [3000]]);
    expect(node.total).toBe(total);
  });

  it('reads the live pools again at the next block, not the tiers without a pool until the TTL passed; a pool created since is then quoted', async () => {
    await quote();
    node.head += 1;
    await quote();
    expect(node.count(pools[500], 'slot0')).toBe(2);
    expect(node.count(pools[100], 'slot0')).toBe(1);

    node.deploy(pools[100], 100);
    node.head += 1;
    clock.atMs += V3_NO_POOL_TTL_MS - 1;
    expect((await quote()).map((q) => q.fees)).toEqual([[500], [3000]]);
    expect(node.count(pools[100], 'slot0')).toBe(1);

    clock.atMs += 1;
    node.head += 1;
    expect((await quote()).map((q) => q.fees)).toEqual([[100], [500], [3000]]);
    expect(node.count(pools[100], 'slot0')).toBe(2);
    expect(node.count(pools[10_000], 'slot0')).toBe(2);
  });

  it('hands an RPC failure to every quote that shared the read, remembers nothing of it, and asks again next time', async () => {
    node.failing = true;
    const failed = await Promise.allSettled([quote(), quote()]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(node.count(pools[100], 'slot0')).toBe(1);

    node.failing = false;
    // Same block: a failure is no answer of the block, so it is asked again.
    expect((await quote()).map((q) => q.fees)).toEqual([[500], [3000]]);
    expect(node.count(pools[100], 'slot0')).toBe(2);
  });

  it('one quote giving up does not abort the read the others share', async () => {
    const impatient = new AbortController();
    const given = quote(1_000_000_000n, impatient.signal);
    const other = quote();
    impatient.abort(new Error('deadline'));
    await expect(given).rejects.toThrow('deadline');
    expect((await other).map((q) => q.fees)).toEqual([[500], [3000]]);
    expect(node.count(pools[500], 'slot0')).toBe(1);
  });
});
