import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChainDescriptor } from '@swapgw/chains';
import {
  opReturnScript,
  parseThorchainOutboundMemo,
  readTxStatus,
  thorchainSwapProgress,
  usdcForSats,
} from '@swapgw/chains/bitcoin-bridge';
import type { RouteLeg } from '@swapgw/contracts';
import {
  bitcoinDevnetKey,
  DEVNET_BRIDGE_ABI,
  devnetChain,
  devnetWallet,
  ERC20_PERMIT_ABI,
  EsploraClient,
  RunningDevnet,
  signPayment,
  startDevnet,
} from '@swapgw/devnet';
import { SystemClock } from '@swapgw/runtime';
import { freePort, waitFor } from '@swapgw/testing';
import { Contract, JsonRpcProvider } from 'ethers';
import type { QuoteContext } from '../quote-provider';
import { ThorchainProvider } from './thorchain.provider';
import { ThornodeClient } from './thornode-client';
import { depositMemoOf, devnetBitcoin } from './thorchain-test-support';

// The one THORChain adapter driving the devnet: quoted by the devnet's local THORNode (its URL and
// chain prefixes from the manifest, as quote-service reads them), the deposit built as the planner
// builds it (a payment to the inbound address with THORChain's memo), paid out by the relayer, which
// reads THORChain memos, on devnet-a.

