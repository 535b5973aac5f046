import { StargateClient } from '@cosmjs/stargate';
import type { CosmosDevnetChainManifest } from '@swapgw/devnet';
import { api, ApiClient, ApiResponse, waitFor } from '@swapgw/testing';
import { hubWalletHoldingOnly, signIssued, devnetCosmosChain } from './support/cosmos-wallets';
import { OpenApiValidator } from './support/openapi-validator';
import { PrivateStack, startPrivateStack } from './support/private-stack';
import { openSseStream, SseStream } from './support/sse-client';
import { Received, WebhookReceiver } from './support/webhook-receiver';

// An IBC transfer that times out and is refunded, followed as a Keplr user and an integrator follow
// it (GET /swap, the SSE stream, a signed webhook): ATOM on the Hub → OSMO on Osmosis, one
// MsgTransfer whose packet times out at the swap's deadline. The devnet's relayer is stopped before
// the wallet submits (what an operator stopping Hermes does: its devnet-only control on the Hub's
// REST API), so the packet waits; once Osmosis's clock passed its timeout the relayer is started
// again and, as Hermes would, proves the timeout on the Hub (MsgTimeout), which refunds the wallet.
// The service learns it from the chains' events only (timeout_packet on the Hub).
// A stack of its own (private broker and database, the test run's devnet) whose planner gives swaps
// a 60 s deadline (the least it takes; the shared stack gives 1 h), so the packet's timeout comes within the test. The
// relayer is the shared devnet's: e2e files run one at a time, and the test starts it again
// whatever happens.
const DEADLINE_SECONDS = 60;
const chainOf = devnetCosmosChain;
const hub = chainOf('cosmoshub-devnet');
const osmosis = chainOf('osmosis-devnet');
const AMOUNT = 1_000_000n; // 1 ATOM
const COSMOS_HASH = /^[0-9A-F]{64}$/;

