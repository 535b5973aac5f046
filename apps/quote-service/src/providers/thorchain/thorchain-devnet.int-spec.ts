import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { thorchainRouterDeposit, type ChainDescriptor } from '@swapgw/chains';
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
  DEVNET_THORCHAIN_ROUTER,
  satsForRouterDeposit,
  THORCHAIN_ROUTER_ABI,
  THORCHAIN_VAULT_INDEX,
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
import { Contract, getAddress, JsonRpcProvider, Wallet } from 'ethers';
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

  describe('USDC on devnet-a into Bitcoin, through THORChain’s router', () => {
    const intoBitcoin = (amountIn: bigint, recipient: string): QuoteContext => {
      const { fromChain, toChain, tokenIn, tokenOut } = contextOf(amountIn, recipient);
      return {
        fromChain: toChain,
        toChain: fromChain,
        tokenIn: tokenOut,
        tokenOut: tokenIn,
        amountIn,
        recipient,
      };
    };
    /** The wallet's two transactions, as the planner builds them: approve the router, depositWithExpiry. */
    const depositThroughRouter = async (leg: RouteLeg, wallet: Wallet, recipient: string, minOut: bigint) => {
      const usdc = new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, wallet);
      const nonce = await evm.getTransactionCount(wallet.address, 'pending');
      await (await usdc.approve(leg.spender, BigInt(leg.amountIn), { nonce })).wait();
      const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);
      const call = thorchainRouterDeposit(leg, BigInt(leg.amountIn), minOut, recipient, deadline);
      const sent = await wallet.sendTransaction({
        to: call.to,
        data: call.data,
        value: BigInt(call.value),
        nonce: nonce + 1,
      });
      const receipt = await sent.wait();
      expect(receipt?.status).toBe(1);
      return sent.hash;
    };
    const userA = (index: number) =>
      new Wallet(devnetWallet(devnet.manifest.mnemonic, index).privateKey, evm);

    it('quotes ETH.USDC to BTC.BTC with the vault and the router, and pays BTC for the router’s Deposit', async () => {
      const recipient = bitcoinDevnetKey('wallet', 7).address;
      const amountIn = 900_000_000n; // 900 USDC
      const [route] = await provider.quote(intoBitcoin(amountIn, recipient), signal);
      const [leg] = route.legs;
      const vault = devnetWallet(devnet.manifest.mnemonic, THORCHAIN_VAULT_INDEX).address;
      expect(leg).toMatchObject({
        provider: 'thorchain',
        chain: 'devnet-a',
        spender: DEVNET_THORCHAIN_ROUTER,
        destinationChain: bitcoin().id,
        thorchain: { asset: 'BTC.BTC', inboundAddress: vault },
      });
      const expected = satsForRouterDeposit(amountIn, bitcoin().bridge);
      expect(route.expectedAmountOut).toBe(expected);

      const hash = await depositThroughRouter(leg, userA(7), recipient, BigInt(leg.minAmountOut));
      const router = new Contract(DEVNET_THORCHAIN_ROUTER, THORCHAIN_ROUTER_ABI, evm);
      const [deposit] = await router.queryFilter(router.filters.Deposit(vault), -1);
      expect(deposit).toMatchObject({ transactionHash: hash });

      const status = await waitFor(
        async () => {
          const answer = await statusOf(hash);
          return answer.out_txs?.length ? answer : undefined;
        },
        {
          timeoutMs: bitcoin().bridge.estimatedDurationSeconds * 1000 + 10_000,
          intervalMs: 200,
          description: 'THORNode listing the BTC outbound',
        },
      );
      const [out] = status.out_txs ?? [];
      expect(out).toMatchObject({
        chain: 'BTC',
        to_address: recipient,
        memo: `OUT:${hash.slice(2).toUpperCase()}`,
        coins: [{ asset: 'BTC.BTC', amount: expected.toString() }],
      });
      expect(status.tx).toMatchObject({ chain: 'ETH', to_address: vault.toLowerCase() });
      expect(thorchainSwapProgress(status).phase).toBe('completed');
      const payout = await esplora.json<{ vout: { scriptpubkey_address?: string; value: number }[] }>(
        `/tx/${out.id!.toLowerCase()}`,
      );
      expect(payout.vout.find((o) => o.scriptpubkey_address === recipient)?.value).toBe(Number(expected));
    });

    it('refunds through the router’s transferOut, with REFUND:<hash>, a deposit under its limit', async () => {
      const recipient = bitcoinDevnetKey('wallet', 7).address;
      const amountIn = 90_000_000n; // 90 USDC
      const [route] = await provider.quote(intoBitcoin(amountIn, recipient), signal);
      const [leg] = route.legs;
      const wallet = userA(6);
      const usdc = new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, evm);
      const before = (await usdc.balanceOf(wallet.address)) as bigint;
      // A limit 1 % above what the swap pays.
      const hash = await depositThroughRouter(
        leg,
        wallet,
        recipient,
        (BigInt(leg.expectedAmountOut) * 101n) / 100n,
      );
      const status = await waitFor(
        async () => {
          const answer = await statusOf(hash);
          return answer.out_txs?.length ? answer : undefined;
        },
        {
          timeoutMs: bitcoin().bridge.estimatedDurationSeconds * 1000 + 10_000,
          intervalMs: 200,
          description: 'THORNode listing the refund',
        },
      );
      expect(status.planned_out_txs).toEqual([
        expect.objectContaining({ chain: 'ETH', to_address: wallet.address.toLowerCase(), refund: true }),
      ]);
      expect(status.out_txs?.[0]).toMatchObject({ memo: `REFUND:${hash.slice(2).toUpperCase()}` });
      expect(thorchainSwapProgress(status).phase).toBe('refunded');
      expect((await usdc.balanceOf(wallet.address)) as bigint).toBe(before);
      expect(getAddress(status.planned_out_txs![0].to_address)).toBe(wallet.address);
    });
  });
});
