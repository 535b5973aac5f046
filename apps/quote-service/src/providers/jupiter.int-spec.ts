import { createPublicKey, verify } from 'node:crypto';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { errorCodeOf, QuoteTestApp, planOf } from '../../test/support/quote-service-test-support';
import { ProviderTestBench } from '../../test/support/provider-test-bench';
import { json, LocalUpstream, UpstreamHandler } from '../../test/support/local-upstream';
import { JUPITER_PROGRAM_ID, WRAPPED_SOL_MINT } from './jupiter.provider';

const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';

/**
 * A local server speaking Jupiter's Swap API (GET /quote, POST /swap) as documented, plus LI.FI's
 * GET /v1/quote answering "no route" so that a second provider is asked too.
 */
class FakeJupiterServer extends LocalUpstream {
  quote: UpstreamHandler = (_r, res) => json(res, 500, { error: 'no handler' });
  swap: UpstreamHandler = (_r, res) => json(res, 500, { error: 'no handler' });

  constructor() {
    super();
    this.handler = (request, res) => {
      const { pathname } = request.url;
      if (pathname === '/swap/v1/quote' && request.method === 'GET') return this.quote(request, res);
      if (pathname === '/swap/v1/swap' && request.method === 'POST') return this.swap(request, res);
      if (pathname === '/v1/quote')
        return json(res, 404, { message: 'No available quotes for the requested transfer', code: 1002 });
      json(res, 404, { error: 'not found' });
    };
  }
}

/** A QuoteResponse as GET /quote documents it, for the request's mints and amount. */
function quoteResponse(url: URL, outAmount: bigint, priceImpactPct = '0.0004') {
  const slippageBps = Number(url.searchParams.get('slippageBps'));
  const inAmount = url.searchParams.get('amount')!;
  return {
    inputMint: url.searchParams.get('inputMint'),
    inAmount,
    outputMint: url.searchParams.get('outputMint'),
    outAmount: outAmount.toString(),
    otherAmountThreshold: ((outAmount * BigInt(10_000 - slippageBps)) / 10_000n).toString(),
    swapMode: 'ExactIn',
    slippageBps,
    platformFee: platformFeeOf(url),
    priceImpactPct,
    routePlan: [
      {
        swapInfo: {
          ammKey: '3nMFwZXwY1s1M5s8vYAHqd4wGs4iSxXE4LRoUMMYqEgF',
          label: 'Meteora DLMM',
          inputMint: url.searchParams.get('inputMint'),
          outputMint: url.searchParams.get('outputMint'),
          inAmount,
          outAmount: outAmount.toString(),
          feeAmount: '24825',
          feeMint: url.searchParams.get('inputMint'),
        },
        percent: 100,
      },
    ],
    contextSlot: 299283763,
    timeTaken: 0.015257836,
  };
}

/**
 * The platformFee a QuoteResponse carries: null without `platformFeeBps`, else its rate and the fee
 * (here of the input, which a feeAccount of the input mint takes on ExactIn).
 */
function platformFeeOf(url: URL): { amount: string; feeBps: number } | null {
  const bps = url.searchParams.get('platformFeeBps');
  if (bps === null) return null;
  const amount = (BigInt(url.searchParams.get('amount')!) * BigInt(bps)) / 10_000n;
  return { amount: amount.toString(), feeBps: Number(bps) };
}

/**
 * POST /swap as Jupiter documents it: a quote with a platform fee (platformFeeBps) must come with
 * the `feeAccount` that receives it, a token account's address; one without a fee takes none.
 */
function swapRequestProblem(body: Record<string, unknown>): string | undefined {
  const quote = body.quoteResponse as { platformFee?: unknown } | undefined;
  if (!quote?.platformFee)
    return body.feeAccount === undefined ? undefined : 'feeAccount without platformFeeBps';
  if (typeof body.feeAccount !== 'string') return 'platformFeeBps requires feeAccount';
  try {
    new PublicKey(body.feeAccount);
  } catch {
    return 'feeAccount is not an address';
  }
  return undefined;
}

/** A real unsigned v0 transaction paid by `user` (a transfer stands in for Jupiter's instructions). */
function swapTransactionFor(user: PublicKey): string {
  const message = new TransactionMessage({
    payerKey: user,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    instructions: [
      SystemProgram.transfer({ fromPubkey: user, toPubkey: Keypair.generate().publicKey, lamports: 5000 }),
    ],
  }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
}

function verifiesFor(user: Keypair, transaction: VersionedTransaction): boolean {
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), user.publicKey.toBuffer()]);
  return verify(
    null,
    transaction.message.serialize(),
    createPublicKey({ key: spki, format: 'der', type: 'spki' }),
    transaction.signatures[0],
  );
}

