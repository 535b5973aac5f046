import { randomUUID } from 'node:crypto';
import { Contract, ContractRunner, JsonRpcProvider, parseUnits, Transaction, Wallet } from 'ethers';
import { devnetChain, devnetWallet, DevnetManifest, loadDevnetManifest } from '@swapgw/devnet';
import {
  ApiError,
  BuildSwapRequest,
  createGatewayClient,
  GatewayClient,
  Middleware,
  QuoteRequest,
  SigningReady,
  SubmittedSigning,
} from '@swapgw/sdk';
import { createApiKey, testEnv, waitFor } from '@swapgw/testing';
import { OpenApiValidator } from './support/openapi-validator';

// A wallet's whole swap through @swapgw/sdk (the client typed from the OpenAPI document) on the
// devnet, with no raw HTTP and no cast: quote → build → sign each payload with ethers → submit →
// poll until done → read the swap. Every answer also passes the strict check of the served document.

/** What the middleware below saw: how many answers it checked, and every mismatch. */
interface Answers {
  checked: number;
  problems: string[];
}

/**
 * A middleware that fails the request when its answer is not what the served document promises
 * (strict JSON Schema 2020-12), and records the mismatch: a poll retried by waitFor cannot hide it.
 */
function documentedAnswers(openApi: OpenApiValidator, answers: Answers): Middleware {
  return {
    async onResponse({ request, response }) {
      const body: unknown = await response.clone().json();
      const path = new URL(request.url).pathname;
      answers.checked += 1;
      const { valid, problems } = openApi.check(request.method, path, response.status, body);
      if (valid) return;
      answers.problems.push(
        ...problems.map((problem) => `${request.method} ${path} ${response.status}: ${problem}`),
      );
      throw new Error(`${request.method} ${path} ${response.status} does not match the OpenAPI document`);
    },
  };
}

/** The body of a success; an error answer fails the test with its code. */
function dataOf<R extends { data?: unknown; error?: { error: ApiError } }>(
  result: R,
): NonNullable<R['data']> {
  const { data, error } = result;
  if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
  if (data === undefined || data === null) throw new Error('a success without a body');
  return data;
}

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
];

