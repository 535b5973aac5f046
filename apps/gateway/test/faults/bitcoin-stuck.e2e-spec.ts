import { Wallet } from 'ethers';
import * as btc from '@scure/btc-signer';
import { bitcoinDevnetKey, EsploraClient, type EsploraTransaction } from '@swapgw/devnet';
import { api, ApiClient, ApiResponse, waitFor } from '@swapgw/testing';
import { DevnetBitcoinMiner } from '../support/bitcoin-miner';
import { buildBtcForUsdcOnA, expectCompletedBitcoinSwapDeliveries } from '../support/bitcoin-swaps';
import {
  BitcoinWallet,
  DevnetBitcoinWallets,
  PsbtPayload,
  signPsbt,
  spendBackToSelf,
} from '../support/bitcoin-wallets';
import { DevnetEvm } from '../support/devnet-evm';
import { OpenApiValidator } from '../support/openapi-validator';
import { PrivateStack, startPrivateStack } from '../support/private-stack';
import { openSseStream, SseEvent, SseStream } from '../support/sse-client';
import { nextSigning, submitSigned } from '../support/swap-steps';
import { Received, WebhookReceiver } from '../support/webhook-receiver';

// A BTC → USDC swap whose transaction the miners leave aside, as its user and the integrator follow
// it through the gateway (GET /swap, the SSE stream, a signed webhook):
// - under the fee floor: the miner's floor (the devnet's POST /devnet/miner/min-fee-rate) rises
//   between the build and the wallet's broadcast, as fees do in a busy mempool, so the transaction
//   the wallet signed pays under it and stays in the mempool. After BITCOIN_STUCK_AFTER_MS the
//   service's fee wallet spends its change in a CPFP child that pays for both; they are mined in the
//   same block and the swap completes, the user paying the amount and nothing more;
// - spent elsewhere: while the transaction waits, the wallet "cancels" it (BIP125: the same coin
//   back to itself, paying more), so it can never confirm; the swap fails TX_REJECTED naming the
//   coin and the transaction that spent it.
// A stack of its own (private broker and database, the test run's devnet) whose signer-surface calls
// a transaction stuck after 3 s (the shared stack waits 10 min). The floor is the shared devnet's:
// e2e files run one at a time, and each test puts it back as it found it.
const STUCK_AFTER_MS = 3_000;
const devnet = new DevnetEvm();
const manifest = devnet.manifest as typeof devnet.manifest & { bitcoin: { esploraUrl: string } };
const esplora = new EsploraClient(manifest.bitcoin.esploraUrl);
const miner = new DevnetBitcoinMiner(manifest.bitcoin.esploraUrl);
/** Bitcoin test wallet 7, as the other Bitcoin suites (e2e files run one at a time). */
const bitcoin = new DevnetBitcoinWallets(esplora, () => bitcoinDevnetKey('wallet', 7));
/** The service's fee wallets on the devnet (m/84'/1'/1'/0/0-1). */
const FEE_WALLETS = [0, 1].map((index) => bitcoinDevnetKey('fee-wallet', index).address);
const WALLET_SATS = 3_000_000n;
const SWAP_SATS = 400_000n;

/** What a wallet and a block explorer see of a transaction: its fee rate in sat/vB. */
const feeRateOf = (tx: Pick<EsploraTransaction, 'fee' | 'weight'>): number => tx.fee / (tx.weight / 4);