describe('Cosmos: an IBC transfer that times out is refunded, shown by GET /swap, SSE and webhooks', () => {
  const receiver = new WebhookReceiver();
  const closers: Array<() => unknown> = [];
  let stack: PrivateStack;
  let gatewayUrl: string;
  let key: string;
  let client: ApiClient;
  let openApi: OpenApiValidator;
  let webhook: { id: string; secret: string };

  const documented = (method: string, path: string, res: ApiResponse): ApiResponse => {
    expect(openApi.check(method, path, res.status, res.body)).toEqual({ valid: true, problems: [] });
    return res;
  };

  beforeAll(async () => {
    const [started, receiverUrl] = await Promise.all([
      startPrivateStack('ibctimeout', {
        // A second stack beside the e2e one on a shared machine: its apps may take long to be ready.
        readyTimeoutMs: 300_000,
        appEnv: { 'execution-planner': { SWAP_DEADLINE_SECONDS: String(DEADLINE_SECONDS) } },
      }),
      receiver.start(),
    ]);
    stack = started;
    gatewayUrl = stack.stack.gatewayUrl!;
    key = await stack.createApiKey('cosmos-ibc-timeout-e2e');
    client = api(gatewayUrl, key);
    openApi = await OpenApiValidator.fetch(gatewayUrl);
    const created = documented(
      'POST',
      '/api/v1/webhooks',
      await client.post('/webhooks', { url: `${receiverUrl}/swaps` }),
    );
    expect(created.status).toBe(201);
    webhook = created.body.data as { id: string; secret: string };
  }, 600_000);

  afterAll(async () => {
    await setRelayerRunning(true);
    closers.forEach((close) => close());
    await stack?.stop();
    await receiver.stop();
  }, 180_000);

  /** The devnet relayer's control (devnet only): stopped, packets wait; started, it relays. */
  async function setRelayerRunning(running: boolean): Promise<void> {
    const res = await fetch(`${hub.rest}/devnet/ibc/relayer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ running }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ running });
  }

  async function reader(chain: CosmosDevnetChainManifest): Promise<StargateClient> {
    const connected = await StargateClient.connect(chain.rpc);
    closers.push(() => connected.disconnect());
    return connected;
  }

  /** A fresh DIRECT wallet holding exactly AMOUNT uatom on the Hub and nothing anywhere else. */
  const walletHoldingOnlyAtom = () =>
    hubWalletHoldingOnly(hub, AMOUNT, 7, (c) => closers.push(() => c.disconnect()));

  /** The swap as GET /swap/{swapId} shows it once `done` says so. */
  const swapWhen = (swapId: string, done: (swap: Record<string, any>) => boolean, description: string) =>
    waitFor(
      async () => {
        const read = await client.get(`/swap/${swapId}`);
        return read.status === 200 && done(read.body.data) ? read : null;
      },
      { timeoutMs: 120_000, intervalMs: 300, description },
    );

  it('ATOM → OSMO with the relayer down: the packet is sent, times out on Osmosis, the Hub refunds the wallet its 1 ATOM; the swap fails BRIDGE_REFUNDED', async () => {
    const { wallet, user, receiver: osmoReceiver, publicKey } = await walletHoldingOnlyAtom();
    const hubReader = await reader(hub);
    const osmosisReader = await reader(osmosis);
    expect(await hubReader.getAllBalances(user.address)).toEqual([
      { denom: 'uatom', amount: String(AMOUNT) },
    ]);

    const quoted = await client.post('/quote', {
      fromChain: hub.id,
      toChain: osmosis.id,
      tokenIn: 'ATOM',
      tokenOut: 'OSMO',
      amount: '1',
    });
    expect(quoted.status).toBe(200);
    const route = quoted.body.data.routes.find((r: { providers: string[] }) =>
      r.providers.includes('osmosis'),
    );
    expect(route.providers).toEqual(['ibc', 'osmosis']);
    const built = await client.post('/swap/build', {
      quoteId: quoted.body.data.quoteId,
      routeId: route.routeId,
      userAddress: user.address,
      userPublicKey: publicKey,
      recipient: osmoReceiver,
      gasPayment: 'user',
    });
    expect([200, 202]).toContain(built.status);
    const swapId = built.body.data.swapId as string;
    const stream: SseStream = await openSseStream(`${gatewayUrl}/swap/${swapId}/events`, key);
    closers.push(() => stream.drop());
    expect(stream.status).toBe(200);

    const ready = await waitFor(
      async () => {
        const polled = await client.get(`/swap/${swapId}/signing`);
        return polled.status === 200 && polled.body.data.signing?.payload ? polled : null;
      },
      { timeoutMs: 30_000, description: 'the Cosmos payload' },
    );
    const payload = ready.body.data.signing.payload;
    expect(payload.type).toBe('cosmos-sign-direct');
    const rawTx = await signIssued(wallet, user.address, payload.signDoc);

    await setRelayerRunning(false);
    let sent: Record<string, any>;
    try {
      const accepted = await client.post(`/swap/${swapId}/signing`, { rawTx });
      expect(accepted.status).toBe(200);
      // Committed on the Hub: the coin is escrowed, the packet waits for a relayer.
      const whileSent = await swapWhen(
        swapId,
        (swap) => swap.steps[0]?.packet?.state === 'sent',
        'the packet sent',
      );
      documented('GET', `/swap/${swapId}`, whileSent);
      expect(whileSent.body.data.status).toBe('confirming');
      sent = whileSent.body.data.steps[0];
      expect(sent).toMatchObject({
        chain: hub.id,
        kind: 'bridge',
        packet: {
          state: 'sent',
          sourceChannel: hub.ibcChannels[osmosis.id],
          destinationChain: osmosis.id,
          destinationChannel: osmosis.ibcChannels[hub.id],
          receivedTxHash: null,
          settledTxHash: null,
          refunded: false,
        },
      });
      expect(sent.txHash).toMatch(COSMOS_HASH);
      expect(await hubReader.getAllBalances(user.address)).toEqual([]);
      // The timeout is the swap's deadline; the relayer can prove it once Osmosis's latest block is past it.
      const timeoutAtMs = sent.packet.timeoutAtMs as number;
      expect(timeoutAtMs).toBeGreaterThan(Date.now());
      await waitFor(
        async () => {
          const block = await osmosisReader.getBlock();
          return Date.parse(block.header.time) > timeoutAtMs ? true : null;
        },
        {
          timeoutMs: (DEADLINE_SECONDS + 30) * 1000,
          intervalMs: 500,
          description: "Osmosis's clock past the timeout",
        },
      );
    } finally {
      await setRelayerRunning(true);
    }

    const failed = await swapWhen(swapId, (swap) => swap.status === 'failed', 'the swap refunded');
    documented('GET', `/swap/${swapId}`, failed);
    const step = failed.body.data.steps[0];
    expect(step).toMatchObject({
      status: 'failed',
      txHash: sent.txHash,
      packet: { state: 'timed_out', refunded: true, receivedTxHash: null, acknowledgementError: null },
    });
    expect(step.packet.settledTxHash).toMatch(COSMOS_HASH);
    expect(failed.body.data.failure).toMatchObject({
      reason: 'BRIDGE_REFUNDED',
      details: { chain: hub.id, txHash: sent.txHash, packet: { state: 'timed_out', refunded: true } },
    });

    // Balances on both chains: the wallet has its 1 ATOM back (no fee: the granter paid), Osmosis got nothing.
    expect(await hubReader.getAllBalances(user.address)).toEqual([
      { denom: 'uatom', amount: String(AMOUNT) },
    ]);
    expect(await osmosisReader.getAllBalances(osmoReceiver)).toEqual([]);
    // The refund is a transaction of the Hub's, as an explorer shows it: its timeout_packet for our packet.
    const refundTx = await hubReader.getTx(step.packet.settledTxHash);
    expect(refundTx?.code).toBe(0);
    const timeoutEvent = refundTx?.events.find((e) => e.type === 'timeout_packet');
    expect(timeoutEvent?.attributes).toEqual(
      expect.arrayContaining([
        { key: 'packet_sequence', value: sent.packet.sequence },
        { key: 'packet_src_channel', value: sent.packet.sourceChannel },
      ]),
    );
    // The transaction status look-up answers for both of the Hub's transactions.
    for (const hash of [sent.txHash, step.packet.settledTxHash]) {
      const status = documented(
        'GET',
        '/status/transaction/{txHash}',
        await client.get(`/status/transaction/${hash}?chainRef=${hub.id}`),
      );
      expect(status.body.data).toMatchObject({ txHash: hash, chain: hub.id, status: 'confirmed' });
    }

    // SSE: the packet's moves, then the failure, and the stream ends.
    await stream.ended;
    const names = stream.events.map((e) => e.event);
    expect(names.at(-1)).toBe('swap.failed');
    const packetEvents = stream.events.filter((e) => e.event === 'swap.step-packet');
    expect(packetEvents.map((e) => e.data.packet.state)).toEqual(['sent', 'timed_out']);
    expect(packetEvents[1].data).toMatchObject({
      swapId,
      transaction: { chain: hub.id, txHash: sent.txHash },
      packet: { state: 'timed_out', refunded: true, settledTxHash: step.packet.settledTxHash },
    });
    expect(names.indexOf('swap.step-packet')).toBeGreaterThan(names.indexOf('swap.step-submitted'));
    expect(stream.events.at(-1)?.data).toMatchObject({ reason: 'BRIDGE_REFUNDED' });

    // Webhooks: the same moves, signed.
    const deliveries: Received[] = await receiver.swapDeliveries(swapId, 'swap.failed');
    for (const delivery of deliveries)
      expect(WebhookReceiver.verify(webhook.secret, delivery)).toEqual(delivery.body);
    const pushed = deliveries.filter((d) => d.body.type === 'swap.step-packet').map((d) => d.body.data);
    expect(pushed.map((data) => (data.packet as { state: string }).state)).toEqual(['sent', 'timed_out']);
    expect(pushed[1]).toMatchObject({ chain: hub.id, txHash: sent.txHash, packet: { refunded: true } });
  }, 300_000);
});
