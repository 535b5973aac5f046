import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChainDescriptor } from '@swapgw/chains';
import {
  parseThorchainSwapMemo,
  readTxStatus,
  thorchainAssetMatches,
  thorchainAssetOf,
  opReturnScript,
  thorchainSwapProgress,
  usdcForSats,
} from '@swapgw/chains/bitcoin-bridge';
import { SystemClock } from '@swapgw/runtime';
import {
  bitcoinDevnetKey,
  BitcoinDevnetHandle,
  EsploraClient,
  LocalThornode,
  signPayment,
  startBitcoinDevnet,
} from '@swapgw/devnet';
import { NoRouteError } from '../no-route.error';
import type { QuoteContext } from '../quote-provider';
import { ThorchainProvider } from './thorchain.provider';
import { ThornodeClient } from './thornode-client';
import { depositMemoOf, devnetBitcoin, realNetwork } from './thorchain-test-support';

// The THORChain adapter against the devnet's local THORNode (libs/devnet), over HTTP, in front of
// the real local Bitcoin chain: the same API, answers and error answers as THORNode's.

const ETH_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
/** THORChain's router on Ethereum (v4.1.1), as inbound_addresses names it. */
const ETH_ROUTER = '0xD37BbE5744D730a1d98d8DC97c42F0Ca46aD7146';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const ethereum = realNetwork('ethereum');

