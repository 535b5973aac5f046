import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Keypair } from '@solana/web3.js';
import { Contract, JsonRpcProvider, parseUnits, Wallet } from 'ethers';
import { api, ApiClient, createApiKey, repoRoot, testEnv } from '@swapgw/testing';
import { devnetManifest } from './support/devnet-evm';
import { connectE2eApi, E2eApi } from './support/e2e-api';
import type { FeeRoute } from './support/swap-steps';

// POST /quote with an integrator fee through the running stack (gateway → quote-service → devnet
// pools): the fee comes out of the input on the source chain, each route reports it, and its
// amounts out are what the pools give for the input minus the fee. A key's default fee is set with
// the keys CLI, as an operator does.
const manifest = devnetManifest();
const devnetA = manifest.chains.find((c) => c.id === 'devnet-a')!;
const execFileAsync = promisify(execFile);

const feeRecipient = Wallet.createRandom().address;
const secondRecipient = Wallet.createRandom().address;
const solanaRecipient = Keypair.generate().publicKey.toBase58();
const usdcToWeth = {
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: 'USDC',
  tokenOut: 'WETH',
  amount: '25',
};

/** The keys CLI, as `npm run keys -- <args>` runs it. */
async function keysCli(args: string[]): Promise<string> {
  const cli = path.join(repoRoot, 'dist', 'apps', 'gateway', 'src', 'cli', 'keys.js');
  const { stdout } = await execFileAsync(process.execPath, [cli, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnv().env },
    timeout: 60_000,
  });
  return stdout;
}

