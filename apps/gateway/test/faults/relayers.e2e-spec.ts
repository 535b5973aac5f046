import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Contract, JsonRpcProvider, Transaction, Wallet } from 'ethers';
import { ethersTypedDataArgs, TypedDataV4 } from '@swapgw/chains';
import { devnetWallet, loadDevnetManifest, RunningDevnet, startDevnet } from '@swapgw/devnet';
import { dropDatabase, ensureDatabase } from '@swapgw/persistence';
import {
  api,
  ApiClient,
  ApiResponse,
  createApiKey,
  freePort,
  KafkaBroker,
  Stack,
  startKafkaBroker,
  startStack,
  testEnv,
  waitFor,
} from '@swapgw/testing';
import { openSseStream } from '../support/sse-client';
import { privateDatabaseUrl } from './fault-support';

// Relayers under faults, with sponsored swaps in flight, on a stack and a devnet of their own (the
// chain restart and the fee spikes would hurt every other suite): a private Kafka broker, a fresh
// database and a private devnet that the test stops and starts again on the same ports while the
// five apps and the database keep running (what `npm start` did to the relayers before they
// reconciled their ledger with the chain). Every swap ends completed, or failed with a reason;
// the sponsorship ledger ends with nothing pending and no bid above a ceiling.
const env = testEnv();
const ETH = 10n ** 18n;
/** The devnet's relayer accounts (SPONSOR_RELAYER_INDICES), whose keys the test also holds. */
const RELAYER_INDICES = [12, 13, 14, 15];
/** Pays for the fresh wallets (funded with every token by the devnet). */
const FUNDER_INDEX = 6;
const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function nonces(address owner) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
];

interface SigningPayload {
  type: 'evm-transaction' | 'evm-typed-data';
  transaction?: Record<string, unknown> & { chainId: number };
  typedData?: TypedDataV4;
}

