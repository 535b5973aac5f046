import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { bitcoinDevnetKey, EsploraClient } from '@swapgw/devnet';
import { api, ApiClient, ApiResponse, createApiKey, waitFor } from '@swapgw/testing';
import { DevnetBitcoinWallets, PsbtPayload, signPsbt } from '../support/bitcoin-wallets';
import { DevnetEvm } from '../support/devnet-evm';
import { OpenApiValidator } from '../support/openapi-validator';
import { openSseStream, SseEvent, SseStream } from '../support/sse-client';
import { WebhookReceiver } from '../support/webhook-receiver';
import { nextSigning, submitSigned } from '../support/swap-steps';
import { buildBtcForUsdcOnA, expectCompletedBitcoinSwapDeliveries } from '../support/bitcoin-swaps';

// A BTC → USDC swap as its user follows it: the SSE stream (GET /swap/{swapId}/events), a webhook
// and GET /swap/{swapId} all name the Bitcoin step's transaction, the txid of the PSBT the wallet
// signed; the stream shows it in a block with its confirmations and ends with the swap completed.
// The shared stack lets webhooks reach loopback http receivers (tools/stack, libs/testing).
const devnet = new DevnetEvm();
const manifest = devnet.manifest as typeof devnet.manifest & { bitcoin: { esploraUrl: string } };
const esplora = new EsploraClient(manifest.bitcoin.esploraUrl);
/** Bitcoin test wallet 7, as swap-bitcoin.e2e-spec (e2e files run one at a time). */
const btcFunder = () => bitcoinDevnetKey('wallet', 7);
const BITCOIN_TXID = /^[0-9a-f]{64}$/;