describe('POST /quote integratorFee', () => {
  let e2e: E2eApi;
  let provider: JsonRpcProvider;
  let router: Contract;

  beforeAll(async () => {
    e2e = await connectE2eApi('quote-fee-e2e');
    provider = new JsonRpcProvider(devnetA.rpcUrl, devnetA.chainId, { staticNetwork: true });
    router = new Contract(
      devnetA.uniswapV2.router,
      ['function getAmountsOut(uint, address[]) view returns (uint[])'],
      provider,
    );
  });

  afterAll(() => provider.destroy());

  /** What the devnet pool gives now for `amountIn` base units of USDC, in WETH base units. */
  async function poolOut(amountIn: bigint): Promise<bigint> {
    const amounts = (await router.getAmountsOut(amountIn, [
      devnetA.tokens.USDC.address,
      devnetA.tokens.WETH.address,
    ])) as bigint[];
    return amounts[1];
  }

  async function quote(client: ApiClient, body: Record<string, unknown>): Promise<FeeRoute[]> {
    const res = e2e.documented('POST', '/quote', await client.post('/quote', body));
    expect(res.status).toBe(200);
    return res.body.data.routes as FeeRoute[];
  }

  /** The uniswap-v2 route's expectedAmountOut is what the pool gives for `netIn` (tiny drift allowed: other suites trade). */
  async function expectQuotedFor(route: FeeRoute, netIn: bigint): Promise<void> {
    const direct = await poolOut(netIn);
    const quoted = parseUnits(route.expectedAmountOut, 18);
    const diff = quoted > direct ? quoted - direct : direct - quoted;
    expect(diff * 1000n).toBeLessThanOrEqual(direct);
    expect(parseUnits(route.minAmountOut, 18)).toBe((quoted * BigInt(10_000 - route.slippageBps)) / 10_000n);
  }

  it('takes one { bps, recipient } from the input: each route reports it, its amounts out net of it', async () => {
    const routes = await quote(e2e.client, {
      ...usdcToWeth,
      slippageBps: 50,
      integratorFee: { bps: 50, recipient: feeRecipient },
    });
    expect(routes.length).toBeGreaterThanOrEqual(1);
    for (const route of routes) {
      expect(route.amountIn).toBe('25');
      expect(route.integratorFee).toEqual([
        { bps: 50, amount: '0.125', token: 'USDC', chain: 'devnet-a', recipient: feeRecipient },
      ]);
    }
    const v2 = routes.find((route) => route.provider === 'uniswap-v2')!;
    expect(v2).toBeDefined();
    // 25 USDC − 0.125 USDC fee = 24.875 USDC swapped.
    await expectQuotedFor(v2, 24_875_000n);
    // Without a fee every route says so, and the same pool gives more for the whole 25.
    const withoutFee = await quote(e2e.client, { ...usdcToWeth, slippageBps: 50 });
    for (const route of withoutFee) expect(route.integratorFee).toEqual([]);
    const v2WithoutFee = withoutFee.find((route) => route.provider === 'uniswap-v2')!;
    await expectQuotedFor(v2WithoutFee, 25_000_000n);
    expect(parseUnits(v2WithoutFee.expectedAmountOut, 18)).toBeGreaterThan(
      parseUnits(v2.expectedAmountOut, 18),
    );
  });

  it('splits the fee between several recipients, their bps summed', async () => {
    const routes = await quote(e2e.client, {
      ...usdcToWeth,
      integratorFee: [
        { bps: 200, recipient: feeRecipient },
        { bps: 100, recipient: secondRecipient },
      ],
    });
    const v2 = routes.find((route) => route.provider === 'uniswap-v2')!;
    expect(v2.integratorFee).toEqual([
      { bps: 200, amount: '0.5', token: 'USDC', chain: 'devnet-a', recipient: feeRecipient },
      { bps: 100, amount: '0.25', token: 'USDC', chain: 'devnet-a', recipient: secondRecipient },
    ]);
    await expectQuotedFor(v2, 24_250_000n);
  });

  it.each([
    [
      'over 300 bps together',
      [
        { bps: 200, recipient: feeRecipient },
        { bps: 101, recipient: secondRecipient },
      ],
      'VALIDATION_FAILED',
    ],
    ['over 300 bps', { bps: 301, recipient: feeRecipient }, 'VALIDATION_FAILED'],
    [
      'six recipients',
      Array.from({ length: 6 }, () => ({ bps: 1, recipient: feeRecipient })),
      'VALIDATION_FAILED',
    ],
    ['a recipient of another chain', { bps: 10, recipient: solanaRecipient }, 'INVALID_ADDRESS'],
    // A bare name is a THORName (paid by THORChain routes only); this is neither.
    ['a recipient that is no address', { bps: 10, recipient: 'integrator@example.com' }, 'VALIDATION_FAILED'],
    ['a mistyped EVM address', { bps: 10, recipient: '0x1234' }, 'VALIDATION_FAILED'],
  ])('refuses %s', async (_name, integratorFee, code) => {
    const res = e2e.documented(
      'POST',
      '/quote',
      await e2e.client.post('/quote', { ...usdcToWeth, integratorFee }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
  });

  it("applies the API key's default fee (keys set-fee) to quotes without one; a request's own value wins", async () => {
    const key = await createApiKey(`quote-fee-default-${Date.now()}`);
    const prefix = key.slice('sgw_'.length, 'sgw_'.length + 8);
    // One recipient per family: a quote from devnet-a keeps the EVM one.
    const set = await keysCli(['set-fee', prefix, `30:${feeRecipient},20:${solanaRecipient}`]);
    expect(set).toContain(`${prefix}: default integrator fee 30:${feeRecipient},20:${solanaRecipient}`);
    expect(await keysCli(['list'])).toMatch(
      new RegExp(`${prefix}.*30:${feeRecipient},20:${solanaRecipient}`),
    );
    const client = api(process.env.GATEWAY_URL!, key);

    const byDefault = await quote(client, usdcToWeth);
    const v2 = byDefault.find((route) => route.provider === 'uniswap-v2')!;
    expect(v2.integratorFee).toEqual([
      { bps: 30, amount: '0.075', token: 'USDC', chain: 'devnet-a', recipient: feeRecipient },
    ]);
    await expectQuotedFor(v2, 24_925_000n);

    const own = await quote(client, {
      ...usdcToWeth,
      integratorFee: { bps: 10, recipient: secondRecipient },
    });
    expect(own[0].integratorFee).toEqual([
      { bps: 10, amount: '0.025', token: 'USDC', chain: 'devnet-a', recipient: secondRecipient },
    ]);
    const none = await quote(client, { ...usdcToWeth, integratorFee: [] });
    for (const route of none) expect(route.integratorFee).toEqual([]);
  });
});