describe('a Bitcoin swap under the miner fee floor is fee-bumped by CPFP and completes; one whose input the wallet spent elsewhere fails with its reason', () => {
  const receiver = new WebhookReceiver();
  const streams: SseStream[] = [];
  let stack: PrivateStack;
  let gatewayUrl: string;
  let key: string;
  let client: ApiClient;
  let openApi: OpenApiValidator;
  let webhook: { id: string; secret: string };
  /** One funded wallet per test, paid while the stack starts. */
  let wallets: BitcoinWallet[];

  const documented = (method: string, path: string, res: ApiResponse): ApiResponse => {
    expect(openApi.check(method, path, res.status, res.body)).toEqual({ valid: true, problems: [] });
    return res;
  };

  beforeAll(async () => {
    const [started, receiverUrl, funded] = await Promise.all([
      startPrivateStack('btcstuck', {
        appEnv: { 'signer-surface': { BITCOIN_STUCK_AFTER_MS: String(STUCK_AFTER_MS) } },
      }),
      receiver.start(),
      // One after the other: both are paid from the funder's coins.
      (async () => [
        await bitcoin.freshWalletWith(WALLET_SATS),
        await bitcoin.freshWalletWith(WALLET_SATS),
      ])(),
    ]);
    wallets = funded;
    stack = started;
    gatewayUrl = stack.stack.gatewayUrl!;
    key = await stack.createApiKey('bitcoin-stuck-e2e');
    client = api(gatewayUrl, key);
    openApi = await OpenApiValidator.fetch(gatewayUrl);
    // Every event type: the receiver gets all the gateway pushes for the owner's swaps.
    const created = documented(
      'POST',
      '/api/v1/webhooks',
      await client.post('/webhooks', { url: `${receiverUrl}/swaps` }),
    );
    expect(created.status).toBe(201);
    webhook = created.body.data as { id: string; secret: string };
  }, 600_000);

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.drop()));
    await stack?.stop();
    await receiver.stop();
    devnet.destroy();
  }, 180_000);

  /**
   * A fresh native SegWit wallet's BTC → USDC swap on devnet-a, built, its SSE stream open from the
   * first event, and its PSBT signed by the wallet (not yet submitted).
   */
  async function signedSwap(wallet: BitcoinWallet) {
    expect(await bitcoin.satsOf(wallet.address)).toBe(WALLET_SATS);
    const recipient = Wallet.createRandom().address;
    const swapId = await buildBtcForUsdcOnA({ client }, wallet.address, recipient);
    const stream = await openSseStream(`${gatewayUrl}/swap/${swapId}/events`, key);
    streams.push(stream);
    expect(stream.status).toBe(200);
    const ready = await nextSigning({ client }, swapId, 0);
    expect(ready.status).toBe(200);
    const { payload, executionHints } = ready.body.data.signing as {
      payload: PsbtPayload;
      executionHints: { feeRateSatPerVbyte: string; minerFeePaidBy: string };
    };
    expect(executionHints.minerFeePaidBy).toBe('service');
    const signed = signPsbt(payload, wallet);
    return {
      swapId,
      wallet,
      stream,
      signed,
      txid: signed.id,
      /** What the service priced the transaction at when it built it. */
      builtFeeRate: Number(executionHints.feeRateSatPerVbyte),
    };
  }

  const submit = async (swapId: string, signed: btc.Transaction, txid: string) => {
    const res = documented(
      'POST',
      `/swap/${swapId}/signing`,
      await submitSigned({ client }, swapId, Buffer.from(signed.toPSBT()).toString('base64')),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ swapId, status: 'submitted', txHash: txid });
  };

  /** The SSE stream once the server ended it after the terminal event. */
  const endedEvents = async (swapId: string, stream: SseStream): Promise<SseEvent[]> => {
    await waitFor(() => stream.isEnded(), {
      timeoutMs: 60_000,
      intervalMs: 200,
      description: `the event stream of swap ${swapId} to end`,
    });
    return stream.events;
  };

  /** The webhook deliveries of a swap once `terminal` arrived, one per delivery id, each verified. */
  const deliveriesOf = async (swapId: string, terminal: string): Promise<Received[]> => {
    const deliveries = await receiver.swapDeliveries(swapId, terminal);
    for (const delivery of deliveries) {
      expect(delivery.path).toBe('/swaps');
      expect(WebhookReceiver.verify(webhook.secret, delivery)).toEqual(delivery.body);
    }
    return deliveries;
  };

  /** A floor the built transaction pays well under: what a fee spike after the build does. */
  const floorAbove = (builtFeeRate: number) => Math.max(10, Math.ceil(builtFeeRate) * 5);

  it('under the fee floor: the transaction waits unmined, the fee wallet CPFPs it after the stuck delay, both are mined together and the swap completes', async () => {
    const { swapId, wallet, stream, signed, txid, builtFeeRate } = await signedSwap(wallets[0]);
    const floor = floorAbove(builtFeeRate);

    const { parent, child } = await miner.withMinFeeRate(floor, async () => {
      const submittedAtMs = Date.now();
      await submit(swapId, signed, txid);
      // Blocks keep coming without it: it pays under the floor.
      const tip = await esplora.tipHeight();
      await waitFor(async () => ((await esplora.tipHeight()) >= tip + 2 ? true : undefined), {
        timeoutMs: 15_000,
        intervalMs: 200,
        description: 'two Bitcoin blocks mined after the broadcast',
      });
      const waiting = await esplora.json<EsploraTransaction>(`/tx/${txid}`);
      expect(waiting.status.confirmed).toBe(false);
      expect(feeRateOf(waiting)).toBeLessThan(floor);
      // The fee wallet's change is its last output: the child spends it.
      const changeVout = waiting.vout.length - 1;
      expect(FEE_WALLETS).toContain(waiting.vout[changeVout].scriptpubkey_address);
      const spend = await waitFor(
        async () => {
          const outspend = await esplora.json<{ spent: boolean; txid?: string }>(
            `/tx/${txid}/outspend/${changeVout}`,
          );
          return outspend.spent ? outspend.txid! : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200, description: `a CPFP child of ${txid}` },
      );
      // Not before the transaction was stuck for BITCOIN_STUCK_AFTER_MS.
      expect(Date.now() - submittedAtMs).toBeGreaterThanOrEqual(STUCK_AFTER_MS);
      await bitcoin.confirmed(spend);
      return {
        parent: await esplora.json<EsploraTransaction>(`/tx/${txid}`),
        child: await esplora.json<EsploraTransaction>(`/tx/${spend}`),
      };
    });

    // The child: the fee wallet's change back to the fee wallet, paying for the pair at the floor or above.
    expect(child.vin.map((input) => `${input.txid}:${input.vout}`)).toEqual([
      `${txid}:${parent.vout.length - 1}`,
    ]);
    expect(child.vout.map((output) => output.scriptpubkey_address)).toEqual([
      parent.vout[parent.vout.length - 1].scriptpubkey_address,
    ]);
    expect((parent.fee + child.fee) / ((parent.weight + child.weight) / 4)).toBeGreaterThanOrEqual(floor);
    // Mined together, the parent first.
    expect(parent.status).toMatchObject({ confirmed: true, block_height: child.status.block_height });
    const blockTxids = await esplora.json<string[]>(`/block/${parent.status.block_hash}/txids`);
    expect(blockTxids.indexOf(txid)).toBeLessThan(blockTxids.indexOf(child.txid));
    // The wallet paid the amount swapped and nothing else: the bump was the service's.
    expect(await bitcoin.satsOf(wallet.address)).toBe(WALLET_SATS - SWAP_SATS);

    // --- The stream: submitted, in a block, confirmed, completed; only ever the wallet's txid.
    const events = await endedEvents(swapId, stream);
    const named = (name: string) => events.filter((e) => e.event === name);
    expect(events[events.length - 1]).toMatchObject({
      event: 'swap.completed',
      data: { swapId, status: 'completed', lastTxHash: txid },
    });
    expect(named('swap.failed')).toEqual([]);
    expect(named('swap.step-submitted').map((e) => e.data.transaction)).toEqual([
      expect.objectContaining({ chain: 'bitcoin-devnet', txHash: txid, confirmations: 0 }),
    ]);
    const confirming = named('swap.step-confirming');
    expect(confirming.length).toBeGreaterThanOrEqual(1);
    for (const event of confirming)
      expect(event.data.transaction).toMatchObject({ chain: 'bitcoin-devnet', txHash: txid });
    expect(named('swap.step-confirmed').map((e) => e.data.lastTxHash)).toEqual([txid]);
    const order = events.map((e) => e.event);
    expect(order.indexOf('swap.step-submitted')).toBeLessThan(order.indexOf('swap.step-confirming'));
    expect(order.indexOf('swap.step-confirming')).toBeLessThan(order.indexOf('swap.step-confirmed'));
    const txidsShown = events.flatMap((e) =>
      [e.data.transaction?.txHash, e.data.lastTxHash].filter((h): h is string => h !== undefined),
    );
    expect(new Set(txidsShown)).toEqual(new Set([txid]));

    // --- The webhook: the same step, broadcast then confirmed, and the swap completed.
    const deliveries = await deliveriesOf(swapId, 'swap.completed');
    const byType = expectCompletedBitcoinSwapDeliveries(deliveries, swapId, txid);
    expect(byType.get('swap.step-confirmed')!.body.data).toEqual({
      swapId,
      status: 'completed',
      step: { current: 1, total: 1 },
      chain: 'bitcoin-devnet',
      txHash: txid,
    });

    // --- GET /swap: completed, the step confirmed with the wallet's txid.
    const read = documented('GET', `/swap/${swapId}`, await client.get(`/swap/${swapId}`));
    expect(read.body.data).toMatchObject({ swapId, status: 'completed', failure: null });
    expect(read.body.data.steps).toEqual([
      expect.objectContaining({ chain: 'bitcoin-devnet', status: 'confirmed', txHash: txid }),
    ]);
  });

  it('spent elsewhere: the wallet cancels the waiting transaction (its coin back to itself), the swap fails TX_REJECTED naming the coin and the spender', async () => {
    const { swapId, wallet, stream, signed, txid, builtFeeRate } = await signedSwap(wallets[1]);
    const input = signed.getInput(0);
    const coin = {
      txid: Buffer.from(input.txid!).toString('hex'),
      vout: input.index!,
      value: input.witnessUtxo!.amount,
    };
    expect(coin.value).toBe(WALLET_SATS);
    const cancelFee = 20_000n;

    const cancel = await miner.withMinFeeRate(floorAbove(builtFeeRate), async () => {
      await submit(swapId, signed, txid);
      expect((await esplora.json<EsploraTransaction>(`/tx/${txid}`)).status.confirmed).toBe(false);
      // The wallet's "cancel": the node takes it in place of the swap's transaction (BIP125).
      const replacement = spendBackToSelf(wallet, coin, cancelFee);
      expect(await esplora.broadcast(replacement.hex)).toBe(replacement.txid);
      await bitcoin.confirmed(replacement.txid);
      return replacement;
    });
    // The node no longer knows the swap's transaction; the coin is spent by the cancel.
    await expect(esplora.json(`/tx/${txid}`)).rejects.toMatchObject({ status: 404 });
    expect(await esplora.json(`/tx/${coin.txid}/outspend/${coin.vout}`)).toMatchObject({
      spent: true,
      txid: cancel.txid,
    });
    const message = `input ${coin.txid}:${coin.vout} of Bitcoin transaction ${txid} was spent by transaction ${cancel.txid} (the wallet spent it elsewhere or replaced this transaction): it can never confirm`;

    // --- GET /swap: failed, with the reason code and what happened.
    const failed = await waitFor(
      async () => {
        const read = documented('GET', `/swap/${swapId}`, await client.get(`/swap/${swapId}`));
        return read.body.data.status === 'failed' ? read.body.data : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 300, description: `swap ${swapId} failed` },
    );
    expect(failed.failure).toEqual({
      reason: 'TX_REJECTED',
      details: {
        step: { current: 1, total: 1 },
        chain: 'bitcoin-devnet',
        kind: 'bridge',
        message,
        txHash: txid,
      },
    });
    expect(failed.steps).toEqual([
      expect.objectContaining({ chain: 'bitcoin-devnet', status: 'failed', txHash: txid }),
    ]);
    // Nothing of the swap moved: the wallet holds its coin less the cancel's fee, which it chose.
    expect(await bitcoin.satsOf(wallet.address)).toBe(WALLET_SATS - cancelFee);
    const terminal = await nextSigning({ client }, swapId, 1);
    expect(terminal.status).toBe(409);
    expect(terminal.body.error).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'failed' } });

    // --- The stream: submitted, then failed with the same reason; never confirmed.
    const events = await endedEvents(swapId, stream);
    const names = events.map((e) => e.event);
    expect(names).toContain('swap.step-submitted');
    expect(names).not.toContain('swap.step-confirmed');
    expect(names).not.toContain('swap.completed');
    expect(events[events.length - 1]).toMatchObject({
      event: 'swap.failed',
      data: {
        swapId,
        status: 'failed',
        reason: 'TX_REJECTED',
        details: expect.objectContaining({ message, txHash: txid }),
      },
    });

    // --- The webhook: swap.failed with the reason, after the step was broadcast.
    const deliveries = await deliveriesOf(swapId, 'swap.failed');
    expect(deliveries.map((d) => d.body.type).sort()).toEqual([
      'swap.created',
      'swap.failed',
      'swap.payload-ready',
      'swap.step-submitted',
    ]);
    expect(deliveries.find((d) => d.body.type === 'swap.failed')!.body.data).toMatchObject({
      swapId,
      status: 'failed',
      reason: 'TX_REJECTED',
      details: expect.objectContaining({ message, txHash: txid }),
    });
  });
});