describe('a Bitcoin step in the event stream, the webhooks and GET /swap: its txid, its confirmations, the swap completed', () => {
  const receiver = new WebhookReceiver();
  let receiverUrl: string;
  let gatewayUrl: string;
  let key: string;
  let client: ApiClient;
  let openApi: OpenApiValidator;
  let webhook: { id: string; secret: string };
  const streams: SseStream[] = [];

  const documented = (method: string, path: string, res: ApiResponse): ApiResponse => {
    expect(openApi.check(method, path, res.status, res.body)).toEqual({ valid: true, problems: [] });
    return res;
  };

  beforeAll(async () => {
    gatewayUrl = process.env.GATEWAY_URL!;
    expect(gatewayUrl).toBeTruthy();
    receiverUrl = await receiver.start();
    key = await createApiKey(`bitcoin-events-e2e-${randomUUID().slice(0, 8)}`);
    client = api(gatewayUrl, key);
    openApi = await OpenApiValidator.fetch(gatewayUrl);
    // Every event type: what the owner's receiver gets is all the gateway pushes for the swap.
    const created = documented(
      'POST',
      '/api/v1/webhooks',
      await client.post('/webhooks', { url: `${receiverUrl}/swaps` }),
    );
    expect(created.status).toBe(201);
    webhook = created.body.data as { id: string; secret: string };
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.drop()));
    if (webhook) await client.delete(`/webhooks/${webhook.id}`);
    await receiver.stop();
    devnet.destroy();
  });

  const bitcoin = new DevnetBitcoinWallets(esplora, btcFunder);

  it('BTC → USDC on devnet-a: stream and webhook name the signed txid on bitcoin-devnet, the stream shows it confirmed, GET /swap shows the step', async () => {
    const wallet = await bitcoin.freshWalletWith(3_000_000n);
    const recipient = Wallet.createRandom().address;
    const swapId = await buildBtcForUsdcOnA({ client }, wallet.address, recipient);
    // From the swap's first event: the stream replays what happened before it was opened.
    const stream = await openSseStream(`${gatewayUrl}/swap/${swapId}/events`, key);
    streams.push(stream);
    expect(stream.status).toBe(200);

    const ready = await nextSigning({ client }, swapId, 0);
    expect(ready.status).toBe(200);
    const payload = ready.body.data.signing.payload as PsbtPayload;
    expect(payload.type).toBe('bitcoin-psbt');
    const signed = signPsbt(payload, wallet);
    const txid = signed.id;
    expect(txid).toMatch(BITCOIN_TXID);
    const submitted = await submitSigned({ client }, swapId, Buffer.from(signed.toPSBT()).toString('base64'));
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ swapId, status: 'submitted', txHash: txid });

    // The server ends the stream after the terminal event.
    await waitFor(() => stream.isEnded(), {
      timeoutMs: 120_000,
      intervalMs: 200,
      description: `the event stream of swap ${swapId} to end`,
    });
    const events = stream.events;
    const named = (name: string): SseEvent[] => events.filter((e) => e.event === name);

    // --- The stream: each step event names the transaction and the chain it is on.
    expect(events[events.length - 1]).toMatchObject({
      event: 'swap.completed',
      data: { swapId, status: 'completed', step: { current: 1, total: 1 }, lastTxHash: txid },
    });
    expect(named('swap.completed')).toHaveLength(1);
    const [stepSubmitted] = named('swap.step-submitted');
    expect(stepSubmitted?.data).toMatchObject({
      swapId,
      status: 'submitted',
      step: { current: 1, total: 1 },
      transaction: { chain: 'bitcoin-devnet', txHash: txid, confirmations: 0 },
    });
    // In a block: the confirmations so far, and those awaited.
    const confirming = named('swap.step-confirming');
    expect(confirming.length).toBeGreaterThanOrEqual(1);
    for (const event of confirming) {
      expect(event.data).toMatchObject({
        swapId,
        status: 'confirming',
        step: { current: 1, total: 1 },
        transaction: { chain: 'bitcoin-devnet', txHash: txid },
      });
      expect(event.data.transaction.confirmations).toBeGreaterThanOrEqual(1);
      expect(event.data.transaction.confirmationsRequired).toBeGreaterThanOrEqual(1);
    }
    expect(named('swap.step-confirmed')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ swapId, lastTxHash: txid }) }),
    ]);
    // Every txid the stream shows is the one signed, as Bitcoin spells it (no 0x, lower case).
    const txidsShown = events.flatMap((e) =>
      [e.data.transaction?.txHash, e.data.lastTxHash].filter((h): h is string => h !== undefined),
    );
    expect(txidsShown.length).toBeGreaterThanOrEqual(4);
    expect(new Set(txidsShown)).toEqual(new Set([txid]));
    // The step events come in the order the step went through.
    const order = events.map((e) => e.event).filter((name) => name.startsWith('swap.step-'));
    expect(order.indexOf('swap.step-submitted')).toBeLessThan(order.indexOf('swap.step-confirming'));
    expect(order.indexOf('swap.step-confirming')).toBeLessThan(order.indexOf('swap.step-confirmed'));
    // The node agrees: the transaction is in a block.
    expect(await esplora.json<{ confirmed: boolean }>(`/tx/${txid}/status`)).toMatchObject({
      confirmed: true,
    });

    // --- The webhook: the same step and txid, with the chain, broadcast then confirmed; every delivery signed.
    const deliveries = await receiver.swapDeliveries(swapId, 'swap.completed');
    for (const delivery of deliveries) {
      expect(delivery.path).toBe('/swaps');
      expect(WebhookReceiver.verify(webhook.secret, delivery)).toEqual(delivery.body);
      expect(delivery.body.id).toBe(delivery.deliveryId);
      expect(delivery.body.eventId).toBe(delivery.eventId);
    }
    const byType = expectCompletedBitcoinSwapDeliveries(deliveries, swapId, txid);
    const hookSubmitted = byType.get('swap.step-submitted')!;
    expect(hookSubmitted.body.data).toEqual({
      swapId,
      status: 'submitted',
      step: { current: 1, total: 1 },
      chain: 'bitcoin-devnet',
      txHash: txid,
    });
    const hookConfirmed = byType.get('swap.step-confirmed')!;
    expect(hookConfirmed.body.data).toEqual({
      swapId,
      status: 'completed',
      step: { current: 1, total: 1 },
      chain: 'bitcoin-devnet',
      txHash: txid,
    });
    const hookCompleted = byType.get('swap.completed')!;
    expect(hookCompleted.body.data).toEqual({
      swapId,
      status: 'completed',
      completedAtMs: expect.any(Number),
    });

    // --- GET /swap/{swapId}: the Bitcoin step and its txid.
    const read = documented('GET', `/swap/${swapId}`, await client.get(`/swap/${swapId}`));
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ swapId, status: 'completed', failure: null });
    expect(read.body.data.steps).toEqual([
      expect.objectContaining({
        index: 1,
        chain: 'bitcoin-devnet',
        kind: 'bridge',
        status: 'confirmed',
        txHash: txid,
        submittedAtMs: expect.any(Number),
        confirmedAtMs: expect.any(Number),
        thorchain: expect.objectContaining({ phase: 'completed' }),
      }),
    ]);
  });
});