describe('the typed client (@swapgw/sdk): whole swaps on the devnet', () => {
  let manifest: DevnetManifest;
  let client: GatewayClient;
  /** The second gateway instance when the stack runs two: polls go there, so either instance must answer. */
  let poller: GatewayClient;
  const answers: Answers = { checked: 0, problems: [] };
  const providers = new Map<string, JsonRpcProvider>();

  const providerOf = (chain: string): JsonRpcProvider => {
    let provider = providers.get(chain);
    if (!provider) {
      const { rpcUrl, chainId } = devnetChain(manifest, chain);
      provider = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: true, cacheTimeout: -1 });
      providers.set(chain, provider);
    }
    return provider;
  };
  const token = (chain: string, symbol: string, runner: ContractRunner = providerOf(chain)) =>
    new Contract(devnetChain(manifest, chain).tokens[symbol].address, ERC20, runner);
  const balanceOf = async (chain: string, symbol: string, holder: string): Promise<bigint> =>
    BigInt(await token(chain, symbol).getFunction('balanceOf')(holder));

  /**
   * A wallet of its own (no nonce or allowance shared with other suites): ETH on every chain it
   * signs on (anvil_setBalance), `amount` of `symbol` from account 6 (e2e files run one at a time).
   */
  async function freshWallet(
    chain: string,
    symbol: string,
    amount: bigint,
    gasOn: string[],
  ): Promise<Wallet> {
    const wallet = new Wallet(Wallet.createRandom().privateKey);
    for (const gasChain of gasOn)
      await providerOf(gasChain).send('anvil_setBalance', [wallet.address, '0x8AC7230489E80000']);
    const funder = devnetWallet(manifest.mnemonic, 6, providerOf(chain));
    await (await token(chain, symbol, funder).getFunction('transfer')(wallet.address, amount)).wait();
    return wallet;
  }

  beforeAll(async () => {
    const baseUrl = process.env.GATEWAY_URL;
    if (!baseUrl)
      throw new Error('GATEWAY_URL is not set: run through the e2e project (global setup starts the stack)');
    manifest = loadDevnetManifest(testEnv().devnetManifest);
    const apiKey = await createApiKey(`sdk-e2e-${randomUUID().slice(0, 8)}`);
    const documented = documentedAnswers(await OpenApiValidator.fetch(baseUrl), answers);
    const pollUrl = (process.env.GATEWAY_URLS ?? '').split(',').filter(Boolean)[1] ?? baseUrl;
    client = createGatewayClient({ baseUrl, apiKey });
    poller = createGatewayClient({ baseUrl: pollUrl, apiKey });
    client.use(documented);
    poller.use(documented);
  });

  afterEach(() => expect(answers.problems).toEqual([]));

  afterAll(() => {
    for (const provider of providers.values()) provider.destroy();
  });

  /** GET /swap/{swapId}/signing until step `afterStep + 1` is signable (its payload) or the swap ended (null). */
  async function nextPayload(swapId: string, afterStep: number): Promise<SigningReady | null> {
    const next = await waitFor(
      async (): Promise<{ ready: SigningReady } | { ended: ApiError } | null> => {
        const { data, error } = await poller.GET('/swap/{swapId}/signing', { params: { path: { swapId } } });
        if (error) {
          expect(error.error.code).toBe('EXECUTION_TERMINAL');
          return { ended: error.error };
        }
        return data.data.mode === 'sync' && data.data.signing.step.current > afterStep
          ? { ready: data.data }
          : null;
      },
      {
        timeoutMs: 120_000,
        intervalMs: 300,
        description: `swap ${swapId} to offer step ${afterStep + 1} or end`,
      },
    );
    if ('ready' in next) return next.ready;
    expect(next.ended.details).toMatchObject({ status: 'completed' });
    return null;
  }

  /** Quote, build (Idempotency-Key), then sign and submit every step with `wallet`; returns what was submitted. */
  async function swap(wallet: Wallet, terms: QuoteRequest) {
    const quote = dataOf(await client.POST('/quote', { body: terms })).data;
    const [route] = quote.routes;
    expect(route).toBeDefined();

    const idempotencyKey = `sdk-${randomUUID()}`;
    const build: BuildSwapRequest = {
      quoteId: quote.quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
    };
    const built = dataOf(
      await client.POST('/swap/build', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: build,
      }),
    ).data;
    // A retried build (same key, same body) is the same swap.
    const retried = dataOf(
      await client.POST('/swap/build', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: build,
      }),
    ).data;
    expect(retried.swapId).toBe(built.swapId);
    const { swapId } = built;

    const submitted: SubmittedSigning[] = [];
    for (
      let ready = await nextPayload(swapId, 0);
      ready;
      ready = await nextPayload(swapId, ready.signing.step.current)
    ) {
      const { payload } = ready.signing;
      if (payload.type !== 'evm-transaction') throw new Error(`a user-paid EVM build offers ${payload.type}`);
      const rawTx = await wallet.signTransaction({
        ...payload.transaction,
        nonce: Number(payload.transaction.nonce),
      });
      const sent = dataOf(
        await client.POST('/swap/{swapId}/signing', { params: { path: { swapId } }, body: { rawTx } }),
      ).data;
      expect(sent).toMatchObject({
        swapId,
        status: 'submitted',
        step: ready.signing.step,
        txHash: Transaction.from(rawTx).hash,
      });
      submitted.push(sent);
    }

    const read = dataOf(await poller.GET('/swap/{swapId}', { params: { path: { swapId } } })).data;
    expect(read).toMatchObject({ swapId, status: 'completed', failure: null });
    expect(read.steps.map((step) => [step.status, step.txHash])).toEqual(
      submitted.map((s) => ['confirmed', s.txHash]),
    );
    return { route, submitted };
  }

  it('lists the chains, the answer checked against the document', async () => {
    const checked = answers.checked;
    const { chains } = dataOf(await client.GET('/chains')).data;
    expect(chains.map((chain) => chain.id)).toEqual(expect.arrayContaining(['devnet-a', 'devnet-b']));
    expect(answers.checked).toBe(checked + 1);
  });

  it('same chain: approve then swap USDC → WETH', async () => {
    const wallet = await freshWallet('devnet-a', 'USDC', 25_000_000n, ['devnet-a']);
    const wethBefore = await balanceOf('devnet-a', 'WETH', wallet.address);

    const { route, submitted } = await swap(wallet, {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '25',
      slippageBps: 100,
    });

    expect(submitted.map(({ step }) => `${step.current}/${step.total}`)).toEqual(['1/2', '2/2']);
    expect(await balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    const wethGained = (await balanceOf('devnet-a', 'WETH', wallet.address)) - wethBefore;
    // The route's amounts are in units of the token; its decimals turn them into base units.
    expect(route.tokenOutDecimals).toBe(18);
    expect(wethGained).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, route.tokenOutDecimals));
  });

  it('cross chain: USDC on devnet-a → DAI on devnet-b, over the bridge', async () => {
    const wallet = await freshWallet('devnet-a', 'USDC', 40_000_000n, ['devnet-a', 'devnet-b']);

    const { route, submitted } = await swap(wallet, {
      fromChain: 'devnet-a',
      toChain: 'devnet-b',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '40',
      slippageBps: 100,
    });

    expect(submitted.map(({ step }) => `${step.current}/${step.total}`)).toEqual([
      '1/4',
      '2/4',
      '3/4',
      '4/4',
    ]);
    expect(await balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    const daiGained = await balanceOf('devnet-b', 'DAI', wallet.address);
    expect(daiGained).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, route.tokenOutDecimals));
  });

  it('answers an unknown chain with a typed error body', async () => {
    const { data, error, response } = await client.POST('/quote', {
      body: {
        fromChain: 'no-such-chain',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '1',
      },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error?.error.code).toBe('UNKNOWN_CHAIN');

    const unknownSwap = await client.GET('/swap/{swapId}', { params: { path: { swapId: randomUUID() } } });
    expect(unknownSwap.response.status).toBe(404);
    expect(unknownSwap.error?.error.code).toBe('SWAP_NOT_FOUND');
  });
});