describe('relayers under faults, with sponsored swaps in flight', () => {
  const databaseUrl = privateDatabaseUrl('relayers', env.databaseUrl);
  const manifestPath = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-relayer-faults-')),
    'manifest.json',
  );
  let ports: { portA: number; portB: number; portSolana: number };
  let devnet: RunningDevnet;
  let broker: KafkaBroker;
  let stack: Stack;
  let client: ApiClient;
  let apiKey: string;
  let provider: JsonRpcProvider;
  let mnemonic: string;

  const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
  const startPrivateDevnet = () => startDevnet({ manifestPath, ...ports, logger: quiet });
  const rpc = (method: string, params: unknown[] = []) => provider.send(method, params);
  const chainA = () => devnet.manifest.chains.find((c) => c.id === 'devnet-a')!;
  const token = (symbol: string, runner: Wallet | JsonRpcProvider = provider) =>
    new Contract(chainA().tokens[symbol].address, ERC20, runner);
  const relayerWallets = () => RELAYER_INDICES.map((i) => devnetWallet(mnemonic, i));

  beforeAll(async () => {
    ports = { portA: await freePort(), portB: await freePort(), portSolana: await freePort() };
    await ensureDatabase(databaseUrl);
    // Both are kept as soon as each is up, so that afterAll stops the one that started when the
    // other did not (a devnet left running keeps jest from exiting).
    await Promise.all([
      startKafkaBroker().then((started) => (broker = started)),
      startPrivateDevnet().then((started) => (devnet = started)),
    ]);
    mnemonic = loadDevnetManifest(manifestPath).mnemonic;
    provider = new JsonRpcProvider(chainA().rpcUrl, chainA().chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const keys = relayerWallets().map((w) => w.privateKey);
    stack = await startStack({
      env: { KAFKA_BROKERS: broker.brokers, DATABASE_URL: databaseUrl, DEVNET_MANIFEST: manifestPath },
      appEnv: {
        'signer-surface': {
          RELAYER_KEYS: JSON.stringify({ 'devnet-a': keys, 'devnet-b': keys }),
          SPONSORSHIP_DAILY_BUDGET_WEI: String(10n * ETH),
          RELAYER_STUCK_AFTER_MS: '2000',
          RELAYER_RECONCILE_MS: '2000',
        },
        'quote-service': { QUOTE_TTL_MS: '600000' },
      },
    });
    apiKey = await createApiKey(`relayer-faults-${randomBytes(3).toString('hex')}`, {
      ...env.env,
      DATABASE_URL: databaseUrl,
    });
    client = api(stack.gatewayUrl!, apiKey);
  }, 600_000);

  afterEach(async () => {
    await rpc('evm_setAutomine', [true]);
  });

  afterAll(async () => {
    await stack?.stop();
    provider?.destroy();
    await Promise.allSettled([broker?.stop(), devnet?.stop()]);
    await dropDatabase(databaseUrl);
  }, 180_000);

  /** A new wallet holding `amount` of `symbol` on devnet-a and no ETH. */
  async function freshWalletWith(symbol: string, amount: bigint): Promise<Wallet> {
    const wallet = Wallet.createRandom() as unknown as Wallet;
    await fund(wallet.address, symbol, amount);
    return wallet;
  }

  async function fund(address: string, symbol: string, amount: bigint): Promise<void> {
    const funder = devnetWallet(mnemonic, FUNDER_INDEX).connect(provider);
    await (await token(symbol, funder as unknown as Wallet).getFunction('transfer')(address, amount)).wait();
  }

  /** Quote (same chain, devnet-a) and build, the service paying the gas; the swap id. */
  async function sponsoredSwap(
    wallet: Wallet,
    tokenIn: string,
    tokenOut: string,
    amount: string,
  ): Promise<string> {
    const quote = await client.post(
      '/quote',
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn, tokenOut, amount, slippageBps: 100 },
      { timeoutMs: 60_000 },
    );
    expect(quote.status).toBe(200);
    const build = await client.post(
      '/swap/build',
      {
        quoteId: quote.body.data.quoteId,
        routeId: quote.body.data.routes[0].routeId,
        userAddress: wallet.address,
        waitForTxRequestMs: 20_000,
      },
      { timeoutMs: 60_000 },
    );
    expect([200, 202]).toContain(build.status);
    return build.body.data.swapId as string;
  }

  /** The next step's payload (200) after `afterStep`, or the swap's end (409). */
  function nextSigning(swapId: string, afterStep: number): Promise<ApiResponse> {
    return waitFor(
      async () => {
        const res = await client.get(`/swap/${swapId}/signing`);
        if (res.status === 200 && res.body.data.signing.step.current > afterStep) return res;
        if (res.status === 409) return res;
        expect([200, 202]).toContain(res.status);
        return null;
      },
      { timeoutMs: 180_000, intervalMs: 300, description: `swap ${swapId} past step ${afterStep}` },
    );
  }

  /** What the wallet signs for an offered step: a typed-data signature or its own transaction. */
  async function sign(wallet: Wallet, payload: SigningPayload): Promise<string> {
    if (payload.type === 'evm-typed-data') {
      const { domain, types, value } = ethersTypedDataArgs(payload.typedData!);
      return wallet.signTypedData(domain, types, value);
    }
    return wallet.signTransaction(payload.transaction! as never);
  }

  async function submit(swapId: string, rawTx: string): Promise<ApiResponse> {
    return client.post(`/swap/${swapId}/signing`, { rawTx }, { timeoutMs: 60_000 });
  }

  /** Signs and submits every step offered after `afterStep` until the swap ends; its final resource. */
  async function finish(swapId: string, wallet: Wallet, afterStep: number): Promise<Record<string, unknown>> {
    let step = afterStep;
    for (;;) {
      const res = await nextSigning(swapId, step);
      if (res.status === 409) break;
      const { signing } = res.body.data;
      const submitted = await submit(swapId, await sign(wallet, signing.payload as SigningPayload));
      expect(submitted.status).toBe(200);
      step = signing.step.current as number;
    }
    const read = await client.get(`/swap/${swapId}`);
    expect(read.status).toBe(200);
    return read.body.data as Record<string, unknown>;
  }

  /** The first step's payload, signed. */
  async function signedFirstStep(swapId: string, wallet: Wallet): Promise<{ rawTx: string; step: number }> {
    const res = await nextSigning(swapId, 0);
    expect(res.status).toBe(200);
    const { signing } = res.body.data;
    return {
      rawTx: await sign(wallet, signing.payload as SigningPayload),
      step: signing.step.current as number,
    };
  }

  /** The sponsorship ledger, read straight from the stack's database. */
  async function ledgerOf(swapId?: string) {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{
        id: string;
        purpose: string;
        status: string;
        nonce: string;
        relayer: string;
        tx_hash: string;
        failure_code: string | null;
        max_fee_ceiling: string | null;
        attempts: Array<{ hash: string; maxFeePerGas: string; cancel?: boolean }>;
      }>(
        `SELECT "id", "purpose", "status", "nonce", "relayer", "tx_hash", "failure_code", "max_fee_ceiling", "attempts"
           FROM "signer"."sponsored_transactions" ${swapId ? 'WHERE "swap_id" = $1' : ''} ORDER BY "created_at"`,
        swapId ? [swapId] : [],
      );
      return rows;
    } finally {
      await db.end();
    }
  }

  /**
   * Wei the relayers spent on devnet-a outside the ledger (another sender on a relayer's key), on
   * the chain as it is now (a restarted devnet forgets it).
   */
  let spentOutsideLedger = 0n;

  /** What the relayers spent on devnet-a since its genesis (anvil funds them there). */
  async function relayersSpent(): Promise<bigint> {
    let spent = 0n;
    for (const relayer of relayerWallets()) {
      const genesis = BigInt((await rpc('eth_getBalance', [relayer.address, '0x0'])) as string);
      spent += genesis - BigInt((await rpc('eth_getBalance', [relayer.address, 'latest'])) as string);
    }
    return spent;
  }

  async function ledgerCostOnChainA(): Promise<bigint> {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ cost: string }>(
        `SELECT COALESCE(SUM("cost_wei"), 0)::text AS "cost" FROM "signer"."sponsored_transactions" WHERE "chain" = 'devnet-a'`,
      );
      return BigInt(rows[0].cost);
    } finally {
      await db.end();
    }
  }

  /**
   * Nothing pending, no attempt above its ceiling, and the ledger's cost is what the relayers'
   * balances dropped by (none paid twice, none paid unrecorded).
   */
  async function expectLedgerSettled(): Promise<void> {
    const rows = await waitFor(
      async () => {
        const all = await ledgerOf();
        return all.every((r) => r.status !== 'pending') ? all : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, description: 'no sponsored transaction pending' },
    );
    for (const row of rows) {
      if (row.max_fee_ceiling === null) continue;
      for (const attempt of row.attempts)
        expect(BigInt(attempt.maxFeePerGas)).toBeLessThanOrEqual(BigInt(row.max_fee_ceiling));
    }
    expect((await ledgerCostOnChainA()) + spentOutsideLedger).toBe(await relayersSpent());
  }

  it('a relayed transaction dropped from the mempool is sent again, and the swap completes', async () => {
    const wallet = await freshWalletWith('USDC', 20_000_000n);
    const swapId = await sponsoredSwap(wallet, 'USDC', 'WETH', '10');
    const first = await signedFirstStep(swapId, wallet);
    await rpc('evm_setAutomine', [false]);
    expect((await submit(swapId, first.rawTx)).status).toBe(200);
    await rpc('anvil_dropAllTransactions');
    expect(await rpc('txpool_content')).toMatchObject({ pending: {}, queued: {} });
    await rpc('evm_setAutomine', [true]);

    const swap = await finish(swapId, wallet, first.step);
    expect(swap).toMatchObject({ status: 'completed', failure: null });
    // The permit ran once: the token's permit nonce of the wallet is 1.
    expect(await token('USDC').getFunction('nonces')(wallet.address)).toBe(1n);
    expect(await token('USDC').getFunction('balanceOf')(wallet.address)).toBe(10_000_000n);
    expect((await ledgerOf(swapId)).map((r) => r.status)).toEqual(['confirmed', 'confirmed']);
    await expectLedgerSettled();
  });

  it("a relayer's nonce taken by another sender while the swap's transaction is pending: re-issued at a fresh nonce, and the swap completes", async () => {
    const wallet = await freshWalletWith('USDC', 20_000_000n);
    const swapId = await sponsoredSwap(wallet, 'USDC', 'WETH', '10');
    const first = await signedFirstStep(swapId, wallet);
    await rpc('evm_setAutomine', [false]);
    const submitted = await submit(swapId, first.rawTx);
    expect(submitted.status).toBe(200);
    const pooled = (await provider.getTransaction(submitted.body.data.txHash as string))!;
    const relayer = relayerWallets()
      .find((w) => w.address === pooled.from)!
      .connect(provider);
    // Another tool with the same key: same nonce, three times the fees, mined first.
    const foreign = Transaction.from(
      await relayer.signTransaction({
        type: 2,
        chainId: chainA().chainId,
        nonce: pooled.nonce,
        to: relayer.address,
        value: 0n,
        gasLimit: 21_000n,
        maxFeePerGas: pooled.maxFeePerGas! * 3n,
        maxPriorityFeePerGas: pooled.maxPriorityFeePerGas! * 3n,
      }),
    );
    await rpc('eth_sendRawTransaction', [foreign.serialized]);
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine');
    const foreignReceipt = (await provider.getTransactionReceipt(foreign.hash!))!;
    spentOutsideLedger += foreignReceipt.gasUsed * foreignReceipt.gasPrice;

    const swap = await finish(swapId, wallet, first.step);
    expect(swap).toMatchObject({ status: 'completed', failure: null });
    const [permit] = await ledgerOf(swapId);
    expect(permit.status).toBe('confirmed');
    expect(Number(permit.nonce)).toBeGreaterThan(pooled.nonce);
    expect(await token('USDC').getFunction('nonces')(wallet.address)).toBe(1n);
    await expectLedgerSettled();
  });

  it('a base fee spike beyond the ceiling: the relayers stop at the ceiling and cancel; the swap fails RELAY_FEE_CEILING once the fee is back down', async () => {
    const wallet = await freshWalletWith('USDC', 20_000_000n);
    const swapId = await sponsoredSwap(wallet, 'USDC', 'WETH', '10');
    const first = await signedFirstStep(swapId, wallet);
    await rpc('evm_setAutomine', [false]);
    const submitted = await submit(swapId, first.rawTx);
    expect(submitted.status).toBe(200);
    const pooled = (await provider.getTransaction(submitted.body.data.txHash as string))!;
    const baseFee = BigInt((await provider.getBlock('latest'))!.baseFeePerGas ?? 1n);
    // 1,000 times what the relayer bid, for 25 s of blocks: stuck delays of 2 s, bumps up to the
    // ceiling (3 × the first bid), then the cancel.
    const spike = pooled.maxFeePerGas! * 1_000n;
    const until = Date.now() + 25_000;
    while (Date.now() < until) {
      await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${spike.toString(16)}`]);
      await rpc('evm_mine');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const [held] = await ledgerOf(swapId);
    expect(held.status).toBe('pending');
    expect(held.attempts[held.attempts.length - 1].cancel).toBe(true);

    await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${baseFee.toString(16)}`]);
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine');
    const swap = await waitFor(
      async () => {
        const read = await client.get(`/swap/${swapId}`);
        return read.body.data.status === 'failed' ? (read.body.data as Record<string, unknown>) : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, description: `swap ${swapId} failed` },
    );
    expect(swap).toMatchObject({ status: 'failed', failure: { reason: 'RELAY_FEE_CEILING' } });
    // The integrator's stream says so too, with the reason (webhooks carry the same swap.failed).
    const stream = await openSseStream(`${stack.gatewayUrl!}/swap/${swapId}/events`, apiKey);
    await stream.ended;
    expect(stream.events.filter((e) => e.event === 'swap.failed').map((e) => e.data.reason)).toEqual([
      'RELAY_FEE_CEILING',
    ]);
    const [cancelled] = await ledgerOf(swapId);
    expect(cancelled).toMatchObject({ status: 'cancelled', failure_code: 'RELAY_FEE_CEILING' });
    // The permit never ran: the wallet's tokens and permit nonce are as they were.
    expect(await token('USDC').getFunction('nonces')(wallet.address)).toBe(0n);
    expect(await token('USDC').getFunction('balanceOf')(wallet.address)).toBe(20_000_000n);
    await expectLedgerSettled();
  });

  it('the gas-drop path with mining paused for 30 s: the submit answers at once, and the swap completes once blocks come', async () => {
    const amount = 10n ** 16n;
    const wallet = await freshWalletWith('WETH', 2n * amount);
    await rpc('evm_setAutomine', [false]);
    const pausedAt = Date.now();
    const swapId = await sponsoredSwap(wallet, 'WETH', 'USDC', '0.01');
    const first = await nextSigning(swapId, 0);
    expect(first.body.data.signing.payload.type).toBe('evm-transaction');
    expect(first.body.data.signing.executionHints).toMatchObject({ gasPaidBy: 'service' });
    const rawTx = await sign(wallet, first.body.data.signing.payload as SigningPayload);
    const submitted = await submit(swapId, rawTx);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ swapId, status: 'submitted' });
    // Still paused: nothing was mined while the submit was answered.
    expect(
      await provider.getTransactionReceipt(first.body.data.signing.executionHints.gasDropTxHash as string),
    ).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pausedAt + 30_000 - Date.now())));
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine');

    const swap = await finish(swapId, wallet, first.body.data.signing.step.current as number);
    expect(swap).toMatchObject({ status: 'completed', failure: null });
    expect(await token('WETH').getFunction('balanceOf')(wallet.address)).toBe(amount);
    await expectLedgerSettled();
  });

  it('the devnet restarted under the running stack with the database kept: swaps in flight end, and new sponsored swaps are not wedged', async () => {
    const wallet = await freshWalletWith('USDC', 20_000_000n);
    const swapId = await sponsoredSwap(wallet, 'USDC', 'WETH', '10');
    const first = await signedFirstStep(swapId, wallet);
    await rpc('evm_setAutomine', [false]);
    expect((await submit(swapId, first.rawTx)).status).toBe(200);

    // A fresh devnet on the same ports: the same contracts at the same addresses, and none of the
    // relayers' transactions; the apps and the database keep running.
    await devnet.stop();
    devnet = await startPrivateDevnet();
    // The other sender's transaction went with the old chain (its nonce is a gap the relayers fill).
    spentOutsideLedger = 0n;

    // The wallet in flight holds its tokens on the new chain too (funded again): its swap goes on.
    await fund(wallet.address, 'USDC', 20_000_000n);
    const inFlight = await finish(swapId, wallet, first.step);
    expect(['completed', 'failed']).toContain(inFlight.status);
    if (inFlight.status === 'failed') expect(inFlight.failure).toMatchObject({ reason: expect.any(String) });

    // A new swap after the restart: accepted, relayed and completed, not stuck behind a nonce gap.
    const fresh = await freshWalletWith('USDC', 20_000_000n);
    const freshId = await sponsoredSwap(fresh, 'USDC', 'WETH', '10');
    expect(await finish(freshId, fresh, 0)).toMatchObject({ status: 'completed', failure: null });
    await expectLedgerSettled();
    // The ledger and the chain agree for every relayer.
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ address: string; next_nonce: string }>(
        `SELECT "address", "next_nonce" FROM "signer"."relayer_accounts" WHERE "chain" = 'devnet-a'`,
      );
      for (const row of rows) {
        expect(Number(row.next_nonce)).toBe(await provider.getTransactionCount(row.address, 'pending'));
      }
    } finally {
      await db.end();
    }
  });
});
