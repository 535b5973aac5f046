import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import { api, ApiClient, ApiResponse, createApiKey, testEnv, waitFor } from '@swapgw/testing';
import { OpenApiValidator } from './support/openapi-validator';
import { buildSwap, freshQuote } from './support/swap-steps';

// Signing polls are most of a gateway's requests under a flood of builds. A poll of a swap whose
// view the instance holds (its swap view cache, exact by notification) is answered before Nest:
// the same status, body and headers as the full path, counted once by the rate limit, and only for
// the swap's owner. A poll that waits for its payload goes the full path and answers once.

const env = testEnv();
const manifest = JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as { mnemonic: string };
const userAddress = HDNodeWallet.fromPhrase(manifest.mnemonic, undefined, `m/44'/60'/0'/0/9`).address;
const ROUTE = '/api/v1/swap/:swapId/signing';

describe('signing polls answered at the edge', () => {
  const gatewayUrl = process.env.GATEWAY_URL as string;
  let openApi: OpenApiValidator;
  let owner: ApiClient;

  beforeAll(async () => {
    openApi = await OpenApiValidator.fetch(gatewayUrl);
    owner = api(gatewayUrl, await createApiKey(`poll-edge-${randomUUID().slice(0, 8)}`));
  });

  /** Polls answered at the edge so far by the first gateway instance (the one GATEWAY_URL names). */
  const edgeAnswers = async (): Promise<number> => {
    const metricsUrl = process.env.GATEWAY_METRICS_URL;
    if (!metricsUrl) throw new Error('GATEWAY_METRICS_URL is not set: run through the e2e project');
    const text = await (await fetch(metricsUrl)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`swapgw_http_edge_answers_total{route="${ROUTE}"`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('answers a repeated poll of a ready swap exactly as the full path does, to its owner only', async () => {
    const built = await buildSwap(
      owner,
      `poll-edge-${randomUUID()}`,
      await freshQuote(owner),
      userAddress,
      0,
    );
    expect([200, 202]).toContain(built.status);
    const swapId = built.body.data.swapId as string;
    // The full path answers (and its read fills the cache) until the payload is there.
    const first = await waitFor(
      async () => {
        const res = await owner.get(`/swap/${swapId}/signing`);
        return res.status === 200 ? res : null;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: `swap ${swapId} signable` },
    );

    const before = await edgeAnswers();
    const again: ApiResponse = await owner.get(`/swap/${swapId}/signing`, {
      headers: { 'X-Request-Id': 'poll-edge-0001' },
    });
    expect(await edgeAnswers()).toBe(before + 1);

    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.meta).toEqual({ requestId: 'poll-edge-0001', timestamp: expect.any(String) });
    openApi.assertResponse('GET', `/swap/${swapId}/signing`, again.status, again.body);
    const headerNames = (res: ApiResponse) =>
      Object.keys(res.headers)
        .filter((h) => !['date', 'keep-alive', 'connection'].includes(h))
        .sort();
    expect(headerNames(again)).toEqual(headerNames(first));
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).toBe('poll-edge-0001');
    expect(Number(again.headers['ratelimit-remaining'])).toBe(
      Number(first.headers['ratelimit-remaining']) - 1,
    );

    // Another integrator's key asking for the same (cached) swap goes the full path: 404, as always.
    const stranger = api(gatewayUrl, await createApiKey(`poll-edge-other-${randomUUID().slice(0, 8)}`));
    const notTheirs = await stranger.get(`/swap/${swapId}/signing`);
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.error.code).toBe('SWAP_NOT_FOUND');
    expect(await edgeAnswers()).toBe(before + 1);
  }, 120_000);

  it('a poll that waits (waitForTxRequestMs) answers the payload in one request once it is stored; a wait out of bounds is 400', async () => {
    const built = await buildSwap(
      owner,
      `poll-wait-${randomUUID()}`,
      await freshQuote(owner),
      userAddress,
      0,
    );
    expect([200, 202]).toContain(built.status);
    const swapId = built.body.data.swapId as string;

    const waited = await owner.get(`/swap/${swapId}/signing?waitForTxRequestMs=25000`, { timeoutMs: 40_000 });
    expect(waited.status).toBe(200);
    expect(waited.body.data).toMatchObject({
      swapId,
      mode: 'sync',
      signing: { payload: expect.any(Object) },
    });
    openApi.assertResponse('GET', `/swap/${swapId}/signing`, waited.status, waited.body);
    // The same answer as a plain poll right after.
    const plain = await owner.get(`/swap/${swapId}/signing`);
    expect(plain.status).toBe(200);
    expect(plain.body.data).toEqual(waited.body.data);

    for (const wait of ['25001', '-1', '1.5', 'soon']) {
      const refused = await owner.get(`/swap/${swapId}/signing?waitForTxRequestMs=${wait}`);
      expect({ wait, status: refused.status, code: refused.body.error?.code }).toEqual({
        wait,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      expect(refused.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual([
        'waitForTxRequestMs',
      ]);
    }
  }, 120_000);
});