describe('THORChain adapter on the devnet', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-devnet-thorchain-'));
  let devnet: RunningDevnet;
  let esplora: EsploraClient;
  let evm: JsonRpcProvider;
  let provider: ThorchainProvider;
  const signal = new AbortController().signal;

  const bitcoin = () => devnet.manifest.bitcoin;
  const chainA = () => devnetChain(devnet.manifest, 'devnet-a');
  const thornodeUrl = () => bitcoin().bridge.thornode!.url;
  const usdcA = () => new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, evm);
  const contextOf = (amountIn: bigint, recipient: string): QuoteContext => {
    const fromChain = devnetBitcoin(bitcoin());
    const toChain: ChainDescriptor = {
      id: chainA().id,
      name: chainA().name,
      family: 'evm',
      network: 'testnet',
      evmChainId: chainA().chainId,
      caip2: `eip155:${chainA().chainId}`,
      nativeSymbol: 'ETH',
      nativeDecimals: 18,
      devnet: true,
    };
    return {
      fromChain,
      toChain,
      tokenIn: { chain: fromChain.id, symbol: 'BTC', address: null, decimals: 8 },
      tokenOut: { chain: toChain.id, symbol: 'USDC', address: chainA().tokens.USDC.address, decimals: 6 },
      amountIn,
      recipient,
    };
  };
  const depositFor = async (leg: RouteLeg, sender: ReturnType<typeof bitcoinDevnetKey>, memo: string) => {
    const coins = (await esplora.utxos(sender.address))
      .filter((u) => u.status.confirmed)
      .map((u) => ({ txid: u.txid, vout: u.vout, value: BigInt(u.value) }));
    const payment = signPayment({
      key: sender,
      coins,
      outputs: [
        { address: leg.spender, amount: BigInt(leg.amountIn) },
        { script: opReturnScript(memo), amount: 0n },
      ],
      fee: 500n,
    });
    return esplora.broadcast(payment.hex);
  };
  const statusOf = async (txid: string) =>
    readTxStatus(await (await fetch(`${thornodeUrl()}/thorchain/tx/status/${txid}`)).json());

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath: path.join(workDir, 'manifest.json'),
      portA: await freePort(),
      portB: await freePort(),
      portSolana: await freePort(),
      portBitcoin: await freePort(),
      bitcoinBlockMs: 300,
    });
    esplora = new EsploraClient(bitcoin().esploraUrl);
    evm = new JsonRpcProvider(chainA().rpcUrl, chainA().chainId, { staticNetwork: true });
    provider = new ThorchainProvider(new ThornodeClient(thornodeUrl()), new SystemClock(), {
      chainPrefixes: bitcoin().bridge.thornode!.chains,
    });
  }, 120_000);

  afterAll(async () => {
    evm?.destroy();
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('names the local THORNode and its chain prefixes in the manifest', () => {
    expect(bitcoin().bridge.thornode).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      chains: { 'devnet-a': 'ETH', 'devnet-b': 'BASE' },
    });
  });

  it('swaps BTC for USDC on devnet-a: quoted by THORNode, deposited with its memo, paid by the relayer', async () => {
    const recipient = devnetWallet(devnet.manifest.mnemonic, 8).address;
    const [route] = await provider.quote(contextOf(10_000_000n, recipient), signal);
    const [leg] = route.legs;
    expect(leg).toMatchObject({
      provider: 'thorchain',
      spender: bitcoin().bridge.vault,
      destinationChain: 'devnet-a',
    });
    const expected = usdcForSats(10_000_000n, bitcoin().bridge);
    expect(route.expectedAmountOut).toBe(expected);

    const memo = depositMemoOf(leg, recipient, BigInt(leg.minAmountOut));
    expect(memo).toMatch(/^=:ETH\.USDC-[0-9A-F]{4,40}:0x/);
    const before = (await usdcA().balanceOf(recipient)) as bigint;
    const txid = await depositFor(leg, bitcoinDevnetKey('wallet', 5), memo);
    await waitFor(async () => ((await usdcA().balanceOf(recipient)) as bigint) === before + expected, {
      timeoutMs: bitcoin().bridge.estimatedDurationSeconds * 1000 + 5_000,
      intervalMs: 100,
      description: `${expected} USDC units paid to ${recipient} on devnet-a`,
    });
    // THORNode's stages to the outbound: observed, counted, finalised, swapped, the payout signed
    // and listed as THORChain lists it (the release's hash, memo OUT:<inbound hash>).
    const status = await statusOf(txid);
    expect(status.stages).toMatchObject({
      inbound_observed: { completed: true },
      inbound_confirmation_counted: { completed: true },
      inbound_finalised: { completed: true },
      swap_status: { pending: false },
      swap_finalised: { completed: true },
      outbound_signed: { completed: true },
    });
    expect(status.planned_out_txs).toEqual([
      expect.objectContaining({ chain: 'ETH', to_address: recipient, refund: false }),
    ]);
    // The relayer's release on devnet-a, under the Bitcoin bridge's chain id with the txid as nonce.
    const bridgeA = new Contract(chainA().bridge.address, DEVNET_BRIDGE_ABI, evm);
    const [release] = await bridgeA.queryFilter(
      bridgeA.filters.Release(bitcoin().bridge.chainId, BigInt(`0x${txid}`)),
    );
    expect(status.out_txs).toEqual([
      expect.objectContaining({
        id: release.transactionHash.slice(2).toUpperCase(),
        chain: 'ETH',
        to_address: recipient,
        memo: `OUT:${txid.toUpperCase()}`,
        coins: [{ asset: expect.stringMatching(/^ETH\.USDC-0X/), amount: (expected * 100n).toString() }],
      }),
    ]);
    expect(thorchainSwapProgress(status)).toEqual({
      phase: 'completed',
      outTxIds: [release.transactionHash.slice(2).toUpperCase()],
    });
  });

  it('refunds, with THORChain’s REFUND memo, a deposit whose limit the swap cannot meet', async () => {
    const recipient = devnetWallet(devnet.manifest.mnemonic, 8).address;
    const [route] = await provider.quote(contextOf(2_000_000n, recipient), signal);
    const [leg] = route.legs;
    // A limit 1 % above what the swap pays.
    const memo = depositMemoOf(leg, recipient, (BigInt(leg.expectedAmountOut) * 101n) / 100n);
    const sender = bitcoinDevnetKey('wallet', 6);
    const txid = await depositFor(leg, sender, memo);
    const refund = await waitFor(
      async () => {
        const txs = (
          await esplora.json<
            {
              txid: string;
              vout: {
                scriptpubkey_type: string;
                scriptpubkey: string;
                scriptpubkey_address?: string;
                value: number;
              }[];
            }[]
          >(`/address/${sender.address}/txs/mempool`)
        ).concat(await esplora.json(`/address/${sender.address}/txs/chain`));
        return txs.find((tx) =>
          tx.vout.some(
            (o) =>
              o.scriptpubkey_type === 'op_return' &&
              parseThorchainOutboundMemo(Buffer.from(o.scriptpubkey.slice(4), 'hex').toString('utf8'))
                ?.inboundHash === txid.toUpperCase(),
          ),
        );
      },
      {
        timeoutMs: bitcoin().bridge.estimatedDurationSeconds * 1000 + 5_000,
        intervalMs: 200,
        description: 'the refund',
      },
    );
    const paidBack = refund.vout.find((o) => o.scriptpubkey_address === sender.address)!;
    expect(BigInt(paidBack.value)).toBe(2_000_000n - BigInt(bitcoin().bridge.outboundFeeSats));
    // THORNode's status ends refunded, the refund its one outbound.
    const status = await statusOf(txid);
    expect(status.planned_out_txs).toEqual([
      expect.objectContaining({ chain: 'BTC', to_address: sender.address, refund: true }),
    ]);
    expect(status.out_txs).toEqual([
      expect.objectContaining({
        id: refund.txid.toUpperCase(),
        memo: `REFUND:${txid.toUpperCase()}`,
        coins: [{ asset: 'BTC.BTC', amount: paidBack.value.toString() }],
      }),
    ]);
    expect(thorchainSwapProgress(status)).toEqual({
      phase: 'refunded',
      outTxIds: [refund.txid.toUpperCase()],
    });
  });
});
