import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { HDNodeWallet, TransactionRequest } from 'ethers';
import { api, ApiClient, ApiResponse, createApiKey, e2eGatewayPair, testEnv, waitFor } from '@swapgw/testing';
import { OpenApiValidator } from './support/openapi-validator';
import { openSseStream, SseEvent, SseStream } from './support/sse-client';
import { buildSwapId, quoteFirstRoute } from './support/swap-steps';

// GET /swap/{swapId}/events as a client sees it: a whole swap followed from build to completed on
// every gateway instance of the stack (the swap's events are projected by whichever instance owns
// its partition, so at least one of the streams is served by an instance that did not project
// them), a stream dropped mid-swap that resumes with Last-Event-ID and loses nothing, the per-key
// limit on open streams, and the errors.
const env = testEnv();
const manifest = JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as { mnemonic: string };
/** Anvil account 4: elsewhere only its address is used, never its nonce. */
const wallet = HDNodeWallet.fromPhrase(manifest.mnemonic, undefined, "m/44'/60'/0'/0/4");

/** The stream of a swap's events on one gateway instance. */
const openStream = (baseUrl: string, key: string, swapId: string, lastEventId?: string): Promise<SseStream> =>
  openSseStream(`${baseUrl}/swap/${swapId}/events`, key, { lastEventId });

const idsAndNames = (events: SseEvent[]): string[] => events.map((e) => `${e.id} ${e.event}`);

