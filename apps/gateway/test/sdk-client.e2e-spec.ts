import { randomUUID } from 'node:crypto';
import { Contract, ContractRunner, JsonRpcProvider, parseUnits, Wallet } from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';
import { devnetChain, devnetWallet, DevnetManifest, loadDevnetManifest } from '@swapgw/devnet';
import {
  ApiError,
  createGatewayClient,
  ethersSigner,
  GatewayApiError,
  GatewayClient,
  Middleware,
  QuoteRequest,
  runSwap,
  RunSwapEvent,
  swapEvents,
  SwapSigner,
  SwapStreamEvent,
  viemSigner,
} from '@swapgw/sdk';
import { createApiKey, e2eGatewayPair, e2eGatewayUrl, testEnv } from '@swapgw/testing';
import { OpenApiValidator } from './support/openapi-validator';

// A wallet's whole swap through @swapgw/sdk on the devnet, with no raw HTTP: runSwap (quote → build →
// poll the signing endpoint → sign each payload with an ethers Wallet or a viem LocalAccount → submit
// → follow to the end), the swap's live events read by swapEvents alongside, the balances on chain.
// The client's GETs go to the second gateway instance (builds and submissions to the first), and
// every answer also passes the strict check of the served document.

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
  /** Builds and submissions to the first gateway instance, GETs (polls, reads) to the second when the stack runs two. */
  let splitClient: GatewayClient;
  let baseUrl: string;
  let apiKey: string;
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
    // http://127.0.0.1:<port>/api/v1
    const gatewayUrl = e2eGatewayUrl();
    baseUrl = gatewayUrl;
    manifest = loadDevnetManifest(testEnv().devnetManifest);
    apiKey = await createApiKey(`sdk-e2e-${randomUUID().slice(0, 8)}`);
    const documented = documentedAnswers(await OpenApiValidator.fetch(gatewayUrl), answers);
    const [, pollUrl] = e2eGatewayPair();
    client = createGatewayClient({ baseUrl, apiKey });
    splitClient = createGatewayClient({
      baseUrl,
      apiKey,
      fetch: (request: Request) =>
        fetch(
          request.method === 'GET' ? new Request(request.url.replace(baseUrl, pollUrl), request) : request,
        ),
    });
    client.use(documented);
    splitClient.use(documented);
  });

  afterEach(() => expect(answers.problems).toEqual([]));

  afterAll(() => {
    for (const provider of providers.values()) provider.destroy();
  });

  /**
   * runSwap with `signer` for `wallet`, user-paid, the swap's events read by swapEvents from its
   * build to its end; checks what a wallet would: the swap completed, each step confirmed with the
   * transaction submitted for it, the events in order and ending with swap.completed, and a retried
   * build (same Idempotency-Key) is the same swap.
   */
  async function swap(walletAddress: string, signer: SwapSigner, terms: QuoteRequest) {
    const seen: RunSwapEvent[] = [];
    let streamed: Promise<SwapStreamEvent[]> | undefined;
    const idempotencyKey = `sdk-${randomUUID()}`;
    const result = await runSwap({
      client: splitClient,
      quoteRequest: terms,
      userAddress: walletAddress,
      build: { gasPayment: 'user' },
      signers: [signer],
      idempotencyKey,
      timeoutMs: 180_000,
      onEvent: (event) => {
        seen.push(event);
        if (event.type === 'built') {
          streamed = (async () => {
            const events: SwapStreamEvent[] = [];
            for await (const e of swapEvents({ baseUrl, apiKey, swapId: event.swapId })) events.push(e);
            return events;
          })();
        }
      },
    });
    const { swapId, swap: read, submitted } = result;
    expect(read).toMatchObject({ swapId, status: 'completed', failure: null });
    expect(read.steps.map((step) => [step.status, step.txHash])).toEqual(
      submitted.map((s) => ['confirmed', s.txHash]),
    );
    // Each submission answered for the step it signed; an evm-transaction's hash is its rawTx's.
    const signing = seen.filter((e) => e.type === 'signing');
    expect(signing.map((e) => e.step)).toEqual(submitted.map((s) => s.step));
    expect(seen.map((e) => e.type)[0]).toBe('quoted');
    expect(seen.at(-1)).toEqual({ type: 'finished', swap: read });

    const retried = await client.POST('/swap/build', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: {
        quoteId: (seen[0] as Extract<RunSwapEvent, { type: 'quoted' }>).quote.quoteId,
        routeId: (seen[0] as Extract<RunSwapEvent, { type: 'quoted' }>).route.routeId,
        userAddress: walletAddress,
        gasPayment: 'user',
      },
    });
    expect(retried.data?.data.swapId).toBe(swapId);

    const events = await streamed!;
    expect(events.at(-1)).toMatchObject({ event: 'swap.completed', data: { swapId, status: 'completed' } });
    expect(events.filter((e) => e.event === 'swap.signing-ready')).toHaveLength(submitted.length);
    const ids = events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const route = (seen[0] as Extract<RunSwapEvent, { type: 'quoted' }>).route;
    return { route, submitted };
  }

  it('lists the chains, the answer checked against the document', async () => {
    const checked = answers.checked;
    const { chains } = dataOf(await client.GET('/chains')).data;
    expect(chains.map((chain) => chain.id)).toEqual(expect.arrayContaining(['devnet-a', 'devnet-b']));
    expect(answers.checked).toBe(checked + 1);
  });

  it('same chain with an ethers Wallet: approve then swap USDC → WETH', async () => {
    const wallet = await freshWallet('devnet-a', 'USDC', 25_000_000n, ['devnet-a']);
    const wethBefore = await balanceOf('devnet-a', 'WETH', wallet.address);

    const { route, submitted } = await swap(wallet.address, ethersSigner(wallet), {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '25',
      slippageBps: 100,
    });

    expect(submitted.map(({ step }) => `${step.current}/${step.total}`)).toEqual(['1/2', '2/2']);
    // The transactions on chain are the wallet's, signed by ethers with the payload's nonces (0, 1).
    const mined = await Promise.all(
      submitted.map(({ txHash }) => providerOf('devnet-a').getTransaction(txHash)),
    );
    expect(mined.map((tx) => [tx?.from, tx?.nonce])).toEqual([
      [wallet.address, 0],
      [wallet.address, 1],
    ]);
    expect(await balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    const wethGained = (await balanceOf('devnet-a', 'WETH', wallet.address)) - wethBefore;
    // The route's amounts are in units of the token; its decimals turn them into base units.
    expect(route.tokenOutDecimals).toBe(18);
    expect(wethGained).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, route.tokenOutDecimals));
  });

  it('cross chain with a viem LocalAccount: USDC on devnet-a → DAI on devnet-b, over the bridge', async () => {
    const wallet = await freshWallet('devnet-a', 'USDC', 40_000_000n, ['devnet-a', 'devnet-b']);
    const account = privateKeyToAccount(wallet.privateKey as `0x${string}`);

    const { route, submitted } = await swap(account.address, viemSigner(account), {
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

    // runSwap throws the gateway's error, code and status included.
    const thrown = await runSwap({
      client,
      quoteRequest: {
        fromChain: 'no-such-chain',
        toChain: 'devnet-a',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '1',
      },
      userAddress: Wallet.createRandom().address,
      signers: [],
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(GatewayApiError);
    expect(thrown).toMatchObject({ status: 400, code: 'UNKNOWN_CHAIN' });

    const unknownSwap = await client.GET('/swap/{swapId}', { params: { path: { swapId: randomUUID() } } });
    expect(unknownSwap.response.status).toBe(404);
    expect(unknownSwap.error?.error.code).toBe('SWAP_NOT_FOUND');
  });
});