describe('THORChain adapter against the local THORNode', () => {
  let bitcoin: BitcoinDevnetHandle;
  let thornode: LocalThornode;
  let url: string;
  let esplora: EsploraClient;
  let provider: ThorchainProvider;
  let client: ThornodeClient;
  let bitcoinChain: ChainDescriptor;
  const signal = new AbortController().signal;

  const contextOf = (amountIn: bigint): QuoteContext => ({
    fromChain: bitcoinChain,
    toChain: ethereum,
    tokenIn: { chain: bitcoinChain.id, symbol: 'BTC', address: null, decimals: 8 },
    tokenOut: { chain: 'ethereum', symbol: 'USDC', address: ETH_USDC, decimals: 6 },
    amountIn,
    recipient: RECIPIENT,
  });
  const setTrading = async (flags: Record<string, unknown>) => {
    const response = await fetch(`${url}/devnet/thornode/trading`, {
      method: 'POST',
      body: JSON.stringify(flags),
    });
    expect(response.status).toBe(200);
  };
  const noRouteOf = async (promise: Promise<unknown>): Promise<NoRouteError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NoRouteError);
    return error as NoRouteError;
  };
  const statusOf = async (hash: string) => {
    const response = await fetch(`${url}/thorchain/tx/status/${hash}`);
    expect(response.status).toBe(200);
    return readTxStatus(await response.json());
  };

  beforeAll(async () => {
    bitcoin = await startBitcoinDevnet({ port: 0, blockMs: 200, bridgeFeeBps: 5 });
    esplora = new EsploraClient(bitcoin.manifest.esploraUrl);
    await fetch(`${bitcoin.manifest.esploraUrl}/devnet/miner/pause`, { method: 'POST' });
    thornode = new LocalThornode({
      bitcoin: {
        vault: bitcoin.manifest.bridge!.vault,
        terms: bitcoin.manifest.bridge!,
        esplora,
        blockMs: 200,
      },
      destinations: [
        {
          prefix: 'ETH',
          asset: thorchainAssetOf('ETH', { symbol: 'USDC', address: ETH_USDC }),
          decimals: 6,
          inboundAddress: ETH_ROUTER,
        },
      ],
      estimatedDurationSeconds: 30,
    });
    url = `http://127.0.0.1:${await thornode.listen(0)}`;
    client = new ThornodeClient(url);
    provider = new ThorchainProvider(client, new SystemClock(), { affiliate: 'sg', affiliateBps: 10 });
    bitcoinChain = devnetBitcoin(bitcoin.manifest);
  }, 60_000);
  afterAll(async () => {
    await thornode?.close();
    await bitcoin?.stop();
  });

  it('quotes BTC to USDC: one deposit to the vault, at the bridge price less the affiliate fee', async () => {
    expect(provider.applies(contextOf(1_000_000n))).toBe(true);
    const [route] = await provider.quote(contextOf(1_000_000n), signal);
    const [leg] = route.legs;
    // 10 bps of 0.01 BTC go to the affiliate; the rest is swapped at 90,000 USDC per BTC less 5 bps.
    const expected = usdcForSats(1_000_000n - 1_000n, bitcoin.manifest.bridge!);
    expect(route.expectedAmountOut).toBe(expected);
    expect(leg).toMatchObject({
      provider: 'thorchain',
      spender: bitcoin.manifest.bridge!.vault,
      destinationChain: 'ethereum',
      amountIn: '1000000',
      thorchain: {
        asset: 'ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
        affiliates: [{ name: 'sg', bps: 10 }],
      },
    });
    expect(leg.thorchain!.expiry).toBeGreaterThan(Date.now() / 1000 + 600);
  });

  it("lists its pools as THORNode does: BTC.BTC and the destination's USDC, Available, BTC at the bridge's price", async () => {
    const pools = await client.pools(signal);
    expect(pools.map((p) => [p.asset, p.status])).toEqual([
      ['BTC.BTC', 'Available'],
      ['ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48', 'Available'],
    ]);
    const [btcPool, usdcPool] = pools;
    expect(btcPool).toMatchObject({ decimals: 8, pending_inbound_asset: '0', synth_supply: '0' });
    expect(usdcPool.decimals).toBe(6);
    // RUNE per BTC over RUNE per USDC: USDC per BTC, the bridge's price (1e8 units on every side).
    const usdcPerBtc =
      (BigInt(btcPool.balance_rune) * BigInt(usdcPool.balance_asset)) /
      (BigInt(btcPool.balance_asset) * BigInt(usdcPool.balance_rune));
    expect(usdcPerBtc).toBe(BigInt(bitcoin.manifest.bridge!.usdcPerBtc));
    for (const pool of pools)
      expect(BigInt(pool.pool_units)).toBe(BigInt(pool.LP_units) + BigInt(pool.synth_units));
  });

  it('writes the deposit memo THORNode would: same asset, destination and affiliate as its quote’s memo', async () => {
    const [route] = await provider.quote(contextOf(2_000_000n), signal);
    const [leg] = route.legs;
    const thornodeQuote = await client.quoteSwap(
      {
        from_asset: 'BTC.BTC',
        to_asset: leg.thorchain!.asset,
        amount: 2_000_000n,
        destination: RECIPIENT,
        affiliate: 'sg',
        affiliate_bps: '10',
      },
      signal,
    );
    const ours = parseThorchainSwapMemo(depositMemoOf(leg, RECIPIENT))!;
    const theirs = parseThorchainSwapMemo(thornodeQuote.memo!)!;
    expect(thorchainAssetMatches(ours.asset, theirs.asset)).toBe(true);
    expect({ ...ours, asset: theirs.asset, limit: 0n }).toEqual({ ...theirs, limit: 0n });
    expect(ours.limit).toBeGreaterThan(0n);
  });

  it("pays an integrator's THORName after the operator's: THORNode quoted for the gross amount with both affiliates, its memo the deposit's; a thor1 address does not fit Bitcoin's memo", async () => {
    const gross = 2_000_000n;
    const charge = {
      recipient: 'wl',
      bps: 25,
      amount: (gross * 25n) / 10_000n,
      thorchainAffiliate: true as const,
    };
    const context = {
      ...contextOf(gross - charge.amount),
      integratorFee: { grossAmountIn: gross, charges: [charge] },
    };
    const [route] = await provider.quote(context, signal);
    // 10 + 25 bps of the whole 0.02 BTC go to the affiliates; THORChain swaps the rest.
    expect(route.expectedAmountOut).toBe(
      usdcForSats(gross - (gross * 35n) / 10_000n, bitcoin.manifest.bridge!),
    );
    expect(route.integratorFee).toEqual([charge]);
    const [leg] = route.legs;
    expect(leg.thorchain?.affiliates).toEqual([
      { name: 'sg', bps: 10 },
      { name: 'wl', bps: 25 },
    ]);
    const thornodeQuote = await client.quoteSwap(
      {
        from_asset: 'BTC.BTC',
        to_asset: leg.thorchain!.asset,
        amount: gross,
        destination: RECIPIENT,
        affiliate: 'sg/wl',
        affiliate_bps: '10/25',
      },
      signal,
    );
    const theirs = parseThorchainSwapMemo(thornodeQuote.memo!)!;
    expect(theirs.affiliates).toEqual(leg.thorchain?.affiliates);
    expect(parseThorchainSwapMemo(depositMemoOf(leg, RECIPIENT))?.affiliates).toEqual(theirs.affiliates);

    const thor1 = { ...charge, recipient: 'thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq' };
    const tooLong = await noRouteOf(
      provider.quote({ ...context, integratorFee: { grossAmountIn: gross, charges: [thor1] } }, signal),
    );
    expect(tooLong.reason).toBe('INTEGRATOR_FEE_NOT_SUPPORTED');
    expect(tooLong.message).toContain('generated memo too long for source chain');
  });

  it("reads the gRPC gateway's error shape newer THORNodes answer ({code, message, details}), as THORChain's docs show it", async () => {
    // The documented answer to a BTC quote whose affiliate is a thor1 address (THORChain's dev docs, "Errors").
    const server = http.createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 3,
          message: 'generated memo too long for source chain: invalid request',
          details: [],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const documented = new ThornodeClient(`http://127.0.0.1:${port}`);
      const error = await noRouteOf(
        documented.quoteSwap({ from_asset: 'BTC.BTC', to_asset: 'ETH.ETH', amount: 100_000_000n }, signal),
      );
      expect(error.reason).toBe('PAIR_NOT_SUPPORTED');
      expect(error.message).toContain('generated memo too long for source chain');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('has no route while Bitcoin or the destination is halted, and THORNode’s own halt answer maps the same way', async () => {
    await setTrading({ chain: 'BTC', halted: true });
    try {
      const error = await noRouteOf(provider.quote(contextOf(1_000_000n), signal));
      expect(error.reason).toBe('PAIR_NOT_SUPPORTED');
      expect(error.message).toContain('halted');
      const answer = await noRouteOf(
        client.quoteSwap(
          {
            from_asset: 'BTC.BTC',
            to_asset: 'ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
            amount: 1_000_000n,
          },
          signal,
        ),
      );
      expect(answer.reason).toBe('PAIR_NOT_SUPPORTED');
    } finally {
      await setTrading({ chain: 'BTC', halted: false });
    }
    await setTrading({ chain: 'ETH', chain_trading_paused: true });
    try {
      expect((await noRouteOf(provider.quote(contextOf(1_000_000n), signal))).message).toContain(
        'chain_trading_paused',
      );
    } finally {
      await setTrading({ chain: 'ETH', chain_trading_paused: false });
    }
    expect(await provider.quote(contextOf(1_000_000n), signal)).toHaveLength(1);
  });

  it('answers AMOUNT_TOO_LOW under the dust threshold, and maps THORNode’s error answers', async () => {
    const dust = await noRouteOf(provider.quote(contextOf(9_999n), signal));
    expect(dust).toMatchObject({ reason: 'AMOUNT_TOO_LOW', bounds: { minAmount: 10_000n } });
    const belowDust = await noRouteOf(
      client.quoteSwap(
        {
          from_asset: 'BTC.BTC',
          to_asset: 'ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
          amount: 5_000n,
        },
        signal,
      ),
    );
    expect(belowDust.reason).toBe('AMOUNT_TOO_LOW');
    const noPool = await noRouteOf(
      client.quoteSwap(
        {
          from_asset: 'BTC.BTC',
          to_asset: 'ETH.DAI-0X6B175474E89094C44DA98B954EEDEAC495271D0F',
          amount: 1_000_000n,
        },
        signal,
      ),
    );
    expect(noPool).toMatchObject({ reason: 'PAIR_NOT_SUPPORTED' });
    expect(noPool.message).toContain('does not exist');
  });

  it('follows a real deposit’s tx/status stages: not observed, confirming in the mempool, swapping once mined', async () => {
    const [route] = await provider.quote(contextOf(3_000_000n), signal);
    const [leg] = route.legs;
    const key = bitcoinDevnetKey('wallet', 4);
    const coins = (await esplora.utxos(key.address)).map((u) => ({
      txid: u.txid,
      vout: u.vout,
      value: BigInt(u.value),
    }));
    const memo = depositMemoOf(leg, RECIPIENT);
    const payment = signPayment({
      key,
      coins,
      outputs: [
        { address: leg.spender, amount: BigInt(leg.amountIn) },
        { script: opReturnScript(memo), amount: 0n },
      ],
      fee: 500n,
    });
    const txid = await esplora.broadcast(payment.hex);
    expect(thorchainSwapProgress(await statusOf('ab'.repeat(32))).phase).toBe('not-observed');

    const pending = await statusOf(txid);
    expect(thorchainSwapProgress(pending).phase).toBe('confirming');
    expect(pending.tx).toMatchObject({ id: txid.toUpperCase(), chain: 'BTC', to_address: leg.spender, memo });

    await fetch(`${bitcoin.manifest.esploraUrl}/devnet/mine`, { method: 'POST' });
    const mined = await statusOf(`0x${txid}`);
    expect(thorchainSwapProgress(mined).phase).toBe('swapping');
    expect(mined.planned_out_txs).toEqual([
      expect.objectContaining({ chain: 'ETH', to_address: RECIPIENT, refund: false }),
    ]);
  });
});