describe('swap event streams (SSE)', () => {
  let key: string;
  let urls: string[];
  let client: ApiClient;
  let openApi: OpenApiValidator;
  const documented = (method: string, path: string, res: ApiResponse): ApiResponse => {
    expect(openApi.check(method, path, res.status, res.body)).toEqual({ valid: true, problems: [] });
    return res;
  };

  beforeAll(async () => {
    // Two instances: the stream must be served where the events were not projected.
    urls = e2eGatewayPair();
    key = await createApiKey(`sse-e2e-${randomUUID().slice(0, 8)}`);
    client = api(urls[0], key);
    openApi = await OpenApiValidator.fetch(urls[0]);
  });

  /** A same-chain swap built (user-paid gas, no wait): its id. */
  async function buildSwap(apiClient: ApiClient, amount: string): Promise<string> {
    const caller = { client: apiClient };
    const body = {
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount,
      slippageBps: 100,
    };
    const { quoteId, route } = await quoteFirstRoute(caller, body);
    return buildSwapId(caller, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 0,
    });
  }

  it('streams a whole swap to completed on every instance; a dropped stream resumes with Last-Event-ID and loses nothing', async () => {
    const swapId = await buildSwap(client, '3');
    // One uninterrupted stream per instance, opened right after the build.
    const streams = await Promise.all(urls.map((url) => openStream(url, key, swapId)));
    for (const stream of streams)
      expect({ status: stream.status, contentType: stream.contentType }).toEqual({
        status: 200,
        contentType: 'text/event-stream; charset=utf-8',
      });
    // A third, on the second instance, that the network drops after the first payload.
    const flaky = await openStream(urls[1], key, swapId);
    const [watched] = streams;

    let resumed: SseStream | undefined;
    let beforeDrop: SseEvent[] = [];
    let signedStep = 0;
    while (!watched.isEnded()) {
      const next = await waitFor(
        () =>
          watched.events.find((e) => e.event === 'swap.signing-ready' && e.data.step.current > signedStep) ??
          (watched.isEnded() ? 'ended' : null),
        {
          timeoutMs: 120_000,
          intervalMs: 100,
          description: `step ${signedStep + 1} ready or the stream ended`,
        },
      );
      if (next === 'ended') break;
      // The event carries what the signing endpoint answers.
      const polled = await client.get(`/swap/${swapId}/signing`);
      expect(polled.status).toBe(200);
      expect(next.data).toMatchObject({
        swapId,
        mode: polled.body.data.mode,
        nextAction: 'sign',
        status: 'awaiting_signature',
        signing: polled.body.data.signing,
      });

      if (!resumed && signedStep === 0) {
        await waitFor(() => flaky.events.some((e) => e.id === next.id), {
          description: 'the flaky stream got the first payload',
        });
        await flaky.drop();
        beforeDrop = [...flaky.events];
      }
      const rawTx = await wallet.signTransaction(next.data.signing.payload.transaction as TransactionRequest);
      const submitted = await client.post(`/swap/${swapId}/signing`, { rawTx });
      expect(submitted.status).toBe(200);
      signedStep = next.data.step.current;
      if (!resumed) {
        // Events went by while it was away: it asks for what followed the last one it got.
        await waitFor(
          () =>
            watched.events.some(
              (e) => e.event === 'swap.step-submitted' && e.data.step.current === signedStep,
            ),
          { timeoutMs: 60_000 },
        );
        resumed = await openStream(urls[1], key, swapId, beforeDrop[beforeDrop.length - 1].id);
        expect(resumed.status).toBe(200);
      }
    }
    await Promise.all([...streams.map((s) => s.ended), resumed!.ended]);

    const full = watched.events;
    expect(full[full.length - 1]).toMatchObject({
      event: 'swap.completed',
      data: { swapId, status: 'completed' },
    });
    expect(full.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'swap.created',
        'swap.signing-ready',
        'swap.step-submitted',
        'swap.step-confirmed',
        'swap.completed',
      ]),
    );
    expect(full.filter((e) => e.event === 'swap.completed')).toHaveLength(1);
    const ids = full.map((e) => BigInt(e.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    // Every instance streamed the same events, whichever projected them.
    for (const stream of streams) expect(idsAndNames(stream.events)).toEqual(idsAndNames(full));
    // Dropped, then resumed: nothing lost, nothing twice.
    expect(beforeDrop.length).toBeGreaterThan(0);
    expect(resumed!.events.length).toBeGreaterThan(0);
    expect(idsAndNames([...beforeDrop, ...resumed!.events])).toEqual(idsAndNames(full));
    expect([...beforeDrop, ...resumed!.events].map((e) => e.data)).toEqual(full.map((e) => e.data));

    // After the end: from the start it replays everything and ends; after the last id it ends at once.
    const replay = await openStream(urls[1], key, swapId);
    await replay.ended;
    expect(idsAndNames(replay.events)).toEqual(idsAndNames(full));
    const afterEnd = await openStream(urls[0], key, swapId, full[full.length - 1].id);
    await afterEnd.ended;
    expect({ status: afterEnd.status, events: afterEnd.events }).toEqual({ status: 200, events: [] });
  }, 300_000);

  it('answers 404 for an unknown swap or another owner’s, and 400 for a Last-Event-ID it never sent', async () => {
    const swapId = await buildSwap(client, '1');
    const strangerKey = await createApiKey(`sse-e2e-stranger-${randomUUID().slice(0, 8)}`);
    const path = `/swap/${swapId}/events`;

    const stranger = await openStream(urls[0], strangerKey, swapId);
    documented('GET', path, { status: stranger.status, headers: {}, body: stranger.errorBody });
    expect(stranger).toMatchObject({ status: 404, errorBody: { error: { code: 'SWAP_NOT_FOUND' } } });
    const unknown = await openStream(urls[1], key, randomUUID());
    expect(unknown).toMatchObject({ status: 404, errorBody: { error: { code: 'SWAP_NOT_FOUND' } } });

    const badId = await openStream(urls[0], key, swapId, 'not-an-id');
    documented('GET', path, { status: badId.status, headers: {}, body: badId.errorBody });
    expect(badId).toMatchObject({
      status: 400,
      errorBody: { error: { code: 'VALIDATION_FAILED', details: { field: 'Last-Event-ID' } } },
    });

    const noKey = await fetch(`${urls[0]}${path}`);
    expect(noKey.status).toBe(401);
  });

  it('limits open streams per API key on an instance with 429, and frees the slot when a client leaves', async () => {
    // A key of its own, so that the other tests' streams do not count.
    const limitedKey = await createApiKey(`sse-e2e-limit-${randomUUID().slice(0, 8)}`);
    const limited = api(urls[0], limitedKey);
    const swapId = await buildSwap(limited, '1');
    // The stack runs the default SWAP_EVENT_STREAMS_PER_KEY.
    const limit = 10;
    const open = await Promise.all(
      Array.from({ length: limit }, () => openStream(urls[0], limitedKey, swapId)),
    );
    try {
      expect(open.map((s) => s.status)).toEqual(Array(limit).fill(200));
      const refused = await openStream(urls[0], limitedKey, swapId);
      documented('GET', `/swap/${swapId}/events`, {
        status: refused.status,
        headers: {},
        body: refused.errorBody,
      });
      expect(refused).toMatchObject({
        status: 429,
        errorBody: { error: { code: 'RATE_LIMITED', details: { limit, openStreams: limit } } },
      });
      // Counted per instance: the other instance still serves this key.
      const elsewhere = await openStream(urls[1], limitedKey, swapId);
      expect(elsewhere.status).toBe(200);
      await elsewhere.drop();

      await open.pop()!.drop();
      const again = await waitFor(
        async () => {
          const stream = await openStream(urls[0], limitedKey, swapId);
          return stream.status === 200 ? stream : null;
        },
        { timeoutMs: 10_000, intervalMs: 200, description: 'a slot freed by the client that left' },
      );
      open.push(again);
    } finally {
      await Promise.all(open.map((s) => s.drop()));
    }
  });
});