describe('Jupiter provider against a local server speaking its Swap API (real PostgreSQL)', () => {
  const jupiter = new FakeJupiterServer();
  const user = Keypair.generate();
  // A generous deadline for a busy CI machine; the case that times out takes an app of its own.
  const bench = ProviderTestBench.forSuite(jupiter, () => ({ QUOTE_PROVIDER_TIMEOUT_MS: '10000' }));
  const withEnv = (env: Record<string, string>) => bench.app(env);
  let service: QuoteTestApp;

  beforeAll(async () => {
    service = await withEnv({ JUPITER_API_URL: `${jupiter.url}/swap/v1`, JUPITER_API_KEY: 'test-key' });
  });

  beforeEach(() => {
    jupiter.quote = (r, res) => json(res, 200, quoteResponse(r.url, 152_340_000n));
    jupiter.swap = (r, res) => {
      const problem = swapRequestProblem(r.body!);
      if (problem) return json(res, 400, { error: problem, errorCode: 'INVALID_REQUEST' });
      json(res, 200, {
        swapTransaction: swapTransactionFor(new PublicKey(r.body!.userPublicKey as string)),
        lastValidBlockHeight: 279_632_475,
        prioritizationFeeLamports: 0,
      });
    };
  });

  it('marks Solana tokens supported by jupiter once JUPITER_API_URL is set', async () => {
    const { tokens } = await service.catalog.listTokens({ chainRef: 'solana', q: 'USDC', debug: true });
    expect(tokens[0].debug!.providers).toContain('jupiter');
  });

  it('quotes SOL → USDC with the documented parameters and carries a signable transaction for the recipient', async () => {
    const quote = await service.quotes.create({
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'SOL',
      tokenOut: 'USDC',
      amount: '1',
      slippageBps: 100,
      recipient: user.publicKey.toBase58(),
    });
    expect(quote.routes).toHaveLength(1);
    // In units of each token: SOL has 9 decimals, USDC 6 (Jupiter answers base units).
    expect(quote.routes[0]).toMatchObject({
      provider: 'jupiter',
      providers: ['jupiter'],
      family: 'same-chain',
      stepCount: 1,
      amountIn: '1',
      expectedAmountOut: '152.34',
      minAmountOut: '150.8166',
      tokenInDecimals: 9,
      tokenOutDecimals: 6,
      warnings: [],
    });

    const [quoteCall, swapCall] = jupiter.requests;
    expect(Object.fromEntries(quoteCall.url.searchParams)).toEqual({
      inputMint: WRAPPED_SOL_MINT,
      outputMint: USDC_MINT,
      amount: '1000000000',
      slippageBps: '100',
      swapMode: 'ExactIn',
    });
    expect([quoteCall.headers['x-api-key'], swapCall.headers['x-api-key']]).toEqual(['test-key', 'test-key']);
    expect(swapCall.body).toMatchObject({
      userPublicKey: user.publicKey.toBase58(),
      wrapAndUnwrapSol: true,
      quoteResponse: { outAmount: '152340000', inAmount: '1000000000' },
    });

    const plan = planOf(quote, quote.routes[0].routeId);
    expect(plan.tokenIn).toEqual({ chain: 'solana', symbol: 'SOL', address: null, decimals: 9 });
    expect(plan.tokenOut).toEqual({ chain: 'solana', symbol: 'USDC', address: USDC_MINT, decimals: 6 });
    const [leg] = plan.legs;
    expect(leg).toMatchObject({
      kind: 'swap',
      chain: 'solana',
      provider: 'jupiter',
      amountIn: '1000000000',
      expectedAmountOut: '152340000',
      minAmountOut: ((152_340_000n * 9_900n) / 10_000n).toString(),
      spender: JUPITER_PROGRAM_ID,
    });
    expect(leg.solanaTransaction).toMatchObject({
      signer: user.publicKey.toBase58(),
      lastValidBlockHeight: 279_632_475,
    });

    // What the signer will do: hand out exactly these bytes, and check the user's signature over them.
    const transaction = VersionedTransaction.deserialize(
      Buffer.from(leg.solanaTransaction!.serializedTransaction, 'base64'),
    );
    expect(transaction.message.staticAccountKeys[0].toBase58()).toBe(user.publicKey.toBase58());
    transaction.sign([user]);
    expect(verifiesFor(user, transaction)).toBe(true);
  });

  it('takes the integrator fee as Jupiter’s platform fee: platformFeeBps on /quote for the whole input, feeAccount (the recipient’s token account of the input mint) on /swap', async () => {
    const feeRecipient = Keypair.generate().publicKey.toBase58();
    const quote = await service.quotes.create({
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'USDC',
      tokenOut: 'USDT',
      amount: '250',
      slippageBps: 100,
      recipient: user.publicKey.toBase58(),
      integratorFee: [{ bps: 40, recipient: feeRecipient }],
    });
    expect(quote.routes).toHaveLength(1);
    expect(quote.routes[0]).toMatchObject({
      amountIn: '250',
      expectedAmountOut: '152.34', // Jupiter's outAmount, net of its platform fee
      integratorFee: [{ bps: 40, amount: '1', token: 'USDC', chain: 'solana', recipient: feeRecipient }],
    });
    const [quoteCall, swapCall] = jupiter.requests;
    expect(Object.fromEntries(quoteCall.url.searchParams)).toMatchObject({
      amount: '250000000', // the whole input: Jupiter's program takes the fee out of it
      platformFeeBps: '40',
    });
    const feeAccount = getAssociatedTokenAddressSync(
      new PublicKey(USDC_MINT),
      new PublicKey(feeRecipient),
      true,
    ).toBase58();
    expect(swapCall.body).toMatchObject({
      feeAccount,
      quoteResponse: { inAmount: '250000000', platformFee: { feeBps: 40, amount: '1000000' } },
    });
    const plan = planOf(quote, quote.routes[0].routeId);
    expect(plan.integratorFees).toEqual([
      expect.objectContaining({ recipient: feeRecipient, bps: 40, amount: '1000000' }),
    ]);
    // The leg swaps what is left; its transaction pays the fee itself, as the planner checks.
    expect(plan.legs[0].amountIn).toBe('249000000');
    expect(plan.legs[0].solanaTransaction!.integratorFee).toEqual({
      recipient: feeRecipient,
      feeAccount,
      amount: '1000000',
    });
  });

  it('has no Jupiter route for several fee recipients (one platform fee, one account); fails on a quote without the fee asked', async () => {
    const terms = {
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'USDC',
      tokenOut: 'USDT',
      amount: '250',
      recipient: user.publicKey.toBase58(),
      debug: true,
    };
    const several = await service.quotes.create({
      ...terms,
      integratorFee: [
        { bps: 40, recipient: Keypair.generate().publicKey.toBase58() },
        { bps: 10, recipient: Keypair.generate().publicKey.toBase58() },
      ],
    });
    expect(several.routes).toEqual([]);
    expect(several.debug!.providers).toEqual([
      expect.objectContaining({
        provider: 'jupiter',
        status: 'no-route',
        reason: expect.stringContaining('single integratorFee recipient'),
      }),
    ]);
    expect(jupiter.requests).toEqual([]); // not asked at all
    // A QuoteResponse whose platformFee is not the one asked would pay the recipient something else.
    jupiter.quote = (r, res) => json(res, 200, { ...quoteResponse(r.url, 152_340_000n), platformFee: null });
    const fee = [{ bps: 40, recipient: Keypair.generate().publicKey.toBase58() }];
    expect(await errorCodeOf(service.quotes.create({ ...terms, integratorFee: fee }))).toBe(
      'QUOTE_UPSTREAM_FAILED',
    );
  });

  it('prices without building a transaction when no recipient names the signing wallet', async () => {
    const quote = await service.quotes.create({
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'USDC',
      tokenOut: 'USDT',
      amount: '250',
    });
    const plan = planOf(quote, quote.routes[0].routeId);
    expect(plan.legs[0].solanaTransaction).toBeUndefined();
    expect(plan.legs[0].tokenOut.address).toBe(USDT_MINT);
    expect(jupiter.requests.map((r) => r.url.pathname)).toEqual(['/swap/v1/quote']);
  });

  it('warns about high price impact from priceImpactPct (a fraction)', async () => {
    jupiter.quote = (r, res) => json(res, 200, quoteResponse(r.url, 100_000n, '0.0251'));
    const quote = await service.quotes.create({
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'SOL',
      tokenOut: 'USDC',
      amount: '0.001',
    });
    expect(quote.routes[0].warnings).toEqual(['HIGH_PRICE_IMPACT']);
    // Automatic slippage: 30 + ceil(251 / 2) from the 2.51% impact; Jupiter binds its minimum
    // (otherAmountThreshold) from the slippage it is sent, so it was asked again with it.
    expect(quote.routes[0]).toMatchObject({ slippageBps: 156, slippageSource: 'auto' });
    expect(jupiter.requests.map((r) => r.url.searchParams.get('slippageBps'))).toEqual(['50', '156']);
    // The leg's minimum is the second answer's otherAmountThreshold: 100000 less 1.56%.
    expect(planOf(quote, quote.routes[0].routeId).legs[0]).toMatchObject({
      minAmountOut: '98440',
      slippageBps: 156,
    });
  });

  it('keeps 50 bps and asks once when the impact is small, and the request’s own slippage as sent', async () => {
    const terms = {
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'SOL',
      tokenOut: 'USDC',
      amount: '0.001',
    };
    const small = await service.quotes.create(terms);
    expect(small.routes[0]).toMatchObject({ slippageBps: 50, slippageSource: 'auto' });
    expect(jupiter.requests.map((r) => r.url.searchParams.get('slippageBps'))).toEqual(['50']);
    jupiter.requests.length = 0;
    jupiter.quote = (r, res) => json(res, 200, quoteResponse(r.url, 100_000n, '0.0251'));
    const own = await service.quotes.create({ ...terms, slippageBps: 20 });
    expect(own.routes[0]).toMatchObject({ slippageBps: 20, slippageSource: 'request' });
    expect(jupiter.requests.map((r) => r.url.searchParams.get('slippageBps'))).toEqual(['20']);
  });

  it('answers routes [] when Jupiter says 400 COULD_NOT_FIND_ANY_ROUTE', async () => {
    jupiter.quote = (_r, res) =>
      json(res, 400, { error: 'Could not find any route', errorCode: 'COULD_NOT_FIND_ANY_ROUTE' });
    const quote = await service.quotes.create({
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'SOL',
      tokenOut: 'USDC',
      amount: '1',
      debug: true,
    });
    expect(quote.routes).toEqual([]);
    expect(quote.debug!.providers).toEqual([
      expect.objectContaining({
        provider: 'jupiter',
        status: 'no-route',
        reason: expect.stringContaining('COULD_NOT_FIND_ANY_ROUTE'),
      }),
    ]);
  });

  it('answers 502 QUOTE_UPSTREAM_FAILED when Jupiter, the only provider, fails (5xx) or times out', async () => {
    jupiter.quote = (_r, res) => json(res, 503, { error: 'Service Unavailable' });
    expect(
      await errorCodeOf(
        service.quotes.create({
          fromChain: 'solana',
          toChain: 'solana',
          tokenIn: 'SOL',
          tokenOut: 'USDC',
          amount: '1',
        }),
      ),
    ).toBe('QUOTE_UPSTREAM_FAILED');
    jupiter.quote = () => undefined; // never answers: the provider deadline (500 ms) aborts it
    const impatient = await withEnv({
      JUPITER_API_URL: `${jupiter.url}/swap/v1`,
      JUPITER_API_KEY: 'test-key',
      QUOTE_PROVIDER_TIMEOUT_MS: '500',
    });
    expect(
      await errorCodeOf(
        impatient.quotes.create({
          fromChain: 'solana',
          toChain: 'solana',
          tokenIn: 'SOL',
          tokenOut: 'USDC',
          amount: '1',
        }),
      ),
    ).toBe('QUOTE_UPSTREAM_FAILED');
  });

  it('fails the provider when /swap builds a transaction for someone else', async () => {
    jupiter.swap = (_r, res) =>
      json(res, 200, {
        swapTransaction: swapTransactionFor(Keypair.generate().publicKey),
        lastValidBlockHeight: 1,
      });
    const request = {
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'SOL',
      tokenOut: 'USDC',
      amount: '1',
      recipient: user.publicKey.toBase58(),
    };
    expect(await errorCodeOf(service.quotes.create(request))).toBe('QUOTE_UPSTREAM_FAILED');
  });

  it('skips a failing Jupiter when another provider is asked too (LI.FI answering no route): 200, routes []', async () => {
    const both = await withEnv({ JUPITER_API_URL: `${jupiter.url}/swap/v1`, LIFI_API_URL: jupiter.url });
    jupiter.quote = (_r, res) => json(res, 500, { error: 'Internal Server Error' });
    const quote = await both.quotes.create({
      fromChain: 'solana',
      toChain: 'solana',
      tokenIn: 'SOL',
      tokenOut: 'USDC',
      amount: '1',
      debug: true,
    });
    expect(quote.routes).toEqual([]);
    const outcomes = quote.debug!.providers as { provider: string; status: string }[];
    expect(outcomes.map((o) => [o.provider, o.status]).sort()).toEqual([
      ['jupiter', 'failed'],
      ['lifi', 'no-route'],
    ]);
  });

  it('does not ask Jupiter for another Solana chain or across chains', async () => {
    await service.quotes.create({
      fromChain: 'solana',
      toChain: 'ethereum',
      tokenIn: 'SOL',
      tokenOut: 'ETH',
      amount: '1',
    });
    expect(jupiter.requests).toEqual([]);
  });
});
